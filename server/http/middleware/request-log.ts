import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from '../../logger.js';

/**
 * One debug line per request; nothing at all (not even timing) unless LOG_LEVEL=debug.
 * URL tokens are secrets (whoever has one can open the push), so the line never holds the
 * requested path, only the pattern of the route that answered (`/api/v2/pushes/:token`), or
 * `(no route)`; query strings are never logged.
 */
export function requestLog(logger: Logger, enabled: boolean): MiddlewareHandler {
  if (!enabled) return async (_c, next) => next();
  return async (c, next) => {
    const started = performance.now();
    await next();
    const pattern = routePath(c, -1);
    const shown = !pattern || pattern.endsWith('*') ? '(no route)' : pattern;
    logger.debug(`${c.req.method} ${shown} ${c.res.status} ${(performance.now() - started).toFixed(1)}ms`);
  };
}
