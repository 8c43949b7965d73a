import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../logger.js';

/**
 * URL tokens are secrets (whoever has one can open the push), so logged paths keep only their
 * shape: `/p/<token>` → `/p/:token`, and the query string is never logged.
 */
export function redactPath(path: string): string {
  return path
    .replace(/^\/p\/[^/.]+/, '/p/:token')
    .replace(/^\/api\/v2\/pushes\/(?!(?:active|expired)(?:\.json)?$)[^/.]+/, '/api/v2/pushes/:token')
    .replace(/^\/(f|r)\/[^/.]+/, '/$1/:token');
}

/** One debug line per request; nothing at all (not even timing) unless LOG_LEVEL=debug. */
export function requestLog(logger: Logger, enabled: boolean): MiddlewareHandler {
  if (!enabled) return async (_c, next) => next();
  return async (c, next) => {
    const started = performance.now();
    await next();
    const ms = (performance.now() - started).toFixed(1);
    logger.debug(`${c.req.method} ${redactPath(c.req.path)} ${c.res.status} ${ms}ms`);
  };
}
