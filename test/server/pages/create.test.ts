import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptBytes } from '../../../shared/e2e/envelope-crypto.js';
import { newPushKey } from '../../../shared/e2e/link-key.js';
import { encryptManifestPayload } from '../../../shared/e2e/push-content.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom, textOf } from './browser.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** The create form as a browser sends it: multipart, hidden "false" before each checkbox. */
function createForm(csrf: string, fields: Record<string, string>, files: [string, string][] = []) {
  const form = new FormData();
  form.append('csrf_token', csrf);
  const defaults: Record<string, string> = { 'push[kind]': 'text', 'push[expire_after_days]': '7', 'push[expire_after_views]': '5' };
  for (const [k, v] of Object.entries({ ...defaults, ...fields })) form.append(k, v);
  for (const [name, content] of files) form.append('push[files][]', new Blob([content]), name);
  return form;
}

async function tokenOf(html: string) {
  const link = textOf(html, 'secret-link')!;
  return { link, token: /\/p\/([a-z0-9_-]+)/.exec(link)![1]! };
}

describe('GET /', () => {
  it('offers text, url and qr with the instance defaults, and files only to those who may attach them', async () => {
    const res = await new Browser(server).get('/');
    expect(res.status).toBe(200);
    for (const kind of ['text', 'url', 'qr']) expect(res.text).toContain(`name="push[kind]" value="${kind}"`);
    expect(res.text).not.toContain('value="file"');
    expect(res.text).toContain('Sign in to send files.');
    expect(res.text).toMatch(/name="push\[expire_after_days\]" min="1" max="90" value="7"/);
    expect(res.text).toMatch(/name="push\[expire_after_views\]" min="1" max="100" value="5"/);
    expect(res.text).toContain('enctype="multipart/form-data"');

    const signedIn = new Browser(server);
    await signedIn.signUp('files@example.com');
    expect((await signedIn.get('/')).text).toContain('name="push[kind]" value="file"');
  });

  it('does not offer kinds the instance turned off', async () => {
    const s = await startServer({ ENABLE_URL_PUSHES: 'false', ENABLE_QR_PUSHES: 'false', ENABLE_FILE_PUSHES: 'false' });
    try {
      const res = await new Browser(s).get('/');
      expect(res.text).toContain('value="text"');
      expect(res.text).not.toContain('value="url"');
      expect(res.text).not.toContain('value="qr"');
      expect(res.text).not.toContain('Sign in to send files');
    } finally {
      await s.stop();
    }
  });

  it('asks to sign in when anonymous access is off', async () => {
    const s = await startServer({ ALLOW_ANONYMOUS: 'false' });
    try {
      const res = await new Browser(s).get('/');
      expect(res.status).toBe(200);
      expect(res.text).toContain('Sign in to send a secret');
      expect(res.text).not.toContain('id="create-form"');
    } finally {
      await s.stop();
    }
  });
});

describe('POST /', () => {
  it('creates a text push with the chosen options and answers with the link and a copy button', async () => {
    const b = new Browser(server);
    const csrf = csrfFrom((await b.get('/')).text, '/');
    const res = await b.postMultipart(
      '/',
      createForm(csrf, {
        'push[payload]': 'from the form',
        'push[expire_after_days]': '3',
        'push[expire_after_views]': '2',
        'push[passphrase]': 'pp',
        'push[retrieval_step]': 'false', // unchecked: only the hidden field
        'push[deletable_by_viewer]': 'false',
        'push[name]': 'my name',
        'push[note]': 'my note',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('data-copy="secret-link"');
    const { link, token } = await tokenOf(res.text);
    expect(link).toBe(`${server.url}/p/${token}`);
    const push = (await server.server.pushes.peek(token))!;
    expect(push).toMatchObject({ kind: 'text', expireAfterDays: 3, expireAfterViews: 2, retrievalStep: false, deletableByViewer: false, hasPassphrase: true });
    // The name is sealed at rest (server/pushes/push-name.ts); what was typed is stored, not shown here.
    expect(push.name).toMatch(/^v1\./);
  });

  it('a checked checkbox wins over its hidden "false"', async () => {
    const b = new Browser(server);
    const csrf = csrfFrom((await b.get('/')).text, '/');
    const form = createForm(csrf, { 'push[payload]': 'x' });
    form.append('push[retrieval_step]', 'false');
    form.append('push[retrieval_step]', 'true');
    const res = await b.postMultipart('/', form);
    const { link, token } = await tokenOf(res.text);
    expect(link).toMatch(/\/r$/);
    expect((await server.server.pushes.peek(token))!.retrievalStep).toBe(true);
  });

  it('creates url and qr pushes', async () => {
    const b = new Browser(server);
    const csrf = csrfFrom((await b.get('/')).text, '/');
    const url = await tokenOf((await b.postMultipart('/', createForm(csrf, { 'push[kind]': 'url', 'push[payload]': 'https://example.com/' }))).text);
    expect((await server.server.pushes.peek(url.token))!.kind).toBe('url');
    const qr = await tokenOf((await b.postMultipart('/', createForm(csrf, { 'push[kind]': 'qr', 'push[payload]': 'qr text' }))).text);
    expect((await server.server.pushes.peek(qr.token))!.kind).toBe('qr');
  });

  it('creates a file push for a signed-in user', async () => {
    const b = new Browser(server);
    await b.signUp('uploader@example.com');
    const csrf = csrfFrom((await b.get('/')).text, '/');
    const res = await b.postMultipart('/', createForm(csrf, { 'push[kind]': 'file', 'push[payload]': '' }, [['a.txt', 'file body']]));
    expect(res.status).toBe(200);
    const { token } = await tokenOf(res.text);
    const push = (await server.server.pushes.peek(token))!;
    expect(push.kind).toBe('file');
    expect(push.files).toHaveLength(1);
    expect(push.ownerId).not.toBeNull();
  });

  it('shows validation errors next to the fields, keeping what was typed (escaped)', async () => {
    const b = new Browser(server);
    const csrf = csrfFrom((await b.get('/')).text, '/');
    const res = await b.postMultipart(
      '/',
      createForm(csrf, { 'push[kind]': 'url', 'push[payload]': 'javascript:alert(1)<script>', 'push[expire_after_days]': '999', 'push[name]': '<i>n</i>' }),
    );
    expect(res.status).toBe(422);
    expect(textOf(res.text, 'payload-error')).toBe('Secret must be an http or https URL');
    expect(textOf(res.text, 'expire_after_days-error')).toBe('Days must be between 1 and 90');
    expect(res.text).toContain('javascript:alert(1)&lt;script>');
    expect(res.text).toContain('value="&lt;i>n&lt;/i>"');
    expect(res.text).not.toContain('<i>n</i>');
    expect(res.text).toMatch(/value="url" checked/);
  });

  it('refuses a post without or with a wrong CSRF token (403, no link made)', async () => {
    const b = new Browser(server);
    await b.get('/');
    const noToken = new FormData();
    noToken.append('push[payload]', 'forged');
    const missing = await b.postMultipart('/', noToken);
    expect(missing.status).toBe(403);
    expect(missing.text).toContain('This form has expired');
    const wrong = await b.postMultipart('/', createForm('wrong', { 'push[payload]': 'forged' }));
    expect(wrong.status).toBe(403);
    expect(wrong.text).not.toContain('secret-link');
    // A token made for another browser does not fit this one.
    const other = new Browser(server);
    const otherCsrf = csrfFrom((await other.get('/')).text, '/');
    expect((await b.postMultipart('/', createForm(otherCsrf, { 'push[payload]': 'forged' }))).status).toBe(403);
  });

  it('refuses a cross-site post by its Origin even with a token', async () => {
    const b = new Browser(server);
    const csrf = csrfFrom((await b.get('/')).text, '/');
    const res = await b.postMultipart('/', createForm(csrf, { 'push[payload]': 'x' }), { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    const site = await b.postMultipart('/', createForm(csrf, { 'push[payload]': 'x' }), { 'sec-fetch-site': 'cross-site' });
    expect(site.status).toBe(403);
    const same = await b.postMultipart('/', createForm(csrf, { 'push[payload]': 'x' }), { origin: server.url, 'sec-fetch-site': 'same-origin' });
    expect(same.status).toBe(200);
  });
});

describe('the create page’s sliced uploads (/uploads)', () => {
  it('need the page’s CSRF token in a header; the form then creates the push from the upload’s id', async () => {
    const browser = new Browser(server);
    await browser.signUp('sliced-page@example.com');
    const page = await browser.get('/');
    const csrf = csrfFrom(page.text, '/');
    const key = newPushKey();
    const envelope = await encryptBytes(key, 'file', new Uint8Array(5000).fill(7));
    const push = { kind: 'file', end_to_end: 'true', payload: await encryptManifestPayload(key, { message: '', files: [{ name: 'a.bin', type: '', size: 5000 }] }), expire_after_views: '2' };
    const body = JSON.stringify({ push, files: [{ size: envelope.length }] });
    const json = { 'content-type': 'application/json' };

    // No token, a wrong one, or another site: refused before anything is stored, in JSON (the script reads it).
    for (const headers of [json, { ...json, 'x-csrf-token': 'forged' }, { ...json, 'x-csrf-token': csrf, 'sec-fetch-site': 'cross-site' }]) {
      const refused = await browser.request('POST', '/uploads', { body, headers });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text).error).toMatch(/CSRF token/);
    }
    const started = await browser.request('POST', '/uploads', { body, headers: { ...json, 'x-csrf-token': csrf } });
    expect(started.status).toBe(201);
    const { upload } = JSON.parse(started.text);
    const slice = await browser.request('PUT', `/uploads/${upload}/files/0?offset=0`, { body: envelope, headers: { 'x-csrf-token': csrf } });
    expect(slice.status).toBe(200);

    // The form carries the upload's id and no file; its own push fields only refill it after a refusal.
    const created = await browser.request('POST', '/', { body: createForm(csrf, { 'push[kind]': 'file', 'push[sliced_upload]': upload, 'push[end_to_end]': 'true' }) });
    expect(created.status).toBe(200);
    const { token } = await tokenOf(created.text);
    expect(await server.server.pushes.peek(token)).toMatchObject({ kind: 'file', endToEnd: true, expireAfterViews: 2 });
    // The form sent again (the browser resubmits it after a lost answer): the same push's page.
    const again = await browser.request('POST', '/', { body: createForm(csrf, { 'push[kind]': 'file', 'push[sliced_upload]': upload }) });
    expect(again.status).toBe(200);
    expect((await tokenOf(again.text)).token).toBe(token);
    // An id no upload has is refused on the form, in words.
    const unknown = await browser.request('POST', '/', { body: createForm(csrf, { 'push[kind]': 'file', 'push[sliced_upload]': 'A'.repeat(24) }) });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('No such upload');
  });
});
