import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { Actor } from '../../pushes/push-service.js';
import { SLICE_BYTES, type SlicedUploads } from '../../pushes/sliced-upload.js';
import type { AppEnv } from '../app-env.js';
import { drainRefusedBody } from '../middleware/refused-body-drain.js';
import { requestHeader } from '../request-header.js';
import { readJsonBody } from './json-body.js';

/** A slice one byte too long is drained too, so its 413 reaches the client as JSON. */
const REFUSED_SLICE_MARGIN = 64 * 1024;

/** Who calls: the API's credentials (REST v2), or the create page's session and CSRF header. */
export interface UploadAccess {
  /** Checks the caller before any route (credentials, session, CSRF). */
  guard: MiddlewareHandler<AppEnv>[];
  actor(c: Context<AppEnv>): Actor;
}

/**
 * Sliced uploads of end-to-end file pushes (pushes/sliced-upload.ts holds the rules;
 * docs/end-to-end-encryption.md documents the API), at /api/v2/uploads and, for the create
 * page, /uploads:
 *   POST   /                               start: {"push": {...}, "files": [{"size": n}]} → 201 state
 *   GET    /:upload                        where it stands → state
 *   PUT    /:upload/files/:file?offset=n   a slice as the raw body → 200 receipt
 *   POST   /:upload/finish                 → 201, the push as REST v2's create answers it
 *   DELETE /:upload                        give it up → 204
 */
export function uploadRoutes(uploads: SlicedUploads, access: UploadAccess, maxFieldBytes: number): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // Before the guard: a slice refused for its credentials is drained like one refused for its offset.
  app.use('/:upload/files/:file', drainRefusedBody(SLICE_BYTES + REFUSED_SLICE_MARGIN));
  app.use('*', ...access.guard);

  app.post('/', async (c) => {
    const body = await readJsonBody(c, maxFieldBytes, '{"push": {...}, "files": [{"size": <envelope bytes>}]}');
    return c.json(await uploads.start(access.actor(c), body), 201);
  });
  app.get('/:upload', async (c) => c.json(await uploads.state(access.actor(c), c.req.param('upload'))));
  app.put('/:upload/files/:file', async (c) => {
    const length = requestHeader(c, 'content-length');
    const declared = length !== undefined && /^\d{1,16}$/.test(length) ? Number(length) : undefined;
    return c.json(await uploads.addSlice(access.actor(c), c.req.param('upload'), c.req.param('file'), c.req.query('offset'), declared, c.env.incoming));
  });
  app.post('/:upload/finish', async (c) => c.json(await uploads.finish(access.actor(c), c.req.param('upload')), 201));
  app.delete('/:upload', async (c) => {
    await uploads.abandon(access.actor(c), c.req.param('upload'));
    return c.body(null, 204);
  });
  return app;
}
