import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom, textOf } from './browser.js';

/**
 * Scheduled release on the pages (issue 35): the recipient's link before and after the release,
 * and the create form's release field without scripts. Only `Date` is faked (expiry.test.ts).
 */
const HOUR = 3_600_000;

let server: TestServer;
let owner: string;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2027-02-27T12:00:00Z') });
  server = await startServer();
  ({ token: owner } = await createUserWithToken(server, 'release-pages@example.com'));
});
afterAll(async () => {
  await server.stop();
  vi.useRealTimers();
});

const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
const viewsOf = async (token: string) => (await server.server.store.getPush(server.server.pushes.storageId(token)))!.views;

describe('the recipient page before and after the release', () => {
  it('says when the push opens (425, Retry-After, a <time> in UTC for the script to localise), counts no view, then shows the secret', async () => {
    const p = await createPush(server, { payload: 'readable from March', expire_after_views: 1, not_before: '2027-03-01T08:00:00+01:00' }, owner);
    const visitor = new Browser(server);
    for (const path of [`/p/${p.url_token}`, `/p/${p.url_token}/r`]) {
      const early = await visitor.get(path);
      expect(early.status, path).toBe(425);
      expect(early.headers.get('retry-after')).toBe(String(43 * 3600));
      expect(early.text).toContain('This secret is not open yet');
      expect(early.text).toContain('<time datetime="2027-03-01T07:00:00.000Z" data-local-time');
      expect(early.text).toContain('Mar 1, 2027, 07:00 UTC');
      expect(early.text).toContain('/assets/local-time.js');
      expect(early.text).not.toContain('readable from March');
    }
    // The passphrase form's POST is refused the same way.
    const csrf = csrfFrom((await visitor.get('/')).text);
    expect((await visitor.post(`/p/${p.url_token}`, { csrf_token: csrf, passphrase: 'x' })).status).toBe(425);
    expect(await viewsOf(p.url_token)).toBe(0);

    // In the reader's language too.
    const german = await new Browser(server, { 'accept-language': 'de' }).get(`/p/${p.url_token}`);
    expect(german.text).toContain('Dieses Geheimnis ist noch nicht freigegeben');

    advance(43 * HOUR);
    const open = await visitor.get(`/p/${p.url_token}`);
    expect(open.status).toBe(200);
    expect(open.text).toContain('readable from March');
    expect(await viewsOf(p.url_token)).toBe(1);
  });

  it('the end-to-end open call answers 425 with the time before the release', async () => {
    const p = await createPush(server, { payload: 'plain', not_before: new Date(Date.now() + HOUR).toISOString() }, owner);
    const visitor = new Browser(server);
    const csrf = csrfFrom((await visitor.get('/')).text);
    // Not an end-to-end push: its open call is refused as such before the release matters.
    expect((await visitor.post(`/p/${p.url_token}/open`, { csrf_token: csrf })).status).toBe(404);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).status).toBe(425);
  });
});

describe('the create form’s release time', () => {
  /** The create form as a browser without scripts sends it. */
  async function submit(visitor: Browser, fields: Record<string, string>) {
    const csrf = csrfFrom((await visitor.get('/')).text, '/');
    const form = new FormData();
    form.append('csrf_token', csrf);
    for (const [k, v] of Object.entries({ 'push[kind]': 'text', 'push[expire_after_days]': '7', 'push[expire_after_views]': '5', 'push[not_before]': '', ...fields })) form.append(k, v);
    return visitor.postMultipart('/', form);
  }

  it('offers a local date and time with the hidden field the script fills, and its hint in the page’s language', async () => {
    const page = (await new Browser(server).get('/')).text;
    expect(page).toContain('type="datetime-local" id="release_at" name="release_at"');
    expect(page).toContain('name="push[not_before]" value data-local-time-of="release_at"');
    expect(page).toContain('/assets/local-time.js');
    expect((await new Browser(server, { 'accept-language': 'fr' }).get('/')).text).toContain('Ouvert à partir de (facultatif)');
  });

  it('without scripts the local date and time is read as UTC; with the script’s push[not_before] that wins', async () => {
    const visitor = new Browser(server);
    const plain = await submit(visitor, { 'push[payload]': 'no script', release_at: '2027-03-01T09:30' });
    expect(plain.status).toBe(200);
    const { token } = { token: /\/p\/([a-z0-9_-]+)/i.exec(textOf(plain.text, 'secret-link')!)![1]! };
    expect((await server.server.store.getPush(server.server.pushes.storageId(token)))!.notBefore).toBe('2027-03-01T09:30:00.000Z');

    const scripted = await submit(visitor, { 'push[payload]': 'scripted', release_at: '2027-03-01T09:30', 'push[not_before]': '2027-03-01T08:30:00.000Z' });
    const t2 = /\/p\/([a-z0-9_-]+)/i.exec(textOf(scripted.text, 'secret-link')!)![1]!;
    expect((await server.server.store.getPush(server.server.pushes.storageId(t2)))!.notBefore).toBe('2027-03-01T08:30:00.000Z');

    // Days from the release: the checkbox sends expire_from_release.
    const later = await submit(visitor, { 'push[payload]': 'days later', 'push[expire_after_days]': '1', release_at: '2027-03-20T09:30', 'push[expire_from_release]': 'true' });
    expect(later.status).toBe(200);
    const t3 = /\/p\/([a-z0-9_-]+)/i.exec(textOf(later.text, 'secret-link')!)![1]!;
    expect((await server.server.store.getPush(server.server.pushes.storageId(t3)))!.expiresAt).toBe('2027-03-21T09:30:00.000Z');
  });

  it('a release after the expiry is refused next to the field, the value kept', async () => {
    const res = await submit(new Browser(server), { 'push[payload]': 'too late', 'push[expire_after_days]': '1', release_at: '2027-04-01T09:30' });
    expect(res.status).toBe(422);
    expect(res.text).toMatch(/id="not_before-error"[^>]*>Opens from must be before the push expires/);
    expect(res.text).toContain('value="2027-04-01T09:30"');
    expect(res.text).toContain('Count the days from when it opens, not from now');
    expect(res.text).toMatch(/<details class="more-options" open/);
  });
});
