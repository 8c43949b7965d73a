import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPushKey } from '../../../shared/e2e/link-key.js';
import { encryptTextPayload } from '../../../shared/e2e/push-content.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom } from './browser.js';

/**
 * The sender's pages over plain HTTP: the preview page (/p/<token>/preview) and the dashboard,
 * for a signed-in owner with one ordinary and one end-to-end push.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** A signed-in page visitor and an API token of the same account. */
async function owner(email: string) {
  const b = new Browser(server);
  await b.signUp(email);
  const user = (await server.server.store.getUserByEmail(email))!;
  const { token } = await server.server.accounts.createApiToken(user, 'test');
  const create = async (push: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/api/v2/pushes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ push }),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { url_token: string; html_url: string };
  };
  return { b, create };
}

const endToEndPush = async (name: string) => ({ payload: await encryptTextPayload(newPushKey(), 'never in clear'), end_to_end: true, name });

describe('an end-to-end push’s keyless link is never offered (issue 29 item 1)', () => {
  it('preview page: no link to copy, no QR code, an End-to-end badge and where the full link is', async () => {
    const { b, create } = await owner('keyless-preview@example.com');
    const e2e = await create(await endToEndPush('sealed'));
    const page = await b.get(`/p/${e2e.url_token}/preview`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(e2e.html_url);
    expect(page.text).not.toContain('id="secret-link"');
    expect(page.text).not.toContain('<svg');
    expect(page.text).toContain('class="badge e2e"');
    expect(page.text).toContain('End-to-end');
    expect(page.text).toContain('shown once when the secret was made');

    // An ordinary push keeps its link and QR code.
    const plain = await create({ payload: 'plain', name: 'plain' });
    const plainPage = await b.get(`/p/${plain.url_token}/preview`);
    expect(plainPage.text).toContain(`id="secret-link">${plain.html_url}</code>`);
    expect(plainPage.text).toContain('<svg');
    expect(plainPage.text).not.toContain('class="badge e2e"');
  });

  it('dashboard: the end-to-end push is badged and its keyless link is not shown; the ordinary one’s is', async () => {
    const { b, create } = await owner('keyless-dashboard@example.com');
    const e2e = await create(await endToEndPush('sealed one'));
    const plain = await create({ payload: 'plain', name: 'plain one' });
    const html = (await b.get('/dashboard')).text;
    expect(html).not.toContain(e2e.html_url);
    expect(html).toContain(`<code>${plain.html_url}</code>`);
    // Newest first: the ordinary push's card, then the end-to-end one's.
    const card = html.slice(html.indexOf('sealed one'));
    expect(html.slice(0, html.indexOf('sealed one'))).not.toContain('class="badge e2e"');
    expect(card).toContain('class="badge e2e"');
    expect(card).toContain('the server does not have it');
  });

  it('German: the badge and the note are translated', async () => {
    const { b, create } = await owner('keyless-de@example.com');
    const e2e = await create(await endToEndPush('versiegelt'));
    const html = (await b.get(`/p/${e2e.url_token}/preview`, { 'accept-language': 'de' })).text;
    expect(html).toContain('Ende-zu-Ende');
    expect(html).toContain('Sein Schlüssel hat den Server nie erreicht');
  });
});

describe('"Expire now" on the dashboard and the preview page, confirmed (issue 29 item 5)', () => {
  const expiredAt = async (token: string) => (await server.server.pushes.peek(token))!.expiredAt;

  it('dashboard → confirmation → expired through the expire rule, back on the dashboard with a notice', async () => {
    const { b, create } = await owner('expire-dashboard@example.com');
    const p = await create({ payload: 'to revoke', name: 'revoke me' });
    const dashboard = (await b.get('/dashboard')).text;
    expect(dashboard).toContain(`href="/p/${p.url_token}/expire"`);

    // The link only asks: nothing is expired until the confirmation is posted.
    const confirm = await b.get(`/p/${p.url_token}/expire`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Expire this push now?');
    expect(confirm.text).toContain('href="/dashboard"');
    expect(await expiredAt(p.url_token)).toBeNull();

    const done = await b.submit(`/p/${p.url_token}/expire`, `/p/${p.url_token}/delete`, { return_to: '/dashboard?state=expired&expired_now=1' });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/dashboard?state=expired&expired_now=1');
    expect(await expiredAt(p.url_token)).not.toBeNull();
    const after = (await b.get(done.headers.get('location')!)).text;
    expect(after).toContain('The push has expired');
    expect(after).not.toContain(`/p/${p.url_token}/expire`);
    const res = await fetch(`${server.url}/p/${p.url_token}`);
    expect(res.status).toBe(404);
  });

  it('preview page: offered to the owner only; the confirmation comes back to the preview, now expired', async () => {
    const { b, create } = await owner('expire-preview@example.com');
    // Not deletable by viewers: only its owner may expire it.
    const p = await create({ payload: 'to revoke', name: 'revoke me', deletable_by_viewer: false });
    const preview = (await b.get(`/p/${p.url_token}/preview`)).text;
    expect(preview).toContain(`href="/p/${p.url_token}/expire?from=preview"`);

    const stranger = new Browser(server);
    expect((await stranger.get(`/p/${p.url_token}/preview`)).text).not.toContain('/expire');
    await stranger.signUp('stranger@example.com');
    expect((await stranger.get(`/p/${p.url_token}/preview`)).text).not.toContain('/expire');
    expect((await stranger.get(`/p/${p.url_token}/expire`)).status).toBe(403);
    // A stranger's own post to the delete route (with their valid CSRF token) is refused by the expire rule itself.
    const csrf = csrfFrom((await stranger.get(`/p/${p.url_token}/preview`)).text, '/users/sign_out');
    expect((await stranger.post(`/p/${p.url_token}/delete`, { csrf_token: csrf, return_to: '/dashboard' })).status).toBe(403);
    expect(await expiredAt(p.url_token)).toBeNull();

    const done = await b.submit(`/p/${p.url_token}/expire?from=preview`, `/p/${p.url_token}/delete`, { return_to: `/p/${p.url_token}/preview` });
    expect(done.headers.get('location')).toBe(`/p/${p.url_token}/preview`);
    const after = (await b.get(`/p/${p.url_token}/preview`)).text;
    expect(after).toContain('This secret has expired');
    expect(after).not.toContain('/expire');
  });

  it('a signed-out visitor of the confirmation is sent to sign in first', async () => {
    const res = await new Browser(server).get('/p/abcdefghijklmnop/expire');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/users\/sign_in\?return_to=/);
  });
});

describe('the link-ready page sells its main action (issue 29 item 9)', () => {
  const copyButton = (html: string) => /<button[^>]*data-copy="secret-link"[^>]*>/.exec(html)![0];

  it('Copy is the primary button, and a QR code of the whole link is one click away (made without scripts: the server knows the link)', async () => {
    const b = new Browser(server);
    const form = new FormData();
    form.append('csrf_token', csrfFrom((await b.get('/')).text, '/'));
    form.append('push[payload]', 'ready');
    form.append('push[passphrase]', 'by phone');
    const ready = await b.postMultipart('/', form);
    expect(ready.status).toBe(200);
    expect(copyButton(ready.text)).not.toContain('secondary');
    expect(ready.text).toContain('Show a QR code of the link');
    expect(ready.text).toMatch(/<details class="qr-details">[\s\S]*<svg/);
    expect(ready.text).toContain('Remember to send the passphrase by another channel.');
  });

  it('an end-to-end link-ready page has no QR code (the server never had the key) and keeps the passphrase reminder', async () => {
    const { b } = await owner('ready-e2e@example.com');
    const form = new FormData();
    form.append('csrf_token', csrfFrom((await b.get('/')).text, '/'));
    form.append('push[payload]', await encryptTextPayload(newPushKey(), 'sealed'));
    form.append('push[end_to_end]', 'true');
    // The passphrase check of a passphrase (43 base64url characters), as the page's script sends it.
    form.append('push[passphrase]', 'A'.repeat(42) + 'A');
    const ready = await b.postMultipart('/', form);
    expect(ready.status).toBe(200);
    expect(copyButton(ready.text)).not.toContain('secondary');
    expect(ready.text).not.toContain('<svg');
    expect(ready.text).toContain('Remember to send the passphrase by another channel.');
  });
});

describe('the dashboard names a file push by its files (issue 29 item 12)', () => {
  it('an unnamed file push is listed under its file names, not "Untitled push"', async () => {
    const { b } = await owner('file-names@example.com');
    const form = new FormData();
    form.append('csrf_token', csrfFrom((await b.get('/')).text, '/'));
    form.append('push[kind]', 'file');
    form.append('push[files][]', new Blob(['%PDF-1.4']), 'invoice-2026.pdf');
    form.append('push[files][]', new Blob(['a,b']), 'totals.csv');
    expect((await b.postMultipart('/', form)).status).toBe(200);
    const html = (await b.get('/dashboard')).text;
    expect(html).toContain('<h2>invoice-2026.pdf, totals.csv</h2>');
    expect(html).not.toContain('Untitled push');
  });
});
