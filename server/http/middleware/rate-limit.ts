import type { ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { rateLimiter, type Store as RateLimitStore } from 'hono-rate-limiter';
import { clientKey } from '../../security/client-key.js';
import type { LimitCounters } from '../../storage/store.js';
import type { AppEnv } from '../app-env.js';
import { tooManyRequestsPage } from '../pages/too-many-requests-page.js';

const WINDOW_MS = 60_000;
/** A slice of a sliced upload (rest/upload-routes.ts). */
const SLICE_PATH = /^\/api\/v2\/uploads\/[^/]+\/files\/[^/]+$/;
/** A file download (app.ts). */
const FILE_PATH = /^\/p\/[^/]+\/files\/[^/]+$/;

/** A person's browser asking for a page (not an API client, not a script). */
function wantsPage(path: string, accept: string | undefined): boolean {
  return (accept ?? '').includes('text/html') && !path.startsWith('/api') && !path.startsWith('/trpc') && !path.endsWith('.json');
}

/** Whose budget a request spends: its client (an IPv4 address, or an IPv6 /64: client-key.ts). */
const rateKey = (c: Context<AppEnv>) => clientKey(c.get('ctx').client.ip);

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

/** How many procedure calls a request carries: a tRPC batch (`/trpc/a,b,c?batch=1`) is one per name. */
export function callsInRequest(path: string, batch: string | undefined): number {
  if (batch !== '1' || !path.startsWith('/trpc/')) return 1;
  return path.slice('/trpc/'.length).split(',').length;
}

/**
 * Requests per client IP per minute (hono-rate-limiter over the store's counters). The key is
 * the resolved client IP, which honours X-Forwarded-For only with TRUST_PROXY set. A tRPC batch
 * counts once per call it carries: the calls beyond the first are counted here, the first by
 * the limiter, which then judges the total (a batch of 1,000 creates is 1,000 requests).
 */
export function rateLimit(perMinute: number, counters: LimitCounters, onRejected: () => void = () => {}): MiddlewareHandler<AppEnv> {
  if (perMinute <= 0) return async (_c, next) => next();
  const limiter = rateLimiter<AppEnv>({
    windowMs: WINDOW_MS,
    limit: perMinute,
    standardHeaders: 'draft-6',
    store: counterStore(counters),
    keyGenerator: rateKey,
    handler: (c) => {
      onRejected();
      const reset = c.res.headers.get('RateLimit-Reset');
      c.header('Retry-After', reset ?? '60');
      if (wantsPage(c.req.path, c.req.header('accept'))) return tooManyRequestsPage(c);
      return c.json({ error: 'Too many requests. Please slow down and try again in a minute.' }, 429);
    },
  });
  return async (c, next) => {
    const extra = callsInRequest(c.req.path, c.req.query('batch')) - 1;
    if (extra > 0) await counters.hit(`rate:${rateKey(c)}`, WINDOW_MS, Date.now(), extra);
    const answer = await limiter(c, next);
    // A stored slice of a sliced upload is free: its upload was counted, and its bytes checked,
    // when it started (a 1 GiB push is 128 slices). A refused one counts, as any request.
    // So is a range of an end-to-end file, answered (206, written straight to Node's response) to
    // a download ticket its view handed out: Firefox's recipient page fetches 1 GiB as 128 ranges.
    const ranged = (c.env?.outgoing as ServerResponse | undefined)?.statusCode === 206 && FILE_PATH.test(c.req.path);
    if (ranged || (c.req.method === 'PUT' && c.res.status === 200 && SLICE_PATH.test(c.req.path))) await counters.unhit(`rate:${rateKey(c)}`, WINDOW_MS, Date.now());
    return answer;
  };
}
