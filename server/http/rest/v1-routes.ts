import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { AuditEntry } from '../../../shared/push-schema.js';
import type { PushService } from '../../pushes/push-service.js';
import type { AppEnv } from '../app-env.js';
import { apiAccess, showPush, urlToken } from './api-guards.js';
import { DEFAULT_MAX_FIELD_BYTES, readCreateRequest, requirePushParams } from './push-request-body.js';

/**
 * Password Pusher's legacy prefixes: the body key each create uses, the kind it implies, and
 * whether creating there needs an account whatever the instance settings (the reference
 * refuses an anonymous `POST /r.json` with 401; `/f.json` follows FILES_REQUIRE_AUTH).
 */
const PREFIXES = {
  p: { bodyKey: 'password', kind: undefined, createNeedsAccount: false }, // text, unless the body names a kind or has files
  f: { bodyKey: 'file_push', kind: 'file', createNeedsAccount: false },
  r: { bodyKey: 'url', kind: 'url', createNeedsAccount: true },
} as const;

export const V1_API_VERSION = '1.5';

/** An entry of the v1 audit log (`{"views": [...]}`), as the reference's v1 API writes it. */
export interface V1AuditView {
  ip: string;
  user_agent: string;
  referrer: string;
  /** A view that delivered the payload, or the expiry. */
  successful: boolean;
  created_at: string;
  updated_at: string;
  /** 0: a view (or failed view), 1: the expiry. */
  kind: 0 | 1;
}

/** v2 audit entries → the v1 shape; v1 never listed creation or failed passphrase entries. */
function v1AuditViews(logs: AuditEntry[]): V1AuditView[] {
  return logs
    .filter((e) => e.kind !== 'creation' && e.kind !== 'failed_passphrase')
    .map((e) => ({
      ip: e.ip,
      user_agent: e.user_agent,
      referrer: e.referrer,
      successful: e.kind === 'view' || e.kind === 'expire',
      created_at: e.created_at,
      updated_at: e.updated_at,
      kind: e.kind === 'expire' ? 1 : 0,
    }));
}

/**
 * Password Pusher's legacy v1 JSON API (what most third-party clients speak), mounted at `/`:
 * `POST /p.json` (`password`), `/f.json` (`file_push`), `/r.json` (`url`), and for each prefix
 * show, delete, preview, audit, active and expired under `/<prefix>/…json`; plus
 * `/api/v1/version`. Thin like v2: parse, call the same push service methods, format.
 * Only `.json` paths are matched here, so `/p/:token` and `/p/:token/r` fall through to the pages.
 * `maxFieldBytes` caps the non-file fields of multipart bodies (pass MAX_JSON_BODY_BYTES).
 */
export function v1Routes(pushes: PushService, maxFileBytes: number, maxFieldBytes = DEFAULT_MAX_FIELD_BYTES): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const guard = apiAccess(pushes);

  const version = () => {
    const v2 = pushes.versionDocument();
    return { application_version: v2.application_version, api_version: V1_API_VERSION, edition: v2.edition, secret_push_version: v2.secret_push_version };
  };
  // `/api/v1/version.json` arrives here too: the app's router ignores the suffix (routingPath).
  app.get('/api/v1/version', (c) => c.json(version()));

  for (const [prefix, { bodyKey, kind, createNeedsAccount }] of Object.entries(PREFIXES)) {
    app.post(`/${prefix}.json`, guard, async (c) => {
      const ctx = c.get('ctx');
      // Before the body is read, as the reference does: no 400 for a body that would be refused anyway.
      if (createNeedsAccount) pushes.requireAccount(ctx, `Creating a push through /${prefix}.json needs an API token.`);
      const request = await readCreateRequest(c, pushes, ctx, maxFileBytes, { bodyKey, maxFieldBytes });
      const body = await requirePushParams(request, bodyKey);
      // /f.json and /r.json make their own kind whatever the body says (the reference ignores it).
      const input = kind ? { ...body, kind } : body;
      return c.json(await pushes.create(ctx, input, request.upload, { fileFieldPresent: request.fileFieldPresent }), 201);
    });

    // `/<prefix>/<segment>`: one parameter route per level, shared with the recipient page's
    // `/p/<token>` (Hono's RegExpRouter refuses a fixed path or a second parameter pattern beside
    // a parameter, and one such route sends every request to the slower TrieRouter:
    // test/server/http/active-router.test.ts). Only a `.json` segment is the API's; any other
    // goes on, unguarded, to the pages. `active.json`/`expired.json` are the collections.
    const collections: Record<string, 'active' | 'expired'> = { 'active.json': 'active', 'expired.json': 'expired' };
    const jsonSegment =
      (answer: (c: Context<AppEnv>, segment: string) => Promise<Response>): MiddlewareHandler<AppEnv> =>
      async (c, next) => {
        const segment = c.req.param('token') ?? '';
        if (!segment.endsWith('.json')) return next();
        // The API's guard, then the answer; a refusal or an error thrown goes to the app's handler.
        await guard(c, async () => {
          c.res = await answer(c, segment);
        });
      };
    const fileToken = (segment: string) => urlToken(segment.slice(0, -'.json'.length));
    app.get(
      `/${prefix}/:token`,
      jsonSegment(async (c, segment) => {
        const collection = Object.hasOwn(collections, segment) ? collections[segment] : undefined;
        if (collection) return c.json(await pushes.list(c.get('ctx'), collection, pushes.parsePage(c.req.query('page'))));
        return showPush(c, pushes, fileToken(segment));
      }),
    );
    app.delete(
      `/${prefix}/:token`,
      jsonSegment(async (c, segment) => c.json(await pushes.expire(c.get('ctx'), fileToken(segment), { passphrase: c.req.query('passphrase') }))),
    );

    app.get(`/${prefix}/:token/preview.json`, guard, async (c) => c.json(await pushes.preview(c.get('ctx'), urlToken(c.req.param('token')))));
    app.get(`/${prefix}/:token/audit.json`, guard, async (c) => {
      const { logs } = await pushes.auditLog(c.get('ctx'), urlToken(c.req.param('token')), pushes.parsePage(c.req.query('page')));
      return c.json({ views: v1AuditViews(logs) });
    });
  }

  return app;
}
