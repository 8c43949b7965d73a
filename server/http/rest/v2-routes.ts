import { Hono, type Context, type Handler } from 'hono';
import type { PushService } from '../../pushes/push-service.js';
import type { AppEnv } from '../app-env.js';
import { apiAccess, showPush, urlToken } from './api-guards.js';
import { readJsonBody } from './json-body.js';
import { ServiceError } from '../../service-error.js';
import { DEFAULT_MAX_FIELD_BYTES, readCreateRequest, requirePushParams } from './push-request-body.js';

/**
 * Password Pusher JSON API v2, mounted at /api/v2. Each handler parses, calls the push service,
 * and formats; errors thrown here become JSON in the app's error handler. `maxFieldBytes` caps
 * the non-file fields of multipart bodies (MAX_JSON_BODY_BYTES). `postSiblings`: fixed POST
 * names beside a token (`batch`: POST /pushes/batch), answered by POST /pushes/:token, for the
 * same reason as the GET ones below.
 */
export function v2Routes(
  pushes: PushService,
  maxFileBytes: number,
  maxFieldBytes = DEFAULT_MAX_FIELD_BYTES,
  postSiblings: Record<string, Handler<AppEnv>> = {},
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const guard = apiAccess(pushes);

  // The document comes from the configuration, fixed while the server runs: serialised once,
  // not on every call (clients poll it, and it is the API's cheapest answer).
  const versionJson = JSON.stringify(pushes.versionDocument());
  app.get('/version', (c) => c.body(versionJson, 200, { 'Content-Type': 'application/json' }));

  app.use('/pushes', guard);
  app.use('/pushes/*', guard);

  app.post('/pushes', async (c) => {
    const ctx = c.get('ctx');
    const request = await readCreateRequest(c, pushes, ctx, maxFileBytes, { maxFieldBytes });
    const push = await requirePushParams(request, 'push');
    return c.json(await pushes.create(ctx, push, request.upload, { fileFieldPresent: request.fileFieldPresent }), 201);
  });

  // The fixed names beside a token (`/pushes/active`, `/pushes/expired`) are answered by the
  // token route itself: Hono's RegExpRouter refuses a fixed path beside a parameter at the same
  // level, and one such route sends every request of the app to the slower TrieRouter
  // (test/server/http/active-router.test.ts). A new fixed GET sibling is one more entry here.
  const fixedSiblings: Record<string, (c: Context<AppEnv>) => Promise<Response>> = {
    active: async (c) => c.json(await pushes.list(c.get('ctx'), 'active', pushes.parsePage(c.req.query('page')))),
    expired: async (c) => c.json(await pushes.list(c.get('ctx'), 'expired', pushes.parsePage(c.req.query('page')))),
  };
  app.get('/pushes/:token', (c) => {
    const segment = c.req.param('token');
    const fixed = Object.hasOwn(fixedSiblings, segment) ? fixedSiblings[segment] : undefined;
    return fixed ? fixed(c) : showPush(c, pushes, urlToken(segment));
  });
  app.get('/pushes/:token/preview', async (c) => c.json(await pushes.preview(c.get('ctx'), urlToken(c.req.param('token')))));
  app.get('/pushes/:token/audit', async (c) =>
    c.json(await pushes.auditLog(c.get('ctx'), urlToken(c.req.param('token')), pushes.parseAuditPage(c.req.query('page')))),
  );
  app.post('/pushes/:token', (c, next) => {
    const segment = c.req.param('token');
    const fixed = Object.hasOwn(postSiblings, segment) ? postSiblings[segment] : undefined;
    if (!fixed) throw new ServiceError('not_found', 'not-found');
    return fixed(c, next);
  });
  // "E-mail the link" of an existing push (tRPC pushes.emailLink): the token from the path, the
  // rest of the shared input from the body; the service checks all of it.
  app.post('/pushes/:token/email', async (c) => {
    const token = urlToken(c.req.param('token'));
    const body = await readJsonBody(c, maxFieldBytes, '{"notify_emails": ["someone@example.com"], "notify_note": "…"}');
    const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
    return c.json(await pushes.emailLink(c.get('ctx'), { ...fields, url_token: token }));
  });
  // A viewer deleting a push with a passphrase gives it, as for a retrieval.
  app.delete('/pushes/:token', async (c) => c.json(await pushes.expire(c.get('ctx'), urlToken(c.req.param('token')), { passphrase: c.req.query('passphrase') })));

  return app;
}
