import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser } from '../pages/browser.js';

/** Finding 3: after sign-in, `return_to` may only lead to a path on this site. */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await new Browser(server).signUp('return@example.com', 'the right password');
});
afterAll(() => server.stop());

const hostile = [
  '/.//evil.example',
  '/.//evil.example/x?y=1',
  '/./\\evil.example',
  '/..//evil.example',
  '/a/..//evil.example',
  '//evil.example',
  '/\\evil.example',
  '/%2F%2Fevil.example',
  '/%5C%5Cevil.example',
  '/%2e/%2fevil.example',
  '/\t/evil.example',
  'https://evil.example/',
  'http:/evil.example',
  '//evil.example@same',
  'javascript:alert(1)',
];

describe('return_to after sign-in (open redirect)', () => {
  it.each(hostile)('%j never sends the browser to another origin', async (value) => {
    const b = new Browser(server);
    const res = await b.submit('/users/sign_in', '/users/sign_in', { email: 'return@example.com', password: 'the right password', return_to: value });
    expect(res.status).toBe(303);
    const location = res.headers.get('location')!;
    // Resolved the way the browser resolves it: it must stay on the server's origin.
    expect(new URL(location, server.url).origin).toBe(server.url);
    expect(location.startsWith('//')).toBe(false);
    expect(location).not.toMatch(/[\r\n\t\\]/);
  });

  it('a same-site path is followed, normalised', async () => {
    const b = new Browser(server);
    const res = await b.submit('/users/sign_in', '/users/sign_in', { email: 'return@example.com', password: 'the right password', return_to: '/./dashboard?state=expired' });
    expect(res.headers.get('location')).toBe('/dashboard?state=expired');
  });

  it('a hostile return_to on the sign-in page is not written into the form', async () => {
    const page = await new Browser(server).get('/users/sign_in?return_to=%2F.%2F%2Fevil.example');
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/name="return_to"[^>]*evil\.example/);
    expect(page.text).not.toContain('name="return_to"');
  });
});
