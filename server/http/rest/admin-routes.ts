import { Hono } from 'hono';
import { auditExportStream } from '../../admin/audit-export.js';
import { auditFilterFrom, type AdminService } from '../../admin/admin-service.js';
import type { InviteService } from '../../admin/invite-service.js';
import { ServiceError } from '../../service-error.js';
import type { AppEnv } from '../app-env.js';
import { rejectBadCredentials } from './api-guards.js';
import { readJsonBody } from './json-body.js';

const page = (raw: string | undefined) => {
  const n = raw === undefined || raw === '' ? 1 : /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1) throw new ServiceError('bad_request', 'Invalid page parameter');
  return n;
};

/**
 * The administration over JSON with an administrator's API token, mounted at /api/v2/admin:
 * for scripts and a SIEM (GET /audit streams CSV or NDJSON). Every route refuses anyone but an
 * administrator before anything else (401 without an account, 403 with another's).
 */
export function adminApiRoutes(admin: AdminService, invites: InviteService, maxBodyBytes: number): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    const ctx = c.get('ctx');
    rejectBadCredentials(ctx);
    admin.requireAdmin(ctx);
    await next();
  });

  app.get('/audit', async (c) => {
    const { filter, format } = await auditFilterFrom(admin.store, c.req.query());
    const entries = await admin.exportAudit(c.get('ctx'), filter);
    const stream = auditExportStream(entries, format, admin.emailLookup());
    return c.body(stream, 200, {
      'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
      'Content-Disposition': `attachment; filename="audit.${format === 'csv' ? 'csv' : 'ndjson'}"`,
      'Cache-Control': 'no-store',
    });
  });
  app.get('/log', async (c) => c.json(await admin.adminLog(c.get('ctx'), page(c.req.query('page')))));
  app.get('/users', async (c) => c.json(await admin.listUsers(c.get('ctx'), c.req.query('q'), page(c.req.query('page')))));
  app.post('/users/:id/lock', async (c) => (await admin.lock(c.get('ctx'), c.req.param('id')), c.body(null, 204)));
  app.post('/users/:id/unlock', async (c) => (await admin.unlock(c.get('ctx'), c.req.param('id')), c.body(null, 204)));
  app.post('/users/:id/reset-second-factor', async (c) => c.json(await admin.resetSecondFactor(c.get('ctx'), c.req.param('id'))));
  app.post('/users/:id/end-sessions', async (c) => c.json({ ended: await admin.endSessions(c.get('ctx'), c.req.param('id')) }));
  app.post('/users/:id/revoke-tokens', async (c) => c.json({ revoked: await admin.revokeTokens(c.get('ctx'), c.req.param('id')) }));
  app.delete('/users/:id', async (c) => {
    const withPushes = c.req.query('with_pushes');
    if (withPushes !== undefined && withPushes !== 'true' && withPushes !== 'false') throw new ServiceError('bad_request', 'with_pushes must be true or false');
    return c.json({ expired_pushes: await admin.deleteUser(c.get('ctx'), c.req.param('id'), withPushes === 'true') });
  });
  app.get('/pushes', async (c) => c.json(await admin.listPushes(c.get('ctx'), page(c.req.query('page')))));
  app.post('/pushes/:id/expire', async (c) => (await admin.expirePush(c.get('ctx'), c.req.param('id')), c.body(null, 204)));
  app.get('/storage', async (c) => {
    const s = await admin.storage(c.get('ctx'));
    return c.json({ used_bytes: s.usedBytes, max_bytes: s.maxBytes, pushes: s.pushes });
  });
  app.get('/config', (c) => c.json(admin.effectiveConfiguration(c.get('ctx'))));
  // id is the digest of the link's secret: it names the invite to revoke, and signs nobody up.
  app.get('/invites', async (c) => c.json((await invites.list(c.get('ctx'), page(c.req.query('page')))).map(({ invite, state }) => ({ ...invite, state }))));
  app.post('/invites/:id/revoke', async (c) => {
    await invites.revoke(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });
  app.post('/invites', async (c) => {
    const raw = await readJsonBody(c, maxBodyBytes, '{"email": "…" (optional), "days": 7}');
    if (raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) throw new ServiceError('bad_request', 'The body must be a JSON object: {"email": "…" (optional), "days": 7}');
    const body = raw as { email?: unknown; days?: unknown } | null;
    const made = await invites.create(c.get('ctx'), body?.email, body?.days === undefined ? undefined : String(body.days));
    return c.json({ link: made.link, email: made.invite.email, expires_at: made.invite.expiresAt }, 201);
  });
  return app;
}

