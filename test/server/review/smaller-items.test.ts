import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { tamperWithBlob } from '../../support/stored-data.js';
import { Browser, csrfFrom } from '../pages/browser.js';

/** Finding 7: the smaller items of the hostile review, each over real HTTP. */
let server: TestServer;
let owner: string;

beforeAll(async () => {
  server = await startServer({ FILES_REQUIRE_AUTH: 'false' });
  ({ token: owner } = await createUserWithToken(server, 'smaller@example.com'));
});
afterAll(() => server.stop());

describe('a deletable-by-viewer push with a passphrase', () => {
  it('over the API: deleted only with its passphrase (a wrong one counts as a guess)', async () => {
    const p = await createPush(server, { payload: 'guarded', passphrase: 'open sesame', deletable_by_viewer: true, expire_after_views: 5 });
    const bare = await api.delete(server, `/api/v2/pushes/${p.url_token}`);
    expect(bare.status).toBe(401);
    expect(bare.body.error).toBe('This push has a passphrase: give it (passphrase=…) to delete the push.');
    const wrong = await api.delete(server, `/api/v2/pushes/${p.url_token}?passphrase=nope`);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('That passphrase is incorrect.');
    const trpcBare = await api.post(server, '/trpc/pushes.expire', { json: { url_token: p.url_token } });
    expect(trpcBare.status).toBe(401);
    // Still there, still counting.
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=open%20sesame`)).body).toMatchObject({ payload: 'guarded', expired: false });
    // The legacy v1 API applies the same rule.
    expect((await api.delete(server, `/p/${p.url_token}.json`)).status).toBe(401);
    const right = await api.delete(server, `/api/v2/pushes/${p.url_token}?passphrase=open%20sesame`);
    expect(right.status).toBe(200);
    expect(right.body).toMatchObject({ expired: true, deleted: true });
    const v1 = await createPush(server, { payload: 'v1 guarded', passphrase: 'pw1', deletable_by_viewer: true });
    expect((await api.delete(server, `/p/${v1.url_token}.json?passphrase=pw1`)).status).toBe(200);
  });

  it('on the recipient page: the delete form works only after the passphrase was given', async () => {
    const p = await createPush(server, { payload: 'page guarded', passphrase: 'pw page', deletable_by_viewer: true, expire_after_views: 5, retrieval_step: false });
    const b = new Browser(server);
    // A forged delete (the CSRF token of the passphrase form, no proof of the passphrase).
    const form = await b.get(`/p/${p.url_token}`);
    const forged = await b.post(`/p/${p.url_token}/delete`, { csrf_token: csrfFrom(form.text) });
    expect(forged.status).toBe(403);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}/preview`)).status).toBe(200);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=pw%20page`)).body.expired).toBe(false);
    // With the passphrase: the secret page's delete form carries the proof.
    const shown = await b.post(`/p/${p.url_token}`, { csrf_token: csrfFrom(form.text), passphrase: 'pw page' });
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('page guarded');
    expect(shown.text).not.toContain('pw page');
    const exp = /name="exp" value="(\d+)"/.exec(shown.text)![1]!;
    const ticket = /name="ticket" value="([^"]+)"/.exec(shown.text)![1]!;
    const deleted = await b.post(`/p/${p.url_token}/delete`, { csrf_token: csrfFrom(shown.text, `/p/${p.url_token}/delete`), exp, ticket });
    expect(deleted.status).toBe(200);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body).toMatchObject({ expired: true, deleted: true });
  });
});

describe('audit history', () => {
  it('is never capped: past 2,000 entries every entry is kept and reachable page by page', async () => {
    const p = await createPush(server, { payload: 'popular', expire_after_views: 1 }, owner);
    const id = server.server.pushes.storageId(p.url_token);
    for (let i = 0; i < 2100; i++) await server.server.store.appendAudit(id, { kind: 'failed_view', ip: `192.0.2.${i % 250}`, userAgent: `ua ${i}`, referrer: '', at: new Date().toISOString() });
    await api.get(server, `/api/v2/pushes/${p.url_token}`); // a real view, after them
    const page = (n: number) => api.get(server, `/api/v2/pushes/${p.url_token}/audit?page=${n}`, { token: owner });
    const last = await page(43); // 1 creation + 2,100 + 1 view = 2,102 entries: page 43 holds the last 2
    expect(last.status).toBe(200);
    expect(last.body.logs.map((l: any) => l.kind)).toEqual(['failed_view', 'view']);
    expect(last.body.logs[0].user_agent).toBe('ua 2099');
    expect((await page(1)).body.logs[0].kind).toBe('creation');
    expect((await page(44)).body.logs).toEqual([]);
    // The dashboard says there is more, and pages through all of it.
    const b = new Browser(server);
    await b.signUp('audit-pages@example.com');
    const mine = (await api.post(server, '/api/v2/pushes', { token: await b.submit('/users/token', '/users/token', { label: 'x' }).then((r) => /sp_[A-Za-z0-9_-]{43}/.exec(r.text)![0]), json: { push: { payload: 'mine' } } })).body;
    const mineId = server.server.pushes.storageId(mine.url_token);
    for (let i = 0; i < 60; i++) await server.server.store.appendAudit(mineId, { kind: 'failed_passphrase', ip: '192.0.2.1', userAgent: `ua ${i}`, referrer: '', at: new Date().toISOString() });
    const dashboard = await b.get('/dashboard');
    expect(dashboard.text).toContain('the first 50 events');
    expect(dashboard.text).toContain(`/dashboard/audit/${mine.url_token}?page=2`);
    const second = await b.get(`/dashboard/audit/${mine.url_token}?page=2`);
    expect(second.status).toBe(200);
    expect(second.text).toContain('ua 59');
    expect((await new Browser(server).get(`/dashboard/audit/${mine.url_token}?page=2`)).status).toBe(303); // signed out
  });
});

describe('a file whose authentication fails', () => {
  it('is refused before any byte is sent (503, a clear message), never streamed and cut off', async () => {
    const fd = new FormData();
    fd.append('push[payload]', 'see file');
    const plain = 'PLAINTEXT-CHUNK '.repeat(40_000); // 640 KB: many stream chunks
    fd.append('push[files][]', new Blob([plain]), 'big.txt');
    const created = await api.post(server, '/api/v2/pushes', { raw: fd });
    expect(created.status).toBe(201);
    const shown = await api.get(server, `/api/v2/pushes/${created.body.url_token}`);
    await tamperWithBlob(server, created.body.url_token);
    const res = await fetch(shown.body.files[0].url);
    const body = await res.text();
    expect(res.status).toBe(503);
    expect(body).not.toContain('PLAINTEXT');
    expect(JSON.parse(body).error).toMatch(/cannot be decrypted/);
  });
});

describe('client addresses', () => {
  it('the rate limit treats ::ffff:a.b.c.d as a.b.c.d, and an IPv6 /64 as one client', async () => {
    const limited = await startServer({ RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'true' });
    try {
      const from = (ip: string) => api.get(limited, '/api/v2/version', { headers: { 'x-forwarded-for': ip } });
      const v4 = [await from('192.0.2.5'), await from('::ffff:192.0.2.5'), await from('::ffff:c000:205'), await from('192.0.2.5')].map((r) => r.status);
      expect(v4).toEqual([200, 200, 200, 429]);
      const v6 = [await from('2001:db8:1:2::1'), await from('2001:db8:1:2::ffff'), await from('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), await from('2001:0db8:0001:0002::9')].map((r) => r.status);
      expect(v6).toEqual([200, 200, 200, 429]);
      expect((await from('2001:db8:1:3::1')).status).toBe(200); // another /64
    } finally {
      await limited.stop();
    }
  });

  it('the guess limits do too', async () => {
    const guarded = await startServer({ TRUST_PROXY: 'true', SIGN_IN_FAILURES_BEFORE_BACKOFF: '2' });
    try {
      await new Browser(guarded).signUp('mapped@example.com', 'the right password');
      const signIn = async (ip: string) => {
        const b = new Browser(guarded, { 'x-forwarded-for': ip });
        return (await b.submit('/users/sign_in', '/users/sign_in', { email: 'mapped@example.com', password: 'wrong password' })).status;
      };
      expect([await signIn('198.51.100.44'), await signIn('::ffff:198.51.100.44'), await signIn('198.51.100.44')]).toEqual([401, 401, 429]);
    } finally {
      await guarded.stop();
    }
  });
});

/** A create sent with a Host header of our choosing (fetch does not let one set Host). */
function createWithHost(target: TestServer, host: string, headers: Record<string, string> = {}, agent?: Agent): Promise<any> {
  const url = new URL(target.url);
  const body = JSON.stringify({ push: { payload: 'host test' } });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: '/api/v2/pushes', method: 'POST', agent, headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ ...JSON.parse(text), reusedSocket: req.reusedSocket }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('secret links', () => {
  it('never use a Host header that is neither the listen address nor in ALLOWED_HOSTS', async () => {
    const port = new URL(server.url).port;
    expect((await createWithHost(server, 'evil.example')).html_url.startsWith(`${server.url}/p/`)).toBe(true);
    expect((await createWithHost(server, `evil.example:${port}`)).html_url.startsWith(`${server.url}/p/`)).toBe(true);
    expect((await createWithHost(server, `localhost:${port}`)).html_url.startsWith(`http://localhost:${port}/p/`)).toBe(true);
    expect((await createWithHost(server, `127.0.0.1:${port}`)).html_url.startsWith(`${server.url}/p/`)).toBe(true);
  });

  it('follow each request’s own Host on one keep-alive connection (the origin kept per connection is not reused for another Host)', async () => {
    const allowed = await startServer({ ALLOWED_HOSTS: 'secrets.example.com', TRUST_PROXY: 'true' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const own = new RegExp(`^http://127\\.0\\.0\\.1:${new URL(allowed.url).port}/p/`);
      const answers = [
        [await createWithHost(allowed, 'secrets.example.com', {}, agent), /^http:\/\/secrets\.example\.com\/p\//],
        [await createWithHost(allowed, 'evil.example', {}, agent), own],
        [await createWithHost(allowed, 'secrets.example.com', {}, agent), /^http:\/\/secrets\.example\.com\/p\//],
        [await createWithHost(allowed, 'secrets.example.com', { 'x-forwarded-proto': 'https' }, agent), /^https:\/\/secrets\.example\.com\/p\//],
        [await createWithHost(allowed, 'internal:1', { 'x-forwarded-host': 'evil.example' }, agent), own],
        [await createWithHost(allowed, 'internal:1', { 'x-forwarded-host': 'secrets.example.com' }, agent), /^http:\/\/secrets\.example\.com\/p\//],
      ] as const;
      for (const [answer, link] of answers) expect(answer.html_url).toMatch(link);
      expect(answers.slice(1).every(([answer]) => answer.reusedSocket)).toBe(true);
    } finally {
      agent.destroy();
      await allowed.stop();
    }
  });

  it('use ALLOWED_HOSTS names (also behind a trusted proxy), and BASE_URL over everything', async () => {
    const allowed = await startServer({ ALLOWED_HOSTS: 'secrets.example.com, Other.Example:8443', TRUST_PROXY: 'true' });
    try {
      expect((await createWithHost(allowed, 'secrets.example.com')).html_url).toMatch(/^http:\/\/secrets\.example\.com\/p\//);
      expect((await createWithHost(allowed, 'other.example:8443')).html_url).toMatch(/^http:\/\/other\.example:8443\/p\//);
      expect((await createWithHost(allowed, 'other.example:9999')).html_url.startsWith(`${allowed.url}/p/`)).toBe(true);
      const proxied = await createWithHost(allowed, 'internal:1', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' });
      expect(proxied.html_url).toMatch(new RegExp(`^https://127\\.0\\.0\\.1:${new URL(allowed.url).port}/p/`));
      const good = await createWithHost(allowed, 'internal:1', { 'x-forwarded-host': 'secrets.example.com', 'x-forwarded-proto': 'https' });
      expect(good.html_url).toMatch(/^https:\/\/secrets\.example\.com\/p\//);
    } finally {
      await allowed.stop();
    }
    const based = await startServer({ BASE_URL: 'https://push.example.org' });
    try {
      expect((await createWithHost(based, 'evil.example')).html_url).toMatch(/^https:\/\/push\.example\.org\/p\//);
    } finally {
      await based.stop();
    }
  });
});

describe('slow bodies', () => {
  it('are cut off after REQUEST_TIMEOUT_S', async () => {
    const slow = await startServer({ REQUEST_TIMEOUT_S: '1', HEADERS_TIMEOUT_SECONDS: '1' });
    try {
      const url = new URL(slow.url);
      const socket = connect(Number(url.port), url.hostname);
      socket.write('POST /api/v2/pushes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"push":');
      let answer = '';
      socket.on('data', (d) => (answer += d));
      await new Promise((resolve) => socket.on('close', resolve));
      expect(answer === '' || answer.startsWith('HTTP/1.1 408') || answer.startsWith('HTTP/1.1 400')).toBe(true);
      expect((await slow.server.store.countPushes()).total).toBe(0);
    } finally {
      await slow.stop();
    }
  });
});

describe('file names with bidirectional controls', () => {
  it('are shown neutralised on the page and in the saved name', async () => {
    const fd = new FormData();
    fd.append('push[payload]', 'see file');
    fd.append('push[retrieval_step]', 'false');
    fd.append('push[files][]', new Blob(['MZ']), 'invoice\u202Efdp.exe');
    const created = await api.post(server, '/api/v2/pushes', { raw: fd });
    const page = await new Browser(server).get(`/p/${created.body.url_token}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('\u202E');
    expect(page.text).toContain('invoice[U+202E]fdp.exe');
    const link = /href="([^"]*\/files\/[^"]*)"/.exec(page.text)![1]!.replace(/&amp;/g, '&');
    const download = await fetch(link);
    expect(download.headers.get('content-disposition')).not.toMatch(/%E2%80%AE/i);
    expect(download.headers.get('content-disposition')).toContain("filename*=UTF-8''invoice_fdp.exe");
  });
});
