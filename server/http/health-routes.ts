import { Hono } from 'hono';
import { safeEqual } from '../crypto/secret-hash.js';
import type { Metrics } from '../observability/metrics.js';
import type { Readiness } from '../observability/readiness.js';
import type { AppEnv } from './app-env.js';

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * What a load balancer and Prometheus ask, mounted ahead of the rate limit, the request log and
 * the services: `/healthz` (the process answers), `/readyz` (it should get traffic) and, when a
 * METRICS_TOKEN is set, `/metrics` behind that bearer token. Answers carry no internal detail.
 */
export function healthRoutes(readiness: Readiness, metrics: { metrics: Metrics; token: string } | undefined): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.on(['GET', 'HEAD'], '/healthz', (c) => c.json({ status: 'ok' }, 200, NO_STORE));

  app.on(['GET', 'HEAD'], '/readyz', async (c) => {
    const state = await readiness.check();
    if (state.ready) return c.json({ status: 'ready' }, 200, NO_STORE);
    return c.json({ status: 'not ready', reason: state.reason }, 503, { ...NO_STORE, 'Retry-After': '5' });
  });

  if (metrics) {
    app.get('/metrics', async (c) => {
      const given = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
      if (!given || !safeEqual(given, metrics.token)) {
        return c.json({ error: 'Metrics need Authorization: Bearer <METRICS_TOKEN>.' }, 401, { 'WWW-Authenticate': 'Bearer realm="metrics"' });
      }
      return c.body(await metrics.metrics.render(), 200, { 'Content-Type': metrics.metrics.contentType, ...NO_STORE });
    });
  }
  return app;
}
