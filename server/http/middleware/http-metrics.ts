import type { MiddlewareHandler } from 'hono';
import type { Metrics } from '../../observability/metrics.js';
import type { AppEnv } from '../app-env.js';
import { routePattern } from './route-pattern.js';

/** Counts and times every request by method, route pattern and status (metrics on only). */
export function httpMetrics(metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const route = routePattern(c);
    const method = c.req.method;
    metrics.httpRequests.labels(method, route, String(c.res.status)).inc();
    metrics.httpDuration.labels(method, route).observe((performance.now() - started) / 1000);
  };
}
