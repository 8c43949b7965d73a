import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../server/service-error.js';
import { api } from '../../support/http.js';
import { createUserWithToken, startServer, testStore, type TestServer } from '../../support/server.js';
import { Browser } from '../pages/browser.js';

/**
 * Text no store keeps as it is (a NUL, which PostgreSQL's text refuses with SQLSTATE 22021, and
 * lone UTF-16 surrogates, which the driver would turn into U+FFFD) gets one answer on both
 * stores (storable-text.ts): as an identifier it names nothing (404, or 401 for a sign-in), and
 * whatever else reaches the PostgreSQL store's parameter binding is a 400, never a 500.
 * Issue 28: on PostgreSQL these were 500s while the embedded store answered 404 and 401.
 */
const NUL = 'wh_\u0000';
const LONE = 'wh_\ud800';

describe(`text no store can keep (${testStore})`, () => {
  let server: TestServer;
  let token: string;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_SECONDS: '3600' });
    ({ token } = await createUserWithToken(server, 'nul@example.com'));
    browser = new Browser(server);
    await browser.signUp('nul-pages@example.com');
  });
  afterAll(() => server.stop());

  it('a webhook id with a NUL or a lone surrogate is 404 on REST, tRPC and the page', async () => {
    for (const path of ['/api/v2/webhooks/%00', '/api/v2/webhooks/wh_%00x', '/api/v2/webhooks/wh_%ED%A0%80']) {
      const res = await api.delete(server, path, { token });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ error: 'No such webhook.' });
    }
    for (const id of [NUL, LONE]) {
      const res = await api.post(server, '/trpc/webhooks.remove', { token, json: { id } });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toBe('No such webhook.');
    }
    const removed = await browser.submit('/users/webhooks', '/users/webhooks/remove', { id: NUL });
    expect(removed.status).toBe(404);
  });

  it('a sign-in email with a NUL or a lone surrogate is the ordinary 401', async () => {
    const visitor = new Browser(server);
    for (const email of ['nul-pages\u0000@example.com', 'nul-pages\ud800@example.com', '\u0000']) {
      const res = await visitor.submit('/users/sign_in', '/users/sign_in', { email, password: 'wrong password' });
      expect(res.status).toBe(401);
      expect(res.text).toContain('Invalid email or password.');
    }
  });

  it("the PostgreSQL store's binding refuses such text with a 400; the embedded store keeps it exactly", async () => {
    const lookup = server.server.store.getUserByEmail('a\u0000b@example.com');
    const surrogate = server.server.store.getUserByEmail('a\ud800b@example.com');
    if (testStore === 'postgres') {
      for (const call of [lookup, surrogate]) {
        const e = await call.then(() => undefined, (x: unknown) => x);
        expect(e).toBeInstanceOf(ServiceError);
        expect((e as ServiceError).status).toBe(400);
        expect((e as ServiceError).message).toBe('The request holds a NUL character (U+0000) or a lone UTF-16 surrogate, which no field accepts.');
      }
    } else {
      expect(await lookup).toBeUndefined();
      expect(await surrogate).toBeUndefined();
    }
  });
});
