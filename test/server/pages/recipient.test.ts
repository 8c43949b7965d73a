import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom, textOf } from './browser.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function create(push: Record<string, unknown>, token?: string) {
  const res = await fetch(`${server.url}/api/v2/pushes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ push }),
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  const rec = (await res.json()) as { url_token: string; html_url: string };
  return { token: rec.url_token, path: new URL(rec.html_url).pathname };
}

async function views(token: string) {
  return (await server.server.pushes.peek(token))?.views;
}

async function auditKinds(token: string) {
  const { store } = server.server.pushes as unknown as { store: { listAudit(t: string, o: number, n: number): Promise<{ kind: string }[]> } };
  return (await store.listAudit(server.server.pushes.storageId(token), 0, 100)).map((e) => e.kind);
}

describe('retrieval step /p/:token/r', () => {
  it('shows one reveal link and counts no view, however often it is fetched', async () => {
    const { token, path } = await create({ payload: 'step secret', expire_after_views: 1 });
    expect(path).toBe(`/p/${token}/r`);
    const b = new Browser(server);
    for (let i = 0; i < 3; i++) {
      const res = await b.get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).not.toContain('step secret');
      expect(res.text.match(new RegExp(`href="/p/${token}"`, 'g'))).toHaveLength(1);
    }
    expect(await views(token)).toBe(0);
    const revealed = await b.get(`/p/${token}`);
    expect(revealed.status).toBe(200);
    expect(textOf(revealed.text, 'secret')).toBe('step secret');
    expect(await views(token)).toBe(1);
    // The one allowed view is used: the link is now expired, and so is its retrieval step.
    expect((await b.get(`/p/${token}`)).status).toBe(404);
    expect((await b.get(path)).status).toBe(404);
  });

  it('a HEAD request (link checkers) on the secret URL counts no view', async () => {
    const { token } = await create({ payload: 'head', retrieval_step: false, expire_after_views: 1 });
    const b = new Browser(server);
    const head = await b.request('HEAD', `/p/${token}`);
    expect(head.status).toBe(200);
    expect(await views(token)).toBe(0);
    expect(textOf((await b.get(`/p/${token}`)).text, 'secret')).toBe('head');
  });

  it('says how many days and views remain', async () => {
    const { token } = await create({ payload: 'x', expire_after_views: 3, expire_after_days: 2 });
    const res = await new Browser(server).get(`/p/${token}`);
    expect(res.text).toContain('2 days');
    expect(res.text).toContain('2 more views');
  });
});

describe('text secrets', () => {
  it('shows HTML and script as text, never as markup', async () => {
    const payload = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&amp;`;
    const { token } = await create({ payload });
    const res = await new Browser(server).get(`/p/${token}`);
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>alert(1)');
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).toContain('&lt;script>alert(1)&lt;/script>');
    expect(textOf(res.text, 'secret')).toBe(payload);
  });

  it('offers copy and hide/show buttons (enabled by /assets/pages.js) and no inline script', async () => {
    const { token } = await create({ payload: 'copy me' });
    const res = await new Browser(server).get(`/p/${token}`);
    expect(res.text).toContain('data-copy="secret"');
    expect(res.text).toContain('data-toggle="secret"');
    expect(res.text).toContain('src="/assets/pages.js"');
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.text).not.toMatch(/\son\w+=/);
    expect(res.text).not.toMatch(/style=/);
    const js = await fetch(`${server.url}/assets/pages.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
  });

  it('shows name-less secrets with the note never revealed to the recipient', async () => {
    const { token } = await create({ payload: 'visible', note: 'owner-only note', name: 'owner-only name' });
    const res = await new Browser(server).get(`/p/${token}`);
    expect(res.text).not.toContain('owner-only');
  });
});

describe('unknown and expired links', () => {
  it('render the same page with the same status', async () => {
    const { token } = await create({ payload: 'gone soon' });
    const b = new Browser(server);
    expect((await b.post(`/p/${token}/delete`, { csrf_token: csrfFrom((await b.get(`/p/${token}`)).text, `/p/${token}/delete`) })).status).toBe(200);
    const expired = await b.get(`/p/${token}`);
    const unknown = await b.get('/p/abcdefghijklmnopqrs');
    const malformed = await b.get('/p/NOT%20A%20TOKEN');
    const expiredStep = await b.get(`/p/${token}/r`);
    const unknownStep = await b.get('/p/abcdefghijklmnopqrs/r');
    for (const res of [expired, unknown, malformed, expiredStep, unknownStep]) {
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
    const body = (t: string) => t.replace(/value="[^"]*"/g, '');
    expect(body(expired.text)).toBe(body(unknown.text));
    expect(body(expiredStep.text)).toBe(body(unknownStep.text));
    expect(expired.text).toContain('This secret link has expired');
  });

  it('records a failed view when an expired link is opened', async () => {
    const { token } = await create({ payload: 'one', expire_after_views: 1 });
    const b = new Browser(server);
    await b.get(`/p/${token}`);
    await b.get(`/p/${token}`);
    expect(await auditKinds(token)).toContain('failed_view');
  });
});

describe('url, qr and file pushes', () => {
  it('url: 303 redirect to the target, counting a view', async () => {
    const { token } = await create({ kind: 'url', payload: 'https://example.com/path?q=1' });
    const res = await new Browser(server).get(`/p/${token}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://example.com/path?q=1');
    expect(await views(token)).toBe(1);
  });

  it('qr: an SVG image as a data: URI, plus the text', async () => {
    const { token } = await create({ kind: 'qr', payload: 'WIFI:S:home;T:WPA;P:<pw>;;' });
    const res = await new Browser(server).get(`/p/${token}`);
    expect(res.status).toBe(200);
    const img = /<img[^>]*id="qr-image"[^>]*src="data:image\/svg\+xml;base64,([^"]+)"/.exec(res.text);
    expect(img).not.toBeNull();
    const svg = Buffer.from(img![1]!, 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect(textOf(res.text, 'secret')).toBe('WIFI:S:home;T:WPA;P:<pw>;;');
  });

  it('file: one download link per file, which downloads the file', async () => {
    const { token: apiToken } = await import('../../support/server.js').then((m) => m.createUserWithToken(server, 'filer@example.com'));
    const form = new FormData();
    form.append('push[files][]', new Blob(['first file']), 'one.txt');
    form.append('push[files][]', new Blob(['second file']), 'two <b>.txt');
    const created = await fetch(`${server.url}/api/v2/pushes`, { method: 'POST', body: form, headers: { authorization: `Bearer ${apiToken}` } });
    expect(created.status).toBe(201);
    const { url_token } = (await created.json()) as { url_token: string };
    const res = await new Browser(server).get(`/p/${url_token}`);
    expect(res.status).toBe(200);
    const links = [...res.text.matchAll(/<a href="([^"]+\/files\/[^"]+)" download="[^"]*">([^<]*)<\/a>/g)];
    expect(links.map((l) => l[2]).sort()).toEqual(['one.txt', 'two &lt;b>.txt']);
    const one = links.find((l) => l[2] === 'one.txt')!;
    const download = await fetch(one[1]!.replace(/&amp;/g, '&'));
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('first file');
  });
});

describe('passphrase', () => {
  it('asks for it (no view counted), refuses a wrong one on the form, then shows the secret', async () => {
    const { token } = await create({ payload: 'behind a phrase', passphrase: 'open sesame' });
    const b = new Browser(server);
    const formPage = await b.get(`/p/${token}`);
    expect(formPage.status).toBe(200);
    expect(formPage.text).toContain('name="passphrase"');
    expect(formPage.text).not.toContain('behind a phrase');
    expect(await views(token)).toBe(0);

    const wrong = await b.post(`/p/${token}`, { csrf_token: csrfFrom(formPage.text), passphrase: 'wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('That passphrase is incorrect.');
    expect(wrong.text).toContain('name="passphrase"');
    expect(wrong.text).not.toContain('behind a phrase');
    expect(await auditKinds(token)).toContain('failed_passphrase');
    expect(await views(token)).toBe(0);

    const right = await b.post(`/p/${token}`, { csrf_token: csrfFrom(wrong.text), passphrase: 'open sesame' });
    expect(right.status).toBe(200);
    expect(textOf(right.text, 'secret')).toBe('behind a phrase');
    expect(await views(token)).toBe(1);
  });

  it('after too many wrong attempts answers 429 in words, with Retry-After', async () => {
    const { token } = await create({ payload: 'limited', passphrase: 'right one' });
    const b = new Browser(server);
    const csrf = csrfFrom((await b.get(`/p/${token}`)).text);
    let last;
    for (let i = 0; i < 6; i++) last = await b.post(`/p/${token}`, { csrf_token: csrf, passphrase: `wrong ${i}` });
    expect(last!.status).toBe(429);
    expect(last!.headers.get('retry-after')).toBe('60');
    expect(last!.text).toContain('Too many wrong passphrases');
    // Even the right passphrase waits now.
    const right = await b.post(`/p/${token}`, { csrf_token: csrf, passphrase: 'right one' });
    expect(right.status).toBe(429);
    expect(right.text).not.toContain('limited</pre>');
  });

  it('a url push behind a passphrase redirects after the passphrase', async () => {
    const { token } = await create({ kind: 'url', payload: 'https://example.org/', passphrase: 'pp' });
    const b = new Browser(server);
    const res = await b.post(`/p/${token}`, { csrf_token: csrfFrom((await b.get(`/p/${token}`)).text), passphrase: 'pp' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://example.org/');
  });
});

describe('delete now', () => {
  it('is offered when deletable by viewers and expires the push', async () => {
    const { token } = await create({ payload: 'delete me', deletable_by_viewer: true, expire_after_views: 5 });
    const b = new Browser(server);
    const page = await b.get(`/p/${token}`);
    expect(page.text).toContain(`action="/p/${token}/delete"`);
    const res = await b.post(`/p/${token}/delete`, { csrf_token: csrfFrom(page.text, `/p/${token}/delete`) });
    expect(res.status).toBe(200);
    expect(res.text).toContain('The secret has been deleted');
    const push = await server.server.pushes.peek(token);
    expect(push?.expiredAt).not.toBeNull();
    expect(push?.deleted).toBe(true);
  });

  it('is not offered when the viewer may not delete, and a forged post is refused', async () => {
    const { token } = await create({ payload: 'keep me', deletable_by_viewer: false });
    const b = new Browser(server);
    const page = await b.get(`/p/${token}`);
    expect(page.text).not.toContain('/delete"');
    // A valid CSRF token (from another page of the same browser) does not make it deletable.
    const res = await b.post(`/p/${token}/delete`, { csrf_token: csrfFrom((await b.get('/')).text, '/') });
    expect(res.status).toBe(403);
    expect(res.text).toContain('cannot be deleted by its viewers');
    expect((await server.server.pushes.peek(token))?.expiredAt).toBeNull();
  });

  it('refuses without or with a wrong CSRF token', async () => {
    const { token } = await create({ payload: 'csrf', deletable_by_viewer: true });
    const b = new Browser(server);
    await b.get(`/p/${token}/r`);
    expect((await b.post(`/p/${token}/delete`, {})).status).toBe(403);
    expect((await b.post(`/p/${token}/delete`, { csrf_token: 'forged' })).status).toBe(403);
    expect((await server.server.pushes.peek(token))?.expiredAt).toBeNull();
  });
});
