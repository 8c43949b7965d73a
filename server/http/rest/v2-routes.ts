import { Hono, type MiddlewareHandler } from 'hono';
import type { PushService } from '../../pushes/push-service.js';
import { URL_TOKEN_PATTERN } from '../../pushes/url-token.js';
import { ServiceError } from '../../service-error.js';
import type { AppEnv } from '../app-env.js';
import { DEFAULT_MAX_FIELD_BYTES, readCreateRequest } from './push-request-body.js';

/**
 * Password Pusher JSON API v2, mounted at /api/v2. Each handler parses, calls the push service,
 * and formats; errors thrown here become JSON in the app's error handler.
 */
/** `maxFieldBytes` caps the non-file fields of multipart bodies: pass MAX_JSON_BODY_BYTES. */
export function v2Routes(pushes: PushService, maxFileBytes: number, maxFieldBytes = DEFAULT_MAX_FIELD_BYTES): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  /** Every endpoint but version: wrong credentials are 401, and anonymous use may be off. */
  const apiAccess: MiddlewareHandler<AppEnv> = async (c, next) => {
    const ctx = c.get('ctx');
    if (ctx.badCredentials) throw new ServiceError('unauthorized', 'Invalid API token or email.');
    pushes.assertApiAccess(ctx);
    await next();
  };

  const token = (raw: string) => {
    if (!URL_TOKEN_PATTERN.test(raw)) throw new ServiceError('not_found', 'not-found');
    return raw;
  };

  app.get('/version', (c) => c.json(pushes.versionDocument()));

  app.use('/pushes', apiAccess);
  app.use('/pushes/*', apiAccess);

  app.post('/pushes', async (c) => {
    const ctx = c.get('ctx');
    const { params, upload, fileFieldPresent } = await readCreateRequest(c, pushes, ctx, maxFileBytes, { maxFieldBytes });
    const push = params.push;
    if (push === undefined || push === null || push === '' || (typeof push === 'object' && !Array.isArray(push) && Object.keys(push).length === 0 && !upload)) {
      await upload?.discard();
      throw new ServiceError('bad_request', 'param is missing or the value is empty or invalid: push');
    }
    return c.json(await pushes.create(ctx, push, upload, { fileFieldPresent }), 201);
  });

  app.get('/pushes/active', async (c) => c.json(await pushes.list(c.get('ctx'), 'active', pushes.parsePage(c.req.query('page')))));
  app.get('/pushes/expired', async (c) => c.json(await pushes.list(c.get('ctx'), 'expired', pushes.parsePage(c.req.query('page')))));

  app.get('/pushes/:token', async (c) => {
    // Hono answers HEAD with the GET handler: a HEAD (link checkers, scanners) must not count
    // a view, let alone use up the last one, without delivering anything.
    if (c.req.method === 'HEAD') return c.json(await pushes.preview(c.get('ctx'), token(c.req.param('token'))));
    return c.json(await pushes.retrieve(c.get('ctx'), token(c.req.param('token')), c.req.query('passphrase')));
  });
  app.get('/pushes/:token/preview', async (c) => c.json(await pushes.preview(c.get('ctx'), token(c.req.param('token')))));
  app.get('/pushes/:token/audit', async (c) =>
    c.json(await pushes.auditLog(c.get('ctx'), token(c.req.param('token')), pushes.parsePage(c.req.query('page')))),
  );
  app.delete('/pushes/:token', async (c) => c.json(await pushes.expire(c.get('ctx'), token(c.req.param('token')))));

  return app;
}
