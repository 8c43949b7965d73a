import type { MiddlewareHandler } from 'hono';
import type { Readiness } from '../../observability/readiness.js';
import type { AppEnv } from '../app-env.js';

/**
 * During a shutdown, requests already in flight are answered, and each answer closes its
 * connection, so no keep-alive client sends another request to an instance about to go.
 */
export function closingWhileDraining(readiness: Readiness): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (readiness.isDraining) c.header('Connection', 'close');
  };
}
