import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AccountService } from '../../../server/accounts/account-service.js';
import type { AppEnv } from '../../../server/http/app-env.js';
import { requestContext } from '../../../server/http/middleware/request-context.js';
import type { RequestContext } from '../../../server/http/request-context.js';

/** The contexts of two requests through the middleware (no token: the account service is never asked). */
async function twoContexts(): Promise<[RequestContext, RequestContext]> {
  const app = new Hono<AppEnv>();
  const seen: RequestContext[] = [];
  app.use(requestContext({ accounts: {} as AccountService, baseUrl: 'https://push.example', trustProxy: false, allowedHosts: new Set() }));
  app.get('/', (c) => {
    seen.push(c.get('ctx'));
    return c.text('ok');
  });
  for (let i = 0; i < 2; i++) expect((await app.request('/', { headers: { 'user-agent': `agent ${i}` } })).status).toBe(200);
  return [seen[0]!, seen[1]!];
}

describe('the request context', () => {
  // Getters made afresh per request (closures in an object literal) gave every context a V8
  // hidden class of its own in the old generation, which kept each request's objects alive
  // through young-generation collections: ~8 KB promoted per request and a mark-compact every
  // few thousand requests (docs/performance.md). Every request's context has the same getters.
  it('reads the client and the origin through the same getter functions for every request', async () => {
    const [a, b] = await twoContexts();
    for (const name of ['client', 'baseUrl'] as const) {
      const first = Object.getOwnPropertyDescriptor(a, name);
      const second = Object.getOwnPropertyDescriptor(b, name);
      expect(first?.get).toBeTypeOf('function');
      expect(second?.get).toBe(first?.get);
    }
  });

  it('gives each request its own values, and a copy carries them', async () => {
    const [a, b] = await twoContexts();
    expect(a.client.userAgent).toBe('agent 0');
    expect(b.client.userAgent).toBe('agent 1');
    const copy = { ...b, extra: true };
    expect(copy.client).toEqual({ ip: '', userAgent: 'agent 1', referrer: '' });
    expect(copy.baseUrl).toBe('https://push.example');
    expect(copy.user).toBeNull();
    expect(copy.badCredentials).toBe(false);
    expect(Object.keys(b).sort()).toEqual(['badCredentials', 'baseUrl', 'client', 'user']);
  });
});
