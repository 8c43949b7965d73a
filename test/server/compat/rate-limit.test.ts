import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * Rate limiting per client IP (RATE_LIMIT_PER_MINUTE; 429 with Retry-After and a JSON error),
 * and TRUST_PROXY: X-Forwarded-For is honoured only when it is set, and then only its last hop
 * (the address the trusted proxy appended), so a client cannot pick its own budget.
 */

const LIMIT = 5;

async function hit(server: TestServer, path = '/api/v2/version', headers: Record<string, string> = {}) {
  return fetch(server.url + path, { headers });
}

async function spend(server: TestServer, n: number, headers: Record<string, string> = {}) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await hit(server, '/api/v2/version', headers)).status);
  return statuses;
}

describe('RATE_LIMIT_PER_MINUTE without a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(() => server.stop());

  it('the 6th request of a minute is 429 with Retry-After and a JSON error; the budget covers every path', async () => {
    expect(await spend(server, LIMIT)).toEqual(Array(LIMIT).fill(200));
    const over = await hit(server);
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await over.json()) as { error: string };
    expect(typeof body.error).toBe('string');
    expect(body.error).toMatch(/too many requests/i);
    // Every endpoint draws on the same budget: v1, v2, creates.
    for (const path of ['/api/v1/version', '/p/active.json', '/api/v2/pushes/abc']) {
      const res = await hit(server, path);
      expect.soft([path, res.status]).toEqual([path, 429]);
    }
    const create = await api.post(server, '/p.json', { json: { password: { payload: 'x' } } });
    expect(create.status).toBe(429);
    // A person's browser gets a page in words; an API call asking for HTML still gets JSON.
    const page = await hit(server, '/', { accept: 'text/html,application/xhtml+xml' });
    expect(page.status).toBe(429);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('retry-after')).toBeTruthy();
    expect(await page.text()).toContain('Please wait a minute and try again.');
    const api429 = await hit(server, '/api/v2/version', { accept: 'text/html' });
    expect(api429.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('X-Forwarded-For is ignored without TRUST_PROXY', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(() => server.stop());

  it('different X-Forwarded-For values share the socket address budget', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await hit(server, '/api/v2/version', { 'x-forwarded-for': `203.0.113.${i + 1}` })).status);
    expect(statuses).toEqual([...Array(LIMIT).fill(200), 429]);
  });

  it('the audit log records the socket address, not X-Forwarded-For', async () => {
    const other = await startServer();
    try {
      const { token } = await createUserWithToken(other, 'noproxy@example.com');
      const p = await createPush(other, { payload: 'x' }, token);
      await api.get(other, `/p/${p.url_token}.json`, { headers: { 'x-forwarded-for': '203.0.113.50' } });
      const audit = await api.get(other, `/api/v2/pushes/${p.url_token}/audit`, { token });
      const view = audit.body.logs.find((l: { kind: string }) => l.kind === 'view');
      expect(view.ip).not.toContain('203.0.113.50');
      expect(view.ip).toMatch(/127\.0\.0\.1/);
    } finally {
      await other.stop();
    }
  });
});

describe('TRUST_PROXY=true', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ RATE_LIMIT_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'true' });
  });
  afterAll(() => server.stop());

  it('different X-Forwarded-For clients get separate budgets', async () => {
    const a = { 'x-forwarded-for': '198.51.100.1' };
    const b = { 'x-forwarded-for': '198.51.100.2' };
    expect(await spend(server, LIMIT, a)).toEqual(Array(LIMIT).fill(200));
    expect((await hit(server, '/api/v2/version', a)).status).toBe(429);
    expect(await spend(server, LIMIT, b)).toEqual(Array(LIMIT).fill(200));
    expect((await hit(server, '/api/v2/version', b)).status).toBe(429);
    // A request without the header is the proxy's own address: another budget again.
    expect((await hit(server)).status).toBe(200);
  });

  it('only the last hop counts: a client cannot escape by prepending addresses', async () => {
    const c = { 'x-forwarded-for': '198.51.100.3' };
    expect(await spend(server, LIMIT, c)).toEqual(Array(LIMIT).fill(200));
    const spoofed = await hit(server, '/api/v2/version', { 'x-forwarded-for': '10.9.9.9, 198.51.100.3' });
    expect(spoofed.status).toBe(429);
    expect(spoofed.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('the audit log records the forwarded client address', async () => {
    const { token } = await createUserWithToken(server, 'proxied@example.com');
    const owner = { authorization: `Bearer ${token}`, 'x-forwarded-for': '198.51.100.20' };
    const created = await api.post(server, '/p.json', { json: { password: { payload: 'x' } }, headers: owner });
    expect(created.status).toBe(201);
    await api.get(server, `/p/${created.body.url_token}.json`, { headers: { 'x-forwarded-for': '10.0.0.1, 198.51.100.21' } });
    const audit = await api.get(server, `/api/v2/pushes/${created.body.url_token}/audit`, { headers: owner });
    expect(audit.status).toBe(200);
    expect(audit.body.logs.map((l: { kind: string; ip: string }) => [l.kind, l.ip])).toEqual([
      ['creation', '198.51.100.20'],
      ['view', '198.51.100.21'],
    ]);
  });
});

describe('RATE_LIMIT_PER_MINUTE=0', () => {
  it('turns rate limiting off', async () => {
    const server = await startServer({ RATE_LIMIT_PER_MINUTE: '0' });
    try {
      expect(await spend(server, 30)).toEqual(Array(30).fill(200));
    } finally {
      await server.stop();
    }
  });
});
