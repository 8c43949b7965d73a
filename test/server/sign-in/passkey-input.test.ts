import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom, decode } from '../pages/browser.js';

/** Bad passkey answers get a clear page and no session, never a 500 (the happy paths are in test/e2e/passkeys.test.ts). */
describe('passkey forms refuse what a browser would not send', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  const ticketOf = (html: string, action: string) => {
    const form = new RegExp(`<form[^>]*action="${action}"[^>]*>([\\s\\S]*?)</form>`).exec(html)![1]!;
    return decode(/name="ticket" value="([^"]*)"/.exec(form)![1]!);
  };

  it('sign-in: junk, a forged ticket, an unknown credential: back to the sign-in form with a message, no session', async () => {
    const b = new Browser(server);
    const page = await b.get('/users/sign_in');
    expect(page.text).toContain('data-passkey="sign-in"');
    expect(page.text).toContain('src="/assets/passkeys.js"');
    const csrf = csrfFrom(page.text, '/users/passkeys/sign_in');
    const ticket = ticketOf(page.text, '/users/passkeys/sign_in');
    const answers = [
      { ticket, response: 'not json' },
      { ticket, response: JSON.stringify({ id: 'x', response: 'nope' }) },
      { ticket: ticket.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A')), response: JSON.stringify({ id: 'x', rawId: 'x', type: 'public-key', response: {} }) },
      { ticket: '', response: '' },
      { ticket, response: JSON.stringify({ id: 'x'.repeat(20_000), response: {} }) },
    ];
    for (const answer of answers) {
      const res = await b.post('/users/passkeys/sign_in', { csrf_token: csrf, ...answer });
      expect(res.status, JSON.stringify(answer).slice(0, 80)).toBe(303);
      expect(res.headers.get('location')).toMatch(/^\/users\/sign_in\?passkey_(expired|refused)=1$/);
      expect(b.cookies.has('sp_session')).toBe(false);
    }
    // A well-formed answer naming no stored passkey (a fresh ticket: each challenge is answered once).
    const fresh = await b.get('/users/sign_in');
    const unknown = await b.post('/users/passkeys/sign_in', {
      csrf_token: csrfFrom(fresh.text, '/users/passkeys/sign_in'),
      ticket: ticketOf(fresh.text, '/users/passkeys/sign_in'),
      response: JSON.stringify({ id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { userHandle: Buffer.from('no-such-account').toString('base64url'), clientDataJSON: '', authenticatorData: '', signature: '' }, clientExtensionResults: {} }),
    });
    expect(unknown.headers.get('location')).toBe('/users/sign_in?passkey_refused=1');
    expect((await b.get('/users/sign_in?passkey_refused=1')).text).toContain('This passkey was not accepted.');
    // The same ticket answered again: refused as used, whatever the answer.
    const again = await b.post('/users/passkeys/sign_in', { csrf_token: csrfFrom(fresh.text, '/users/passkeys/sign_in'), ticket: ticketOf(fresh.text, '/users/passkeys/sign_in'), response: JSON.stringify({ id: 'AAAA', response: {} }) });
    expect(again.headers.get('location')).toBe('/users/sign_in?passkey_expired=1');
  });

  it('registration: junk is a 422 on the security page; a name too long is a field error; another account\'s ticket is refused', async () => {
    const b = new Browser(server);
    await b.signUp('passkey-junk@example.com');
    const page = await b.get('/users/security');
    const csrf = csrfFrom(page.text, '/users/security/passkeys');
    const ticket = ticketOf(page.text, '/users/security/passkeys');
    const junk = await b.post('/users/security/passkeys', { csrf_token: csrf, ticket, response: '{"id":"x","response":{}}', name: 'Laptop' });
    expect(junk.status).toBe(422);
    expect(junk.text).toContain('No passkey was used');
    const other = new Browser(server);
    await other.signUp('passkey-other@example.com');
    const theirs = await other.get('/users/security');
    const stolen = await b.post('/users/security/passkeys', { csrf_token: csrf, ticket: ticketOf(theirs.text, '/users/security/passkeys'), response: '{"id":"x","response":{}}' });
    expect(stolen.status).toBe(422);
    const rename = await b.post('/users/security/passkeys/rename', { csrf_token: csrf, id: 'nope', name: 'x'.repeat(61) });
    expect(rename.status).toBe(422);
    const remove = await b.post('/users/security/passkeys/remove', { csrf_token: csrf, id: 'nope' });
    expect(remove.status).toBe(404);
    expect((await server.server.passkeys.list((await server.server.accounts.userById((await server.server.store.getUserByEmail('passkey-junk@example.com'))!.id))!))).toEqual([]);
  });
});
