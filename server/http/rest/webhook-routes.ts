import { Hono } from 'hono';
import { ServiceError } from '../../service-error.js';
import type { WebhookService } from '../../webhooks/webhook-service.js';
import type { AppEnv } from '../app-env.js';
import { readJsonBody } from './json-body.js';
import { rejectBadCredentials } from './api-guards.js';

/**
 * An account's webhook endpoints over JSON, mounted at /api/v2/webhooks (Secret Push's own; not
 * in Password Pusher). Bodies are `{"url": …, "events": […], "secret": "whsec_…"}`.
 */
export function webhookRoutes(webhooks: WebhookService, maxBodyBytes: number): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    rejectBadCredentials(c.get('ctx'));
    await next();
  });
  app.get('/', async (c) => c.json(await webhooks.list(c.get('ctx'))));
  app.get('/deliveries', async (c) => c.json(await webhooks.deliveries(c.get('ctx'))));
  app.post('/', async (c) => {
    const ctx = c.get('ctx');
    // The account first: an anonymous caller learns nothing about the body's checks.
    if (!ctx.user) throw new ServiceError('unauthorized', 'You need to sign in or sign up before continuing.');
    const body = await readJsonBody(c, maxBodyBytes, '{"url": "https://…", "events": […]}');
    return c.json(await webhooks.create(ctx, body), 201);
  });
  app.delete('/:id', async (c) => {
    await webhooks.remove(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });
  return app;
}
