import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { startServer, testStore, type TestServer } from '../../support/server.js';
import { timeStep, totpCode } from '../../support/totp.js';
import { Browser, csrfFrom, textOf } from '../pages/browser.js';

/**
 * Two instances on one PostgreSQL database, as behind a load balancer: a sign-in's password may
 * land on one and its code on the other, and a code or recovery code used on one is used on both.
 */
describe.skipIf(testStore !== 'postgres')('two-step sign-in across two instances (PostgreSQL)', () => {
  let db: TestDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, MASTER_KEY: randomBytes(32).toString('hex') };
    a = await startServer(env);
    b = await startServer(env);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await db?.drop();
  });

  /** A browser whose requests go to `server` (the cookies it holds go along). */
  const on = (browser: Browser, server: TestServer) => {
    const moved = new Browser(server);
    for (const [k, v] of browser.cookies) moved.cookies.set(k, v);
    return moved;
  };

  it('password on one, code on the other; a code or recovery code used on one is refused on the other', async () => {
    const owner = new Browser(a);
    await owner.signUp('instances@example.com', 'correct horse battery');
    const setup = await owner.get('/users/two_factor/setup');
    const secret = textOf(setup.text, 'totp-secret')!.replace(/\s/g, '');
    const step = timeStep();
    const done = await owner.post('/users/two_factor/setup', { csrf_token: csrfFrom(setup.text, '/users/two_factor/setup'), code: totpCode(secret, step) });
    const codes = textOf(done.text, 'recovery-codes')!.split('\n').filter(Boolean);
    expect(codes).toHaveLength(10);

    const signIn = async (code: string) => {
      const first = new Browser(a);
      const res = await first.submit('/users/sign_in', '/users/sign_in', { email: 'instances@example.com', password: 'correct horse battery' });
      expect(res.headers.get('location')).toBe('/users/two_factor');
      // The half-signed-in ticket made on A is read on B.
      const second = on(first, b);
      const page = await second.get('/users/two_factor');
      expect(page.status).toBe(200);
      return { browser: second, res: await second.post('/users/two_factor', { csrf_token: csrfFrom(page.text, '/users/two_factor'), code }) };
    };

    // The code that confirmed the set-up on A is used: refused on B.
    expect((await signIn(totpCode(secret, step))).res.status).toBe(401);
    const ok = await signIn(totpCode(secret, step + 1));
    expect(ok.res.status).toBe(303);
    // The session made on B works on A.
    expect((await on(ok.browser, a).get('/dashboard')).status).toBe(200);
    // A recovery code used through B is refused through B and A alike.
    expect((await signIn(codes[0]!)).res.status).toBe(303);
    expect((await signIn(codes[0]!)).res.status).toBe(401);
    const onA = new Browser(a);
    await onA.submit('/users/sign_in', '/users/sign_in', { email: 'instances@example.com', password: 'correct horse battery' });
    const pageA = await onA.get('/users/two_factor');
    expect((await onA.post('/users/two_factor', { csrf_token: csrfFrom(pageA.text, '/users/two_factor'), code: codes[0]! })).status).toBe(401);
  });
});
