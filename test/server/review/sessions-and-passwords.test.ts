import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.js';
import { api } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser } from '../pages/browser.js';

/**
 * Finding 6: changing the password left other sessions signed in; five wrong sign-ins by a
 * stranger locked the real user out; sign-up told which emails exist; short and common
 * passwords were accepted. Client addresses come from X-Forwarded-For (TRUST_PROXY=true).
 */
let server: TestServer;
const PASSWORD = 'the right password';

beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: 'true' });
});
afterAll(() => server.stop());

const at = (ip: string) => new Browser(server, { 'x-forwarded-for': ip });

async function signIn(b: Browser, email: string, password: string) {
  return b.submit('/users/sign_in', '/users/sign_in', { email, password });
}

describe('changing the password', () => {
  it('ends every other session of the account, keeps this one and the API tokens, and needs the current password', async () => {
    const laptop = at('192.0.2.10');
    await laptop.signUp('changer@example.com', PASSWORD);
    const phone = at('192.0.2.11');
    expect((await signIn(phone, 'changer@example.com', PASSWORD)).status).toBe(303);
    const made = await laptop.submit('/users/token', '/users/token', { label: 'cli' });
    const apiToken = /sp_[A-Za-z0-9_-]{43}/.exec(made.text)![0];

    const wrong = await laptop.submit('/users/password', '/users/password', { current_password: 'not it at all', password: 'a brand new password' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Your current password is not right.');
    expect((await phone.get('/users/token')).status).toBe(200); // nothing changed

    const weak = await laptop.submit('/users/password', '/users/password', { current_password: PASSWORD, password: 'short' });
    expect(weak.status).toBe(422);
    expect(weak.text).toContain('is too short (minimum is 12 characters)');

    const changed = await laptop.submit('/users/password', '/users/password', { current_password: PASSWORD, password: 'a brand new password' });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain('1 other session was signed out');
    expect((await phone.get('/users/token')).status).toBe(303); // signed out
    expect((await laptop.get('/users/token')).status).toBe(200); // still signed in
    expect((await api.get(server, '/api/v2/pushes/active', { token: apiToken })).status).toBe(200);
    expect((await signIn(at('192.0.2.12'), 'changer@example.com', PASSWORD)).status).toBe(401);
    expect((await signIn(at('192.0.2.12'), 'changer@example.com', 'a brand new password')).status).toBe(303);
  });
});

describe('sign-in lockout', () => {
  it('the old per-account setting is refused at start, naming its replacement', () => {
    expect(() => loadConfig({ SIGN_IN_ATTEMPTS_PER_ACCOUNT_PER_MINUTE: '5' })).toThrow(/SIGN_IN_FAILURES_BEFORE_BACKOFF/);
  });

  it("a stranger's failures make the stranger wait, never the account's owner", async () => {
    await at('192.0.2.20').signUp('target@example.com', PASSWORD);
    const stranger = '203.0.113.66';
    for (let i = 0; i < 5; i++) expect((await signIn(at(stranger), 'target@example.com', `guess ${i}`)).status).toBe(401);
    const waits = await signIn(at(stranger), 'target@example.com', PASSWORD);
    expect(waits.status).toBe(429);
    expect(Number(waits.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(waits.text).toContain('Too many failed sign-in attempts from your address');
    // The owner, from their own address, right after: signed in.
    expect((await signIn(at('192.0.2.20'), 'target@example.com', PASSWORD)).status).toBe(303);
  });
});

describe('sign-up', () => {
  it('an existing email gets what sign-in would answer: a wrong password is "Invalid email or password." and counts as a failed sign-in; the right one signs in', async () => {
    await at('192.0.2.30').signUp('exists@example.com', PASSWORD);
    const prober = '203.0.113.77';
    const probe = await at(prober).submit('/users/sign_up', '/users/sign_up', { email: 'exists@example.com', password: 'some other password' });
    expect(probe.status).toBe(401);
    expect(probe.text).toContain('Invalid email or password.');
    expect(probe.text).not.toContain('has already been taken');
    // Probes through sign-up spend the same guess budget as sign-in.
    for (let i = 0; i < 4; i++) await at(prober).submit('/users/sign_up', '/users/sign_up', { email: 'exists@example.com', password: `other password ${i}` });
    const limited = await at(prober).submit('/users/sign_up', '/users/sign_up', { email: 'exists@example.com', password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    const again = await at('192.0.2.31').submit('/users/sign_up', '/users/sign_up', { email: 'exists@example.com', password: PASSWORD });
    expect(again.status).toBe(303);
    expect(again.setCookies.some((l) => l.startsWith('sp_session='))).toBe(true);
  });

  it.each([
    ['eleven char', /is too short \(minimum is 12 characters\)/],
    ['password1234', /is too common/],
    ['Qwerty123456', /is too common/],
    ['aaaaaaaaaaaaaaa', /is too common/],
    ['123456789012', /is too common/],
  ])('refuses the password %j with a message, and stores no account', async (password, message) => {
    const email = `weak-${password.length}-${password.charCodeAt(0)}@example.com`;
    const res = await at('192.0.2.40').submit('/users/sign_up', '/users/sign_up', { email, password });
    expect(res.status).toBe(422);
    expect(res.text).toMatch(message);
    expect(await server.server.store.getUserByEmail(email)).toBeUndefined();
  });

  it('is limited per client address (SIGN_UPS_PER_IP_PER_HOUR): 429 naming the limit, nothing stored', async () => {
    const limited = await startServer({ TRUST_PROXY: 'true', SIGN_UPS_PER_IP_PER_HOUR: '3' });
    try {
      const from = (ip: string) => new Browser(limited, { 'x-forwarded-for': ip });
      for (let i = 0; i < 3; i++) await from('198.51.100.5').signUp(`bulk${i}@example.com`, PASSWORD);
      const fourth = await from('198.51.100.5').submit('/users/sign_up', '/users/sign_up', { email: 'bulk3@example.com', password: PASSWORD });
      expect(fourth.status).toBe(429);
      expect(fourth.text).toContain('the limit is 3 an hour');
      expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(3000);
      expect(await limited.server.store.getUserByEmail('bulk3@example.com')).toBeUndefined();
      // Another address is not affected.
      await from('198.51.100.6').signUp('bulk3@example.com', PASSWORD);
    } finally {
      await limited.stop();
    }
  });
});

