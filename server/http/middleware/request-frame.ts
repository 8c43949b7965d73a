import type { ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import type { Logger } from '../../logger.js';
import type { Readiness } from '../../observability/readiness.js';
import type { AppEnv } from '../app-env.js';
import { assignRequestId } from './request-id.js';
import { logRequest } from './request-log.js';
import { securityHeaderSet } from './security-headers.js';

/**
 * What every request gets around its handler: its id, the security headers, `Connection: close`
 * while the server drains, and its log line. One middleware rather than four: on the hot path
 * each middleware costs an async step per request, and the four together cost more than the
 * handler of a small API answer.
 *
 * The headers go straight onto Node's response, which merges them with the handler's when the
 * answer is written, the handler's winning (a static asset's Cache-Control). Set through Hono's
 * `c.header` instead, they would make every answer build a Fetch `Headers` object and convert
 * it back, which cost more than the handler. Responses Hono never sees (tRPC's) get them too.
 */
export function requestFrame(logger: Logger, readiness: Readiness): MiddlewareHandler<AppEnv> {
  let headers: [string, string][] | undefined;
  const ready = securityHeaderSet().then((h) => (headers = h));
  const logging = logger.enabled('info');
  return async (c, next) => {
    const started = logging ? performance.now() : 0;
    const set = headerSetter(c);
    set('X-Request-Id', assignRequestId(c));
    for (const [name, value] of headers ?? (await ready)) set(name, value);
    await next();
    // In flight when the drain began: answered, and the connection closed after it, so a
    // keep-alive client sends its next request to an instance that stays.
    if (readiness.isDraining) set('Connection', 'close');
    if (logging) logRequest(logger, c, started);
  };
}

/** Sets a header on Node's response when there is one (a real server), else on Hono's context (app.request in tests). */
function headerSetter(c: Context<AppEnv>): (name: string, value: string) => void {
  const outgoing = c.env?.outgoing as ServerResponse | undefined;
  if (outgoing && typeof outgoing.setHeader === 'function') return (name, value) => outgoing.setHeader(name, value);
  return (name, value) => c.header(name, value);
}
