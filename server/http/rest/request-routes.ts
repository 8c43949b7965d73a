import { Hono } from 'hono';
import type { PushService } from '../../pushes/push-service.js';
import type { RequestService } from '../../requests/request-service.js';
import { readCreateRequest } from './push-request-body.js';
import type { AppEnv } from '../app-env.js';
import { rejectBadCredentials, urlToken } from './api-guards.js';
import { readJsonBody } from './json-body.js';

/**
 * Secret requests over JSON, mounted at /api/v2/secret-requests (Secret Push's own: Password
 * Pusher OSS has no request routes, and its clients read its `/api/v2/requests` 404 as "not
 * offered", so that path stays 404). Making, listing and closing need an account; showing and
 * answering need only the link.
 */
export function requestRoutes(requests: RequestService, pushes: PushService, maxFileBytes: number, maxBodyBytes: number): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    rejectBadCredentials(c.get('ctx'));
    await next();
  });
  app.get('/', async (c) => c.json(await requests.list(c.get('ctx'), pushes.parsePage(c.req.query('page')))));
  app.post('/', async (c) => {
    const body = await readJsonBody(c, maxBodyBytes, '{"title": "…", "message": "…", "expire_after_days": 7}');
    return c.json(await requests.create(c.get('ctx'), body), 201);
  });
  app.get('/:token', async (c) => c.json(await requests.show(urlToken(c.req.param('token')))));
  // JSON `{"payload": …}`, or multipart with `payload` and `files[]` (the answer is then a file push).
  app.post('/:token/answer', async (c) => {
    const token = urlToken(c.req.param('token'));
    // A used, expired or closed link is refused before a byte of the body is stored.
    await requests.show(token);
    const ctx = c.get('ctx');
    const { params, upload } = await readCreateRequest(c, pushes, ctx, maxFileBytes, { maxFieldBytes: maxBodyBytes, openUpload: () => pushes.openSentFileUpload() });
    return c.json(await requests.answer(ctx, token, { payload: params.payload }, upload), 201);
  });
  app.delete('/:token', async (c) => c.json(await requests.close(c.get('ctx'), urlToken(c.req.param('token')))));
  return app;
}
