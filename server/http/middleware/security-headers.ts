import { Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * Headers on every response: no indexing, no sniffing, no framing, a strict CSP (pages use only
 * same-origin CSS and scripts), and no caching: nearly every response either holds a secret or
 * tells whether one exists (static assets set their own Cache-Control).
 */
const policy = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'none'"],
  },
  referrerPolicy: 'no-referrer',
  crossOriginResourcePolicy: 'same-origin',
  xFrameOptions: 'DENY',
  // Headers for browsers long gone (IE8 downloads, Flash policies, the removed XSS auditor).
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
});

const extra: [string, string][] = [
  ['X-Robots-Tag', 'noindex, nofollow'],
  ['Cache-Control', 'no-store'],
];

/**
 * Hono's secureHeaders decides the header set; it is computed once, because applying it per
 * request after the handler (as secureHeaders does) forces @hono/node-server to build a full
 * Response and costs most of the throughput. Here the headers are set before the handler,
 * and only responses built outside Hono's context (tRPC's) get them afterwards.
 */
async function computeHeaders(): Promise<[string, string][]> {
  const probe = new Hono().use(policy).get('/', (c) => c.body(null, 204));
  const res = await probe.request('/');
  const out: [string, string][] = [];
  res.headers.forEach((value, name) => out.push([name, value]));
  return [...out, ...extra];
}

export function securityHeaders(): MiddlewareHandler {
  let headers: [string, string][] | undefined;
  const ready = computeHeaders().then((h) => (headers = h));
  return async (c, next) => {
    const set = headers ?? (await ready);
    for (const [name, value] of set) c.header(name, value);
    await next();
    if (!c.res.headers.has('x-content-type-options')) {
      for (const [name, value] of set) if (!(name === 'cache-control' && c.res.headers.has(name))) c.res.headers.set(name, value);
    }
  };
}
