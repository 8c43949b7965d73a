import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../logger.js';
import type { AppEnv } from '../app-env.js';
import { routePattern } from './route-pattern.js';

/**
 * One line per request at `info`: method, route pattern, status, duration and request id. Never
 * the path, query string, headers or body (see routePattern for why not even the path).
 */
export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  // With LOG_LEVEL below info the line would be dropped anyway: no timing, no record per request.
  if (!logger.enabled('info')) return (_c, next) => next();
  return async (c, next) => {
    const started = performance.now();
    await next();
    logger.info('request', {
      request_id: c.get('requestId'),
      method: c.req.method,
      route: routePattern(c),
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
    });
  };
}
