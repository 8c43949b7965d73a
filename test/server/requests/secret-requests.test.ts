import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { storedContaining } from '../../support/stored-data.js';
import { startServer, type TestServer } from '../../support/server.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { Browser, csrfFrom } from '../pages/browser.js';

/**
 * Secret requests end to end: the requester makes a link (API or page), whoever opens it sends
 * a text once (page or API), the answer becomes the requester's push with the limits they chose,
 * the link then answers "closed", concurrent answers leave one push, the link page reveals
 * nothing of the requester but what they wrote, and the requester's webhook hears of it.
 */
const OWNER = 'asker@example.com';
const plain = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('secret requests', () => {
  let server: TestServer;
  let owner: Browser;
  let token: string;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    server = await startServer({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_SECONDS: '0.05' });
    owner = new Browser(server);
    await owner.signUp(OWNER);
    const { user } = await server.server.accounts.ensureUser(OWNER);
    ({ token } = await server.server.accounts.createApiToken(user, 'requests'));
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await server.stop();
    await receiver.close();
  });

  it('API request, answered through the page once: the answer is the requester’s push with its own limits', async () => {
    const hook = await api.post(server, '/api/v2/webhooks', { token, json: { url: receiver.url, events: ['request.answered'] } });
    receiver.secret = hook.body.secret;
    const made = await api.post(server, '/api/v2/secret-requests', {
      token,
      json: { title: 'VPN password for ACME', message: 'Paste the shared VPN password here.', answer_expire_after_views: 2, answer_expire_after_days: 3 },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ state: 'open', title: 'VPN password for ACME', answered_at: null, push_id: null, answer_html_url: null });
    const link = made.body.url_token as string;
    expect(made.body.html_url).toBe(`${server.url}/req/${link}`);

    // Whoever opens it sees the title and message only.
    const shown = await api.get(server, `/api/v2/secret-requests/${link}`);
    expect(Object.keys(shown.body).sort()).toEqual(['expires_at', 'message', 'title']);
    const visitor = new Browser(server);
    const page = await visitor.get(`/req/${link}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('VPN password for ACME');
    expect(page.text).toContain('Paste the shared VPN password here.');
    expect(page.text).not.toContain(OWNER);
    expect(page.text).not.toContain('asker');

    const sent = await visitor.post(`/req/${link}`, { csrf_token: csrfFrom(page.text, `/req/${link}`), payload: 'hunter2-vpn' });
    expect(sent.status).toBe(200);
    expect(plain(sent.text)).toContain('Your secret was sent');
    expect(sent.text).not.toContain('hunter2-vpn');

    // Used: the link is closed to everyone, by page and by API.
    expect((await visitor.get(`/req/${link}`)).status).toBe(404);
    expect((await api.post(server, `/api/v2/secret-requests/${link}/answer`, { json: { payload: 'again' } })).status).toBe(404);

    const [listed] = (await api.get(server, '/api/v2/secret-requests', { token })).body;
    expect(listed).toMatchObject({ url_token: link, state: 'answered' });
    expect(listed.answered_at).not.toBeNull();
    const answerToken = /\/p\/([^/]+)\/r$/.exec(listed.answer_html_url)![1]!;
    const pushes = (await api.get(server, '/api/v2/pushes/active', { token })).body;
    const answerPush = pushes.find((p: any) => p.url_token === answerToken);
    expect(answerPush).toMatchObject({ name: 'VPN password for ACME', expire_after_views: 2, expire_after_days: 3, push_id: listed.push_id });
    expect((await api.get(server, `/api/v2/pushes/${answerToken}`, { token })).body.payload).toBe('hunter2-vpn');

    await receiver.until(() => receiver.unique().length === 1);
    const event = JSON.parse(receiver.unique()[0]!.body);
    expect(event).toMatchObject({ type: 'request.answered', data: { push_id: listed.push_id, request_created_at: made.body.created_at, answered_at: listed.answered_at } });
    // The README shows the data as it is sent.
    const keys = Object.keys(event.data).map((k) => `"${k}"`).join(', ');
    expect(readFileSync('README.md', 'utf8')).toContain(`\`request.answered\`'s is \`{${keys}}\``);
    expect(receiver.unique()[0]!.body).not.toContain('hunter2');
  });

  it('concurrent answers to one request leave exactly one push', async () => {
    const made = await api.post(server, '/api/v2/secret-requests', { token, json: { title: 'race' } });
    const link = made.body.url_token;
    const before = (await api.get(server, '/api/v2/pushes/active', { token })).body.length;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => api.post(server, `/api/v2/secret-requests/${link}/answer`, { json: { payload: `answer ${i}` } })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(11).fill(404)]);
    expect((await api.get(server, '/api/v2/pushes/active', { token })).body.length).toBe(before + 1);
  });

  it('the requester page makes and closes a request; a closed link is closed for everyone', async () => {
    const made = await owner.submit('/users/requests', '/users/requests', {
      title: 'Wi-Fi key',
      message: '',
      expire_after_days: '2',
      answer_expire_after_days: '1',
      answer_expire_after_views: '1',
    });
    expect(made.status).toBe(200);
    const link = /<code id="request-link">[^<]*\/req\/([^<]+)<\/code>/.exec(made.text)![1]!;
    expect((await new Browser(server).get(`/req/${link}`)).status).toBe(200);
    const closed = await owner.submit('/users/requests', '/users/requests/close', { token: link });
    expect(closed.status).toBe(303);
    expect(plain((await owner.get('/users/requests')).text)).toContain('Wi-Fi key Closed');
    const visitor = await new Browser(server).get(`/req/${link}`);
    expect(visitor.status).toBe(404);
    expect(plain(visitor.text)).toContain('This request is closed');
  });

  it('bad input: 401 without an account, 422 naming the field, a blank answer shown again', async () => {
    expect((await api.post(server, '/api/v2/secret-requests', { json: { title: 'x' } })).status).toBe(401);
    const bad = await api.post(server, '/api/v2/secret-requests', { token, json: { expire_after_days: 0, answer_expire_after_views: 1000 } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body).sort()).toEqual(['answer_expire_after_views', 'expire_after_days']);
    const link = (await api.post(server, '/api/v2/secret-requests', { token, json: {} })).body.url_token;
    const blank = await api.post(server, `/api/v2/secret-requests/${link}/answer`, { json: { payload: '' } });
    expect([blank.status, blank.body]).toEqual([422, { payload: ["can't be blank"] }]);
    const visitor = new Browser(server);
    const page = await visitor.get(`/req/${link}`);
    const again = await visitor.post(`/req/${link}`, { csrf_token: csrfFrom(page.text, `/req/${link}`), payload: '' });
    expect(again.status).toBe(422);
    expect(plain(again.text)).toContain("can't be blank");
    // Still open after the failed answers.
    expect((await api.get(server, `/api/v2/secret-requests/${link}`)).status).toBe(200);
    expect((await api.get(server, '/api/v2/secret-requests/unknowntoken')).status).toBe(404);
    // Someone else may not close it.
    const { user } = await server.server.accounts.ensureUser('other@example.com');
    const other = (await server.server.accounts.createApiToken(user, 'x')).token;
    expect((await api.delete(server, `/api/v2/secret-requests/${link}`, { token: other })).status).toBe(403);
  });

  it('an answer may carry files (page or API multipart): the answer is a file push of the requester, downloadable by them', async () => {
    const link = (await api.post(server, '/api/v2/secret-requests', { token, json: { title: 'certificate' } })).body.url_token;
    const visitor = new Browser(server);
    const page = await visitor.get(`/req/${link}`);
    expect(page.text).toContain('enctype="multipart/form-data"');
    const form = new FormData();
    form.append('csrf_token', csrfFrom(page.text, `/req/${link}`));
    form.append('payload', 'the key is attached');
    form.append('files', new Blob(['-----BEGIN KEY-----']), 'server.key');
    const sent = await visitor.postMultipart(`/req/${link}`, form);
    expect(sent.status).toBe(200);
    const request = (await api.get(server, '/api/v2/secret-requests', { token })).body.find((r: any) => r.url_token === link);
    const answer = /\/p\/([^/]+)\/r$/.exec(request.answer_html_url)![1];
    const opened = (await api.get(server, `/api/v2/pushes/${answer}`, { token })).body;
    expect(opened.payload).toBe('the key is attached');
    expect(opened.files.map((f: any) => f.filename)).toEqual(['server.key']);
    expect(await (await fetch(opened.files[0].url)).text()).toBe('-----BEGIN KEY-----');

    // Over the API, files alone; a second answer (with files) to the same link is refused before storing them.
    const second = (await api.post(server, '/api/v2/secret-requests', { token, json: {} })).body.url_token;
    const body = () => {
      const fd = new FormData();
      fd.append('files', new Blob(['only a file']), 'note.txt');
      return fd;
    };
    expect((await api.post(server, `/api/v2/secret-requests/${second}/answer`, { raw: body() })).status).toBe(201);
    expect((await api.post(server, `/api/v2/secret-requests/${second}/answer`, { raw: body() })).status).toBe(404);
  });

  it('the link page and the requester list show a title and message with their controls made visible, as file names are', async () => {
    // U+202E would show "pay-invoice-fdp.exe" as "pay-invoice-exe.pdf"; U+2066 isolates; U+0007 is a C0 control.
    const made = await api.post(server, '/api/v2/secret-requests', { token, json: { title: 'pay-invoice-\u202Efdp.exe\u0007', message: 'from \u2066HR\u2069' } });
    expect(made.status).toBe(201);
    const page = await new Browser(server).get(`/req/${made.body.url_token}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/[\u202E\u2066\u2069\u0007]/);
    expect(page.text).toContain('pay-invoice-[U+202E]fdp.exe[U+0007]');
    expect(page.text).toContain('from [U+2066]HR[U+2069]');
    const mine = await owner.get('/users/requests');
    expect(mine.text).not.toContain('\u202E');
    expect(mine.text).toContain('pay-invoice-[U+202E]fdp.exe[U+0007]');
  });

  it("a push's name is sealed at rest on every path that sets one (request answer, REST, tRPC), in its record and its webhook outbox bodies; the receiver still gets it", async () => {
    const hook = await api.post(server, '/api/v2/webhooks', { token, json: { url: receiver.url, events: ['push.created', 'request.answered'] } });
    receiver.secret = hook.body.secret;
    const names = ['Quokka-Zebra-7731 via request', 'Quokka-Zebra-7731 via REST', 'Quokka-Zebra-7731 via tRPC'];
    const made = await api.post(server, '/api/v2/secret-requests', { token, json: { title: names[0] } });
    expect((await api.post(server, `/api/v2/secret-requests/${made.body.url_token}/answer`, { json: { payload: 'the answer' } })).status).toBe(201);
    expect((await api.post(server, '/api/v2/pushes', { token, json: { push: { payload: 'x', name: names[1] } } })).status).toBe(201);
    expect((await api.post(server, '/trpc/pushes.create', { token, json: { payload: 'x', name: names[2] } })).status).toBe(200);

    // The owner reads them back, and the receiver gets them (opened for the delivery).
    const listed = (await api.get(server, '/api/v2/pushes/active', { token })).body.map((p: { name: string | null }) => p.name);
    expect(listed).toEqual(expect.arrayContaining(names));
    const sent = () => receiver.unique().map((d) => JSON.parse(d.body)).filter((b) => b.type === 'push.created').map((b) => b.data.name);
    await receiver.until(() => names.every((n) => sent().includes(n)));

    // What is stored (DATA_DIR's files, or every row of every table) holds none of them.
    expect(await storedContaining(server, 'Quokka-Zebra-7731')).toEqual([]);
  });

  it('tRPC makes, shows and answers a request', async () => {
    const made = await api.post(server, '/trpc/requests.create', { token, json: { title: 'over tRPC' } });
    const link = made.body.result.data.url_token;
    const shown = await api.get(server, `/trpc/requests.show?input=${encodeURIComponent(JSON.stringify({ url_token: link }))}`);
    expect(shown.body.result.data.title).toBe('over tRPC');
    const answered = await api.post(server, '/trpc/requests.answer', { json: { url_token: link, answer: { payload: 'via trpc' } } });
    expect(answered.body.result.data).toEqual({ answered: true });
    // Password Pusher's own requests path stays "not offered" for its clients.
    expect((await api.get(server, '/api/v2/requests', { token })).status).toBe(404);
  });

  it('the list pages, 50 a page newest first (REST ?page=, tRPC {page}), and the owner closes one over REST and tRPC', async () => {
    // An account of its own: the other tests' requests do not move the counts.
    const { user } = await server.server.accounts.ensureUser('pager@example.com');
    const { token: pager } = await server.server.accounts.createApiToken(user, 'paging');
    const titles = Array.from({ length: 52 }, (_, i) => `request ${String(i).padStart(2, '0')}`);
    for (const title of titles) expect((await api.post(server, '/api/v2/secret-requests', { token: pager, json: { title } })).status).toBe(201);
    const first = (await api.get(server, '/api/v2/secret-requests', { token: pager })).body as Array<{ title: string; url_token: string }>;
    const second = (await api.get(server, '/api/v2/secret-requests?page=2', { token: pager })).body as Array<{ title: string }>;
    expect(first).toHaveLength(50);
    expect(second.map((r) => r.title).sort()).toEqual(['request 00', 'request 01']);
    expect(new Set([...first, ...second].map((r) => r.title))).toEqual(new Set(titles));
    expect((await api.get(server, '/api/v2/secret-requests?page=3', { token: pager })).body).toEqual([]);
    const trpcPage = async (page?: number) => {
      const input = page === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ page }))}`;
      return (await api.get(server, `/trpc/requests.list${input}`, { token: pager })).body.result.data as Array<{ title: string }>;
    };
    expect((await trpcPage()).map((r) => r.title)).toEqual(first.map((r) => r.title));
    expect((await trpcPage(2)).map((r) => r.title).sort()).toEqual(['request 00', 'request 01']);
    // A bad page is a 400, never a 500.
    expect((await api.get(server, '/api/v2/secret-requests?page=0', { token: pager })).status).toBe(400);
    expect((await api.get(server, '/api/v2/secret-requests?page=abc', { token: pager })).status).toBe(400);
    expect((await api.get(server, `/trpc/requests.list?input=${encodeURIComponent(JSON.stringify({ page: 0 }))}`, { token: pager })).status).toBe(400);

    // Closing: REST DELETE and tRPC requests.close; the list says closed.
    const [a, b] = first;
    expect((await api.delete(server, `/api/v2/secret-requests/${a.url_token}`, { token: pager })).body.state).toBe('closed');
    const closed = await api.post(server, '/trpc/requests.close', { token: pager, json: { url_token: b.url_token } });
    expect(closed.body.result.data.state).toBe('closed');
    const after = (await api.get(server, '/api/v2/secret-requests', { token: pager })).body as Array<{ url_token: string; state: string }>;
    expect(after.filter((r) => r.state === 'closed').map((r) => r.url_token).sort()).toEqual([a.url_token, b.url_token].sort());
    // Someone else's token may not close it.
    expect((await api.post(server, '/trpc/requests.close', { token, json: { url_token: first[2].url_token } })).status).toBe(403);
  });
});
