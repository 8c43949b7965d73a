import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom } from '../pages/browser.js';

/**
 * Guessing limits: sign-in per client address and account (back-off, never an account lock)
 * and per client IP, passphrases per push and per client IP. Only failures count; past a limit
 * the answer is 429 with Retry-After, even for the right secret; the sign-in limit answers an
 * unknown email exactly as a known one. The servers trust X-Forwarded-For (TRUST_PROXY=true)
 * so one test process can be many clients.
 */

const PASSWORD = 'the right password';
const LIMITED = 'Too many failed sign-in attempts from your address. Please wait, then try again.';

/** A sign-in from the client address `ip` (a fresh form and session each time, as a script would). */
async function signIn(server: TestServer, ip: string, email: string, password: string) {
  const b = new Browser(server, { 'x-forwarded-for': ip });
  const csrf = csrfFrom((await b.get('/users/sign_in')).text, '/users/sign_in');
  return b.post('/users/sign_in', { csrf_token: csrf, email, password });
}

describe('sign-in guessing (defaults: back-off after 5 failures per address and account, 20 failures per address a minute)', () => {
  let server: TestServer;
  beforeAll(async () => {
    // At the production cost: the burst test needs guesses still hashing while others arrive.
    server = await startServer({ TRUST_PROXY: 'true', PASSWORD_HASH_COST: '14' });
    for (const email of ['victim@example.com', 'bystander@example.com', 'roamer@example.com', 'burst@example.com']) {
      await new Browser(server, { 'x-forwarded-for': '192.0.2.250' }).signUp(email, PASSWORD);
    }
  });
  afterAll(() => server.stop());

  it('per address and account: the 6th failure from one address waits (429, Retry-After, a clear message), even with the right password; the owner elsewhere is not locked out', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await signIn(server, '198.51.100.1', 'victim@example.com', `wrong ${i}`);
      expect([i, res.status]).toEqual([i, 401]);
    }
    const limited = await signIn(server, '198.51.100.1', 'victim@example.com', PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.text).toContain(LIMITED);
    expect(limited.text).toContain('<form method="post" action="/users/sign_in"');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(limited.setCookies.some((l) => l.startsWith('sp_session='))).toBe(false);
    // A stranger's failures do not lock the account: its owner signs in from their own address.
    expect((await signIn(server, '198.51.100.99', 'victim@example.com', PASSWORD)).status).toBe(303);
    // …and the guessing address may still sign in to other accounts.
    expect((await signIn(server, '198.51.100.1', 'bystander@example.com', PASSWORD)).status).toBe(303);
  });

  it('an unknown email gets exactly the answers an existing one gets (the limit reveals nothing)', async () => {
    const known: string[] = [];
    const unknown: string[] = [];
    const describe = (r: { status: number; text: string; headers: Headers }) =>
      `${r.status} ${r.headers.get('retry-after') !== null} ${(/class="notice[^"]*"[^>]*>([^<]*)</.exec(r.text) ?? [])[1]}`;
    for (let i = 0; i < 7; i++) {
      known.push(describe(await signIn(server, '203.0.113.1', 'roamer@example.com', `wrong ${i}`)));
      unknown.push(describe(await signIn(server, '203.0.113.2', 'nobody-here@example.com', `wrong ${i}`)));
    }
    expect(known).toEqual(unknown);
    expect(known[0]).toContain('Invalid email or password.');
    expect(known[5]).toContain(LIMITED);
    expect(known.map((k) => k.split(' ')[0])).toEqual(['401', '401', '401', '401', '401', '429', '429']);
  });

  it('per IP: one address guessing across many accounts is refused after 20 failures; other addresses are not', async () => {
    const ip = '192.0.2.77';
    for (let i = 0; i < 20; i++) {
      const res = await signIn(server, ip, `spray${i}@example.com`, 'password1');
      expect([i, res.status]).toEqual([i, 401]);
    }
    const limited = await signIn(server, ip, 'bystander@example.com', PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.text).toContain(LIMITED);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await signIn(server, '192.0.2.78', 'bystander@example.com', PASSWORD)).status).toBe(303);
  });

  it('successful sign-ins never count: one address signs in 30 times in a row', async () => {
    for (let i = 0; i < 30; i++) expect([i, (await signIn(server, '192.0.2.90', 'bystander@example.com', PASSWORD)).status]).toEqual([i, 303]);
  });

  it('a concurrent burst from one address cannot slip past the limit while the first guesses are still hashing', async () => {
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(server, '192.0.2.100', 'burst@example.com', `guess ${i}`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
  });
});

describe('sign-in limits are configurable', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: 'true', SIGN_IN_FAILURES_BEFORE_BACKOFF: '2', SIGN_IN_ATTEMPTS_PER_IP_PER_MINUTE: '3' });
    await new Browser(server, { 'x-forwarded-for': '192.0.2.1' }).signUp('conf@example.com', PASSWORD);
  });
  afterAll(() => server.stop());

  it('SIGN_IN_FAILURES_BEFORE_BACKOFF and SIGN_IN_ATTEMPTS_PER_IP_PER_MINUTE', async () => {
    const byAccount = [];
    for (let i = 0; i < 3; i++) byAccount.push((await signIn(server, '192.0.2.10', 'conf@example.com', 'nope')).status);
    expect(byAccount).toEqual([401, 401, 429]);
    const byIp = [];
    for (let i = 0; i < 4; i++) byIp.push((await signIn(server, '192.0.2.50', `x${i}@example.com`, 'nope')).status);
    expect(byIp).toEqual([401, 401, 401, 429]);
  });
});

describe('passphrase guessing per IP (default 20 failures a minute across all pushes), on top of per push', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: 'true', PASSWORD_HASH_COST: '14' });
  });
  afterAll(() => server.stop());

  const get = (token: string, passphrase: string, ip: string) =>
    api.get(server, `/api/v2/pushes/${token}?passphrase=${encodeURIComponent(passphrase)}`, { headers: { 'x-forwarded-for': ip } });

  it('the 21st failure from one address across many pushes is 429 (same message shape as per push); other addresses are unaffected', async () => {
    const pushes = [];
    for (let i = 0; i < 6; i++) pushes.push(await createPush(server, { payload: `locked ${i}`, passphrase: `pw ${i}`, expire_after_views: 10 }));
    const ip = '198.51.100.7';
    // 4 wrong guesses on each of 5 pushes: under the per-push limit (5), 20 for the address.
    for (let i = 0; i < 20; i++) {
      const res = await get(pushes[i % 5].url_token, `guess ${i}`, ip);
      expect([i, res.status]).toEqual([i, 401]);
    }
    const limited = await get(pushes[5].url_token, 'pw 5', ip);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'Too many passphrase attempts. Please try again in a minute.' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.text).not.toContain('locked 5');
    // tRPC (the extension) shares the rule.
    const trpc = await fetch(`${server.url}/trpc/pushes.retrieve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ url_token: pushes[5].url_token, passphrase: 'pw 5' }),
    });
    expect(trpc.status).toBe(429);
    expect(await trpc.text()).not.toContain('locked 5');
    const other = await get(pushes[5].url_token, 'pw 5', '198.51.100.8');
    expect(other.status).toBe(200);
    expect(other.body.payload).toBe('locked 5');
  });

  it('only failures count: one address retrieves 30 passphrase pushes with the right passphrase', async () => {
    const p = await createPush(server, { payload: 'popular', passphrase: 'pw', expire_after_views: 40 });
    for (let i = 0; i < 30; i++) expect([i, (await get(p.url_token, 'pw', '198.51.100.9')).status]).toEqual([i, 200]);
  });

  it('a concurrent burst of wrong guesses on one push: exactly 5 are checked, the rest refused', async () => {
    const p = await createPush(server, { payload: 'burst', passphrase: 'pw' });
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => get(p.url_token, `guess ${i}`, `198.51.100.${100 + i}`).then((r) => r.status)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
  });

  it('PASSPHRASE_ATTEMPTS_PER_IP_PER_MINUTE sets the per-address limit', async () => {
    const small = await startServer({ TRUST_PROXY: 'true', PASSPHRASE_ATTEMPTS_PER_IP_PER_MINUTE: '2' });
    try {
      const a = await createPush(small, { payload: 'a', passphrase: 'pw' });
      const b = await createPush(small, { payload: 'b', passphrase: 'pw' });
      const at = (t: string, pw: string) => api.get(small, `/api/v2/pushes/${t}?passphrase=${pw}`, { headers: { 'x-forwarded-for': '192.0.2.9' } });
      expect([(await at(a.url_token, 'x')).status, (await at(b.url_token, 'x')).status, (await at(b.url_token, 'pw')).status]).toEqual([401, 401, 429]);
    } finally {
      await small.stop();
    }
  });
});
