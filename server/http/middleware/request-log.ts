import type { Context } from 'hono';
import type { Logger } from '../../logger.js';
import type { AppEnv } from '../app-env.js';
import { routePattern } from './route-pattern.js';

/**
 * One line per request at `info` (requestFrame calls it once the answer is ready): method, route
 * pattern, status, duration and request id. Never the path, query string, headers or body (see
 * routePattern for why not even the path).
 */
export function logRequest(logger: Logger, c: Context<AppEnv>, startedAt: number): void {
  logger.info('request', {
    request_id: c.get('requestId'),
    method: c.req.method,
    route: routePattern(c),
    status: c.res.status,
    duration_ms: Math.round((performance.now() - startedAt) * 10) / 10,
  });
}
