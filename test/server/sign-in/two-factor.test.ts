import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyRing } from '../../../server/crypto/key-ring.js';
import { parseKey } from '../../../server/crypto/master-key.js';
import { startServer, type TestServer } from '../../support/server.js';
import { base32Decode, hotp, timeStep, totpCode } from '../../support/totp.js';
import { enrolled, PASSWORD, recoveryCodesOn, secretOn } from './totp-enrolment.js';
import { Browser, cookieAttrs, csrfFrom, textOf } from '../pages/browser.js';

/** Signs in with the password only: the answer, and the browser in whatever state it leaves. */
async function password(server: TestServer, email: string, pw = PASSWORD) {
  const b = new Browser(server);
  const res = await b.submit('/users/sign_in', '/users/sign_in', { email, password: pw });
  return { b, res };
}

async function secondStep(b: Browser, code: string) {
  const page = await b.get('/users/two_factor');
  return b.post('/users/two_factor', { csrf_token: csrfFrom(page.text, '/users/two_factor'), code });
}

describe('TOTP two-factor sign-in', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('the test computes RFC 6238 as an app does (RFC 6238 appendix B, SHA-1 vector)', () => {
    // Secret "12345678901234567890", T = 59 s: 94287082 (8 digits).
    expect(hotp(Buffer.from('12345678901234567890'), Math.floor(59 / 30), 8)).toBe('94287082');
    expect(base32Decode('GEZDGNBVGY3TQOJQ').toString()).toBe('1234567890');
  });

  it('is set up from the account page with a QR code and a confirming code; ten recovery codes are shown once', async () => {
    const b = new Browser(server);
    await b.signUp('enrol@example.com', PASSWORD);
    const before = await b.get('/users/security');
    expect(before.status).toBe(200);
    expect(textOf(before.text, 'totp-status')).toMatch(/^Off/);
    expect((await b.get('/users/token')).text).toContain('href="/users/security"');
    const setup = await b.get('/users/two_factor/setup');
    expect(setup.text).toMatch(/<svg[^>]*id="qrcode"/);
    const secret = secretOn(setup.text);
    expect(base32Decode(secret)).toHaveLength(20);
    // A reload shows the same key (an app may have scanned it already).
    expect(secretOn((await b.get('/users/two_factor/setup')).text)).toBe(secret);
    const wrongCode = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, '0');
    const wrong = await b.post('/users/two_factor/setup', { csrf_token: csrfFrom(setup.text, '/users/two_factor/setup'), code: wrongCode });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('That code is not right.');
    const ok = await b.post('/users/two_factor/setup', { csrf_token: csrfFrom(setup.text, '/users/two_factor/setup'), code: totpCode(secret) });
    expect(ok.status).toBe(200);
    const codes = recoveryCodesOn(ok.text);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}(-[2-9A-HJKMNP-Z]{4}){3}$/);
    // Stored hashed: neither the codes nor the key are in the account record as written.
    const stored = JSON.stringify(await server.server.store.getUser((await server.server.store.getUserByEmail('enrol@example.com'))!.id));
    for (const code of codes) expect(stored).not.toContain(code.replace(/-/g, ''));
    expect(stored).not.toContain(secret);
    // Shown once: the security page tells how many are left, never the codes.
    const after = await b.get('/users/security');
    expect(textOf(after.text, 'totp-status')).toBe('On. 10 recovery codes left.');
    for (const code of codes) expect(after.text).not.toContain(code);
    // The change is in the log, by account id; no key or code is.
    const id = (await server.server.store.getUserByEmail('enrol@example.com'))!.id;
    expect(server.logs.some((line) => line.includes('authenticator app turned on') && line.includes(id))).toBe(true);
    for (const line of server.logs) {
      expect(line).not.toContain(secret);
      for (const code of codes) expect(line).not.toContain(code);
    }
  });

  it('sign-in becomes password, then a code; nothing is reachable in between; a used code is refused', async () => {
    const { secret, step } = await enrolled(server, 'two-step@example.com');
    const { b, res } = await password(server, 'two-step@example.com');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/users/two_factor');
    expect(b.cookies.has('sp_session')).toBe(false);
    const ticketCookie = cookieAttrs(res.setCookies, 'sp_sign_in_step')!;
    expect(ticketCookie).toMatch(/; HttpOnly/);
    expect(ticketCookie).toMatch(/; SameSite=Lax/);
    expect(ticketCookie).toMatch(/; Path=\/users(;|$)/);
    expect(ticketCookie).toMatch(/; Max-Age=600/);
    // The half-signed-in browser is signed out everywhere else.
    for (const path of ['/dashboard', '/users/token', '/users/security', '/users/webhooks']) {
      const page = await b.get(path);
      expect(page.status, path).toBe(303);
      expect(page.headers.get('location'), path).toMatch(/^\/users\/sign_in/);
    }
    const api = await fetch(`${server.url}/api/v2/pushes/active.json`, { headers: { cookie: `sp_sign_in_step=${b.cookies.get('sp_sign_in_step')}` } });
    expect(api.status).toBe(401);
    const page = await b.get('/users/two_factor');
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="code"');
    // The code that confirmed the set-up has been used: refused within its window.
    const replay = await secondStep(b, totpCode(secret, step));
    expect(replay.status).toBe(401);
    expect(replay.text).toContain('That code is not right.');
    expect(b.cookies.has('sp_session')).toBe(false);
    // The next time step's code (within the window) signs in, and lands where sign-in would.
    const ok = await secondStep(b, totpCode(secret, step + 1));
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/dashboard');
    expect(b.cookies.has('sp_session')).toBe(true);
    expect(b.cookies.has('sp_sign_in_step')).toBe(false);
    expect((await b.get('/dashboard')).status).toBe(200);
    // That code again, from another browser that gave the password: refused (state in the store).
    const other = await password(server, 'two-step@example.com');
    expect((await secondStep(other.b, totpCode(secret, step + 1))).status).toBe(401);
    // A code from outside the window is refused too.
    expect((await secondStep(other.b, totpCode(secret, step + 5))).status).toBe(401);
  });

  it('a recovery code signs in once; sent twice at once, it is accepted once', async () => {
    const { codes } = await enrolled(server, 'recovery@example.com');
    const { b } = await password(server, 'recovery@example.com');
    // As typed from paper: lower case, spaces instead of dashes.
    const ok = await secondStep(b, codes[0]!.toLowerCase().replace(/-/g, ' '));
    expect(ok.status).toBe(303);
    expect(b.cookies.has('sp_session')).toBe(true);
    const again = await password(server, 'recovery@example.com');
    expect((await secondStep(again.b, codes[0]!)).status).toBe(401);
    const tabs = await Promise.all([0, 1, 2, 3].map(() => password(server, 'recovery@example.com')));
    const pages = await Promise.all(tabs.map(({ b }) => b.get('/users/two_factor')));
    const answers = await Promise.all(tabs.map(({ b }, i) => b.post('/users/two_factor', { csrf_token: csrfFrom(pages[i]!.text, '/users/two_factor'), code: codes[1]! })));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 401, 401, 401]);
    expect(textOf((await b.get('/users/security')).text, 'totp-status')).toBe('On. 8 recovery codes left.');
  });

  it('wrong codes count in the sign-in guess limit with wrong passwords: past it even the right code is refused (429)', async () => {
    const { secret } = await enrolled(server, 'guessing@example.com');
    const { b } = await password(server, 'guessing@example.com');
    const wrong = String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    // Five failures per address and account are free (SIGN_IN_FAILURES_BEFORE_BACKOFF).
    for (let i = 0; i < 5; i++) expect((await secondStep(b, wrong)).status).toBe(401);
    const limited = await secondStep(b, totpCode(secret, timeStep() + 1));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited.text).toContain('Too many failed sign-in attempts');
    // The same budget as the password's: the right password is refused now too.
    expect((await password(server, 'guessing@example.com')).res.status).toBe(429);
    // Another account from the same address is not held back by it.
    await new Browser(server).signUp('bystander@example.com', PASSWORD);
    expect((await password(server, 'bystander@example.com')).res.status).toBe(303);
  });

  it('an account whose second factor is a passkey only: the password leads to a second step that offers the passkey, and says what it needs', async () => {
    await new Browser(server).signUp('passkey-only@example.com', PASSWORD);
    const id = (await server.server.store.getUserByEmail('passkey-only@example.com'))!.id;
    const passkey = { id: 'cred-1', publicKey: 'AAAA', counter: 0, transports: ['internal'], name: 'Laptop', createdAt: new Date().toISOString(), lastUsedAt: null };
    await server.server.store.changeUser(id, (u) => ({ next: { ...u, passkeys: [passkey] }, result: null }));
    const { b, res } = await password(server, 'passkey-only@example.com');
    expect(res.headers.get('location')).toBe('/users/two_factor');
    const page = await b.get('/users/two_factor');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('name="code"');
    expect(page.text).toContain('data-passkey="sign-in"');
    expect(page.text).toContain('data-passkey-unavailable');
    expect(page.text).toContain('This account finishes signing in with its passkey');
    // No code can stand in for it.
    expect((await b.post('/users/two_factor', { csrf_token: csrfFrom(page.text, '/users/passkeys/sign_in'), code: '123456' })).status).toBe(401);
    expect(b.cookies.has('sp_session')).toBe(false);
  });

  it('wrong codes from many addresses together are limited per account (10 a minute): the password alone does not let a crowd try the million codes', async () => {
    const { secret } = await enrolled(server, 'crowd@example.com');
    const user = (await server.server.accounts.userById((await server.server.store.getUserByEmail('crowd@example.com'))!.id))!;
    const wrong = String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    const outcomes: string[] = [];
    for (let i = 0; i < 11; i++) {
      // A fresh address each time: no per-address limit applies.
      outcomes.push(await server.server.secondFactor.verify(user, wrong, `198.51.100.${i}`).then(() => 'ok', (e: { kind: string }) => e.kind));
    }
    expect(outcomes).toEqual([...Array(10).fill('unauthorized'), 'too_many_requests']);
    // Passwords are not limited per account (a stranger could lock the owner out): another address still signs in with it.
    expect((await server.server.accounts.verifyPassword('crowd@example.com', PASSWORD, '198.51.100.200')).id).toBe(user.id);
  });

  it('the half-signed-in ticket cannot be forged or altered', async () => {
    await enrolled(server, 'ticket@example.com');
    const { b } = await password(server, 'ticket@example.com');
    const ticket = b.cookies.get('sp_sign_in_step')!;
    const [body, mac] = ticket.split('.');
    const payload = JSON.parse(Buffer.from(decodeURIComponent(body!), 'base64url').toString());
    payload.d.stage = 'enrol';
    b.cookies.set('sp_sign_in_step', `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`);
    const forged = await b.get('/users/two_factor/setup');
    expect(forged.status).toBe(303);
    expect(forged.headers.get('location')).toBe('/users/sign_in?step_expired=1');
    const notice = await b.get('/users/sign_in?step_expired=1');
    expect(notice.text).toContain('Your sign-in took too long.');
  });

  it('recovery codes can be renewed and TOTP turned off, each after a current code', async () => {
    const { b, secret, step, codes } = await enrolled(server, 'manage@example.com');
    const page = await b.get('/users/security');
    const renewed = await b.post('/users/security/totp', { csrf_token: csrfFrom(page.text, '/users/security/totp'), action: 'renew-codes', code: codes[0]! });
    expect(renewed.status).toBe(200);
    const fresh = recoveryCodesOn(renewed.text);
    expect(fresh).toHaveLength(10);
    // The old codes stopped working; the new ones work.
    const old = await b.post('/users/security/totp', { csrf_token: csrfFrom(page.text, '/users/security/totp'), action: 'turn-off', code: codes[1]! });
    expect(old.status).toBe(401);
    const off = await b.post('/users/security/totp', { csrf_token: csrfFrom(page.text, '/users/security/totp'), action: 'turn-off', code: totpCode(secret, step + 1) });
    expect(off.status).toBe(303);
    expect(textOf((await b.get('/users/security')).text, 'totp-status')).toMatch(/^Off/);
    expect((await password(server, 'manage@example.com')).res.headers.get('location')).toBe('/dashboard');
    expect(fresh.some((c) => codes.includes(c))).toBe(false);
  });
});

describe('REQUIRE_MFA=true', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ REQUIRE_MFA: 'true' });
  });
  afterAll(() => server.stop());

  it('a new account sets up an app before anything else, then lands on its dashboard', async () => {
    const b = new Browser(server);
    const res = await b.signUp('new-required@example.com', PASSWORD);
    expect(res.headers.get('location')).toBe('/users/two_factor/setup');
    expect(b.cookies.has('sp_session')).toBe(false);
    expect((await b.get('/dashboard')).headers.get('location')).toMatch(/^\/users\/sign_in/);
    expect((await b.get('/users/two_factor')).headers.get('location')).toBe('/users/two_factor/setup');
    const setup = await b.get('/users/two_factor/setup');
    expect(setup.status).toBe(200);
    expect(setup.text).toContain('This server requires two-step sign-in.');
    const secret = secretOn(setup.text);
    const done = await b.post('/users/two_factor/setup', { csrf_token: csrfFrom(setup.text, '/users/two_factor/setup'), code: totpCode(secret) });
    expect(done.status).toBe(200);
    expect(recoveryCodesOn(done.text)).toHaveLength(10);
    expect(done.text).toContain('href="/dashboard?welcome=1"');
    expect(b.cookies.has('sp_session')).toBe(true);
    // Rendered signed in: the header's sign-out form carries a token bound to the new session.
    expect(done.text).not.toContain('href="/users/sign_in"');
    const signOut = await b.post('/users/sign_out', { csrf_token: csrfFrom(done.text, '/users/sign_out') });
    expect(signOut.status).toBe(303);
    expect(b.cookies.has('sp_session')).toBe(false);
    await b.submit('/users/sign_in', '/users/sign_in', { email: 'new-required@example.com', password: PASSWORD });
    expect((await secondStep(b, recoveryCodesOn(done.text)[0]!)).status).toBe(303);
    expect((await b.get('/dashboard?welcome=1')).status).toBe(200);
    // From then on, sign-in asks for a code.
    expect((await password(server, 'new-required@example.com')).res.headers.get('location')).toBe('/users/two_factor');
  });

  it('an existing password account without a second factor enrols at its next sign-in; turning TOTP off is refused', async () => {
    const { user } = await server.server.accounts.ensureUser('existing-required@example.com');
    await server.server.accounts.setPassword(user.email, PASSWORD);
    const { b, res } = await password(server, 'existing-required@example.com');
    expect(res.headers.get('location')).toBe('/users/two_factor/setup');
    // The return path survives the set-up.
    const back = new Browser(server);
    const withReturn = await back.submit('/users/sign_in?return_to=%2Fusers%2Fwebhooks', '/users/sign_in', { email: 'existing-required@example.com', password: PASSWORD, return_to: '/users/webhooks' });
    expect(withReturn.headers.get('location')).toBe('/users/two_factor/setup');
    const setup = await back.get('/users/two_factor/setup');
    const secret = secretOn(setup.text);
    const done = await back.post('/users/two_factor/setup', { csrf_token: csrfFrom(setup.text, '/users/two_factor/setup'), code: totpCode(secret) });
    expect(done.text).toContain('href="/users/webhooks"');
    expect(b.cookies.has('sp_session')).toBe(false);
    const page = await back.get('/users/security');
    expect(page.text).toContain('This server requires a second factor');
    const off = await back.post('/users/security/totp', { csrf_token: csrfFrom(page.text, '/users/security/totp'), action: 'turn-off', code: totpCode(secret, timeStep() + 1) });
    expect(off.status).toBe(403);
    expect(textOf((await back.get('/users/security')).text, 'totp-status')).toMatch(/^On/);
  });

  it('an administrator reset (the CLI\'s service call) removes the second factor and the sessions; the next sign-in enrols again', async () => {
    const { b } = await enrolled(server, 'reset@example.com');
    expect((await b.get('/dashboard')).status).toBe(200);
    const stored = await server.server.store.getUserByEmail('reset@example.com');
    const removed = await server.server.secondFactor.reset(stored!.id);
    expect(removed).toMatchObject({ totp: true, passkeys: 0 });
    expect(removed.sessions).toBeGreaterThanOrEqual(1);
    expect((await b.get('/dashboard')).status).toBe(303);
    expect((await password(server, 'reset@example.com')).res.headers.get('location')).toBe('/users/two_factor/setup');
  });
});

describe('REQUIRE_MFA turned on later', () => {
  it('a session made before, of an account without a second factor, is no longer honoured: its browser signs in and sets up an app', async () => {
    const before = await startServer();
    let after: TestServer | undefined;
    try {
      const b = new Browser(before);
      await b.signUp('before-required@example.com', PASSWORD);
      expect((await b.get('/dashboard')).status).toBe(200);
      await before.close();
      after = await startServer({ DATA_DIR: before.dataDir, REQUIRE_MFA: 'true' });
      const moved = new Browser(after);
      for (const [k, v] of b.cookies) moved.cookies.set(k, v);
      const page = await moved.get('/dashboard');
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toMatch(/^\/users\/sign_in/);
      expect(moved.cookies.has('sp_session')).toBe(false);
      const again = await moved.submit('/users/sign_in', '/users/sign_in', { email: 'before-required@example.com', password: PASSWORD });
      expect(again.headers.get('location')).toBe('/users/two_factor/setup');
    } finally {
      await after?.stop();
    }
  });
});

describe('MASTER_KEY rotation', () => {
  it('a TOTP key sealed under the retired key still works, is sealed again under the new one at its next use, and then works without the old key', async () => {
    const [oldKey, newKey] = [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')];
    const first = await startServer({ MASTER_KEY: oldKey });
    const dataDir = first.dataDir;
    let current: TestServer = first;
    try {
      const { secret, step } = await enrolled(first, 'rotation@example.com');
      const sealedBy = async (server: TestServer) => (await server.server.store.getUserByEmail('rotation@example.com'))!.secondFactor!.totpSecret!.split('.')[1];
      const before = await sealedBy(first);
      await first.close();
      current = await startServer({ DATA_DIR: dataDir, MASTER_KEY: newKey, MASTER_KEY_OLD: oldKey });
      const { b } = await password(current, 'rotation@example.com');
      expect((await secondStep(b, totpCode(secret, step + 1))).status).toBe(303);
      expect(await sealedBy(current)).not.toBe(before);
      // The new key alone opens it now (a code of a later step cannot be made without waiting for it).
      const stored = (await current.server.store.getUserByEmail('rotation@example.com'))!.secondFactor!.totpSecret!;
      expect(new KeyRing(parseKey(newKey, 'MASTER_KEY')).openText(stored)).toBe(secret);
      await current.close();
      // And the server starts without the old key and still asks for (and refuses a used) code.
      current = await startServer({ DATA_DIR: dataDir, MASTER_KEY: newKey });
      const again = await password(current, 'rotation@example.com');
      expect(again.res.headers.get('location')).toBe('/users/two_factor');
      expect((await secondStep(again.b, totpCode(secret, step + 1))).status).toBe(401);
    } finally {
      await current.stop();
    }
  });
});

