import type { ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../logger.js';
import type { Readiness } from '../../observability/readiness.js';
import type { AppEnv } from '../app-env.js';
import type { Brand } from '../../branding/brand.js';
import { assignRequestId } from './request-id.js';
import { logRequest } from './request-log.js';
import { securityHeaderSet } from './security-headers.js';

/**
 * What every request gets around its handler: its id, the security headers, the branding,
 * `Connection: close` while the server drains, and its log line. One middleware rather than
 * five: on the hot path each middleware costs an async step per request, and the five together
 * cost more than the handler of a small API answer.
 *
 * The headers go straight onto Node's response, which merges them with the handler's when the
 * answer is written, the handler's winning (a static asset's Cache-Control). Set through Hono's
 * `c.header` instead, they would make every answer build a Fetch `Headers` object and convert
 * it back, which cost more than the handler. Responses Hono never sees (tRPC's) get them too.
 */
export function requestFrame(logger: Logger, readiness: Readiness, brand?: Brand): MiddlewareHandler<AppEnv> {
  // Names in lower case: Node keys its headers by the lower-cased name, and a name already in
  // lower case is not copied for that on every request.
  let names: string[] = [];
  let values: string[] = [];
  const ready = securityHeaderSet().then((set) => {
    names = set.map(([name]) => name.toLowerCase());
    values = set.map(([, value]) => value);
  });
  let loaded = false;
  const logging = logger.enabled('info');
  return async (c, next) => {
    const started = logging ? performance.now() : 0;
    if (!loaded) {
      await ready;
      loaded = true;
    }
    const outgoing = c.env?.outgoing as ServerResponse | undefined;
    const id = assignRequestId(c);
    if (outgoing && typeof outgoing.setHeader === 'function') {
      outgoing.setHeader('x-request-id', id);
      for (let i = 0; i < names.length; i++) outgoing.setHeader(names[i]!, values[i]!);
    } else {
      c.header('X-Request-Id', id);
      for (let i = 0; i < names.length; i++) c.header(names[i]!, values[i]!);
    }
    // The branding every page reads (set here rather than by a middleware of its own: each
    // middleware is an async step of every request).
    if (brand) c.set('brand', brand);
    await next();
    // In flight when the drain began: answered, and the connection closed after it, so a
    // keep-alive client sends its next request to an instance that stays.
    if (readiness.isDraining) {
      if (outgoing && typeof outgoing.setHeader === 'function') outgoing.setHeader('connection', 'close');
      else c.header('Connection', 'close');
    }
    if (logging) logRequest(logger, c, started);
  };
}
