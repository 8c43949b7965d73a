import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * Headers on every response: no indexing, no sniffing, no framing, a strict CSP (pages use only
 * same-origin CSS and scripts), and no caching anywhere: nearly every response either holds a
 * secret or tells whether one exists.
 */
export function securityHeaders(): MiddlewareHandler {
  const base = secureHeaders({
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
  });
  return async (c, next) => {
    await base(c, next);
    c.header('X-Robots-Tag', 'noindex, nofollow');
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  };
}
