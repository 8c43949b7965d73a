import type { MiddlewareHandler } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import type { AppEnv } from '../app-env.js';
import { tooManyRequestsPage } from '../pages/too-many-requests-page.js';

/** A person's browser asking for a page (not an API client, not a script). */
function wantsPage(path: string, accept: string | undefined): boolean {
  return (accept ?? '').includes('text/html') && !path.startsWith('/api') && !path.startsWith('/trpc') && !path.endsWith('.json');
}

/**
 * Requests per client IP per minute (hono-rate-limiter's in-memory store). The key is the
 * resolved client IP, which honours X-Forwarded-For only with TRUST_PROXY set.
 */
export function rateLimit(perMinute: number): MiddlewareHandler<AppEnv> {
  if (perMinute <= 0) return async (_c, next) => next();
  return rateLimiter<AppEnv>({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-6',
    keyGenerator: (c) => c.get('ctx').client.ip || 'unknown',
    handler: (c) => {
      const reset = c.res.headers.get('RateLimit-Reset');
      c.header('Retry-After', reset ?? '60');
      if (wantsPage(c.req.path, c.req.header('accept'))) return tooManyRequestsPage(c);
      return c.json({ error: 'Too many requests. Please slow down and try again in a minute.' }, 429);
    },
  });
}
