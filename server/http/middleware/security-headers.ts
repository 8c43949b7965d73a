import { Hono } from 'hono';
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
 * Hono's secureHeaders decides the header set, computed once here: applying it per request
 * after the handler (as secureHeaders does) makes every response rebuild its headers.
 * requestFrame sets them before the handler, where a handler's own value (a static asset's
 * Cache-Control) still overrides them.
 */
export async function securityHeaderSet(): Promise<[string, string][]> {
  const probe = new Hono().use(policy).get('/', (c) => c.body(null, 204));
  const res = await probe.request('/');
  const out: [string, string][] = [];
  res.headers.forEach((value, name) => out.push([name, value]));
  return [...out, ...extra];
}
