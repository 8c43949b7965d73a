import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom, textOf } from './browser.js';

/**
 * Linked secrets on the create page (issue 35 item 3): "Opens after another push" under More
 * options, over plain HTTP as a browser without scripts sends it, both stores. The recipient's
 * side is test/server/push-api/linked-secrets.test.ts and, in Chromium,
 * test/e2e/pages-linked-secrets.test.ts.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function signedIn(email: string) {
  const b = new Browser(server);
  await b.signUp(email);
  return b;
}

/** The create form as a browser without scripts sends it (the hidden time fields left empty). */
async function submit(visitor: Browser, fields: Record<string, string>) {
  const csrf = csrfFrom((await visitor.get('/')).text, '/');
  const form = new FormData();
  form.append('csrf_token', csrf);
  const all = { 'push[kind]': 'text', 'push[expire_after_days]': '7', 'push[expire_after_views]': '5', 'push[not_before]': '', 'push[follows_until]': '', ...fields };
  for (const [k, v] of Object.entries(all)) form.append(k, v);
  return visitor.postMultipart('/', form);
}

const tokenOf = (html: string) => /\/p\/([a-z0-9_-]+)/i.exec(textOf(html, 'secret-link')!)![1]!;
const stored = (token: string) => server.server.store.getPush(server.server.pushes.storageId(token));
const OWN_ONLY = /id="follows-error"[^>]*>Opens after must be the link of one of your own pushes/;

describe('the create page’s "Opens after" field', () => {
  it('is offered only to signed-in senders, listing their own active pushes newest first', async () => {
    const anon = (await new Browser(server).get('/')).text;
    expect(anon).not.toContain('name="push[follows]"');
    expect(anon).not.toContain('follows_until_at');

    const alice = await signedIn('follows-offer@example.com');
    const older = tokenOf((await submit(alice, { 'push[payload]': 'one', 'push[name]': 'Older push' })).text);
    const newer = tokenOf((await submit(alice, { 'push[payload]': 'two', 'push[name]': 'Newer push' })).text);
    const bob = await signedIn('follows-offer-other@example.com');
    const bobs = tokenOf((await submit(bob, { 'push[payload]': 'bob', 'push[name]': 'Bob push' })).text);

    const page = (await alice.get('/')).text;
    expect(page).toContain('<select id="follows" name="push[follows]"');
    expect(page).toContain('name="push[follows_until]" value data-local-time-of="follows_until_at"');
    const select = /<select id="follows"[\s\S]*?<\/select>/.exec(page)![0];
    const options = [...select.matchAll(/<option value(?:="([a-z0-9_-]*)")?[^>]*>([^<]*)</gi)].map((m) => [m[1] ?? '', m[2]]);
    expect(options.map((o) => o[0])).toEqual(['', newer, older]);
    expect(options[1]![1]).toContain('Newer push');
    expect(options[1]![1]).toContain(`…${newer.slice(-6)}`);
    expect(page).not.toContain(bobs);
    expect(page).not.toContain('Bob push');
    // In the page's language.
    const german = new Browser(server, { 'accept-language': 'de' });
    await german.signUp('follows-de@example.com');
    expect((await german.get('/')).text).toContain('Öffnet nach einem anderen Push');
  });

  it('creates a push that follows the chosen one, says so on the created page and the dashboard; a pasted link works too', async () => {
    const alice = await signedIn('follows-create@example.com');
    const first = tokenOf((await submit(alice, { 'push[payload]': 'the password', 'push[name]': 'Admin password' })).text);
    const created = await submit(alice, { 'push[payload]': 'TOTP seed', 'push[follows]': first, follows_until_at: '2030-03-01T09:30' });
    expect(created.status).toBe(200);
    expect(created.text).toContain('Opens after: Admin password');
    expect(created.text).toContain(`…${first.slice(-6)}`);
    const second = tokenOf(created.text);
    const firstStored = await stored(first);
    // Without scripts the "or from" time is read as UTC, as the release time is.
    expect((await stored(second))!.follows).toEqual({ id: firstStored!.token, until: '2030-03-01T09:30:00.000Z' });

    const dashboard = (await alice.get('/dashboard')).text;
    expect(dashboard).toContain('Opens after: Admin password');

    // The recipient must open the first one first (the service's rule, unchanged).
    expect((await new Browser(server).get(`/p/${second}`)).status).toBe(425);

    const pasted = await submit(alice, { 'push[payload]': 'pasted', follows_link: `${server.url}/p/${first}` });
    expect(pasted.status).toBe(200);
    expect((await stored(tokenOf(pasted.text)))!.follows?.id).toBe(firstStored!.token);
  });

  it('another account’s push is refused with the same message as one that does not exist, the values kept', async () => {
    const bob = await signedIn('follows-bob@example.com');
    const bobs = tokenOf((await submit(bob, { 'push[payload]': 'bob secret' })).text);
    const alice = await signedIn('follows-alice@example.com');

    const someoneElses = await submit(alice, { 'push[payload]': 'mine', follows_link: `${server.url}/p/${bobs}` });
    expect(someoneElses.status).toBe(422);
    expect(someoneElses.text).toMatch(OWN_ONLY);
    expect(someoneElses.text).toContain(`value="${server.url}/p/${bobs}"`);
    expect(someoneElses.text).toMatch(/<details class="more-options" open/);

    const missing = await submit(alice, { 'push[payload]': 'mine', 'push[follows]': 'nosuchpushtoken' });
    expect(missing.status).toBe(422);
    expect(missing.text).toMatch(OWN_ONLY);
    // Both answers say the same: nothing tells which links exist.
    const notice = (html: string) => /id="follows-error"[^>]*>([^<]*)</.exec(html)![1];
    expect(notice(someoneElses.text)).toBe(notice(missing.text));

    // In German too.
    const german = new Browser(server, { 'accept-language': 'de' });
    await german.signUp('follows-alice-de@example.com');
    expect((await submit(german, { 'push[payload]': 'x', 'push[follows]': bobs })).text).toContain('Öffnet nach muss der Link eines Ihrer eigenen Pushes sein');
  });

  it('an anonymous forged post naming a push is refused, nothing created', async () => {
    const alice = await signedIn('follows-forged@example.com');
    const first = tokenOf((await submit(alice, { 'push[payload]': 'a' })).text);
    const anon = new Browser(server);
    const res = await submit(anon, { 'push[payload]': 'anonymous follower', 'push[follows]': first });
    expect(res.status).toBe(422);
    expect(res.text).toContain('needs an account: only a push of your own can be followed');
    expect(res.text).not.toContain('id="secret-link"');
    expect((await stored(first))!.followed).toBeFalsy();
  });
});
