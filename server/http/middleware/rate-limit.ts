import type { MiddlewareHandler } from 'hono';
import { rateLimiter, type Store as RateLimitStore } from 'hono-rate-limiter';
import type { LimitCounters } from '../../storage/store.js';
import type { AppEnv } from '../app-env.js';
import { tooManyRequestsPage } from '../pages/too-many-requests-page.js';

const WINDOW_MS = 60_000;

/** A person's browser asking for a page (not an API client, not a script). */
function wantsPage(path: string, accept: string | undefined): boolean {
  return (accept ?? '').includes('text/html') && !path.startsWith('/api') && !path.startsWith('/trpc') && !path.endsWith('.json');
}

/** hono-rate-limiter's counting, kept in the store's counters so every instance shares them. */
function counterStore(counters: LimitCounters): RateLimitStore<AppEnv> {
  return {
    prefix: 'rate:',
    async increment(key) {
      const { count, resetAt } = await counters.hit(`rate:${key}`, WINDOW_MS, Date.now());
      return { totalHits: count, resetTime: new Date(resetAt) };
    },
    decrement: (key) => counters.unhit(`rate:${key}`, WINDOW_MS, Date.now()),
    resetKey: (key) => counters.resetHits(`rate:${key}`),
  };
}

/**
 * Requests per client IP per minute (hono-rate-limiter over the store's counters). The key is
 * the resolved client IP, which honours X-Forwarded-For only with TRUST_PROXY set.
 */
export function rateLimit(perMinute: number, counters: LimitCounters, onRejected: () => void = () => {}): MiddlewareHandler<AppEnv> {
  if (perMinute <= 0) return async (_c, next) => next();
  return rateLimiter<AppEnv>({
    windowMs: WINDOW_MS,
    limit: perMinute,
    standardHeaders: 'draft-6',
    store: counterStore(counters),
    keyGenerator: (c) => c.get('ctx').client.ip || 'unknown',
    handler: (c) => {
      onRejected();
      const reset = c.res.headers.get('RateLimit-Reset');
      c.header('Retry-After', reset ?? '60');
      if (wantsPage(c.req.path, c.req.header('accept'))) return tooManyRequestsPage(c);
      return c.json({ error: 'Too many requests. Please slow down and try again in a minute.' }, 429);
    },
  });
}
