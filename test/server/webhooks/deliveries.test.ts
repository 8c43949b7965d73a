import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';
import { Browser } from '../pages/browser.js';

/**
 * Webhook deliveries through a real server to a receiver on loopback (WEBHOOK_ALLOW_PRIVATE=true):
 * signed as Standard Webhooks (verified by the official library), retried after failures with the
 * same webhook-id, each event received once after de-duplication, no secret in any body, and the
 * last status on the account's list and page. Back-off and polling are made small by env.
 */
const FAST = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_SECONDS: '0.05', WEBHOOK_POLL_SECONDS: '0.05', PASSPHRASE_ATTEMPTS_PER_MINUTE: '100' };

describe('webhook deliveries', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let token: string;
  beforeAll(async () => {
    server = await startServer(FAST);
    // Every delivery fails twice (500), then is accepted.
    receiver = await WebhookReceiver.start((_id, attempt) => (attempt <= 2 ? 500 : 200));
    ({ token } = await createUserWithToken(server, 'hooks@example.com'));
  });
  afterAll(async () => {
    await server.stop();
    await receiver.close();
  });

  it('signs, retries after two 500s, delivers each event once after de-duplication, and carries no secret', async () => {
    const made = await api.post(server, '/api/v2/webhooks', { token, json: { url: receiver.url } });
    expect(made.status).toBe(201);
    expect(made.body.secret).toMatch(/^whsec_/);
    expect(made.body.events).toEqual(['push.created', 'push.viewed', 'push.expired', 'push.passphrase_failed', 'request.answered']);
    receiver.secret = made.body.secret;

    const push = await createPush(server, { payload: 'the payload 4711', passphrase: 'pp', expire_after_views: 1, name: 'for Bob' }, token);
    expect((await api.get(server, `/api/v2/pushes/${push.url_token}?passphrase=wrong`)).status).toBe(401);
    expect((await api.get(server, `/api/v2/pushes/${push.url_token}?passphrase=pp`)).body.payload).toBe('the payload 4711');
    // An anonymous push has no account and so no webhook.
    await createPush(server, { payload: 'anonymous' });

    const types = () => receiver.unique().map((d) => JSON.parse(d.body).type as string).sort();
    await receiver.until(() => types().length === 4);
    expect(types()).toEqual(['push.created', 'push.expired', 'push.passphrase_failed', 'push.viewed']);

    for (const d of receiver.received) {
      expect(d.verified, `signature of ${d.id}`).toBe(true);
      expect(d.body).not.toContain('the payload 4711');
      expect(d.body).not.toContain(push.url_token);
      expect(d.headers['content-type']).toBe('application/json');
    }
    // Each id was tried three times: two 500s, then the 200; the same id each time.
    const attempts = new Map<string, number[]>();
    for (const d of receiver.received) attempts.set(d.id, [...(attempts.get(d.id) ?? []), d.status]);
    expect([...attempts.values()]).toEqual(Array(4).fill([500, 500, 200]));

    const viewed = receiver.unique().map((d) => JSON.parse(d.body)).find((b) => b.type === 'push.viewed');
    expect(viewed.data).toMatchObject({ push_id: push.push_id, name: 'for Bob', kind: 'text', views_remaining: 0, failed_passphrase_attempts: 1 });
    expect(viewed.data.first_viewed_at).not.toBeNull();
    // The README shows the data as it is sent.
    const keys = Object.keys(viewed.data).map((k) => `"${k}"`).join(', ');
    expect(readFileSync('README.md', 'utf8')).toContain(`A push event's data is\n\`{${keys}}\``);

    // The last status, on the list, once the worker has recorded the receiver's answers.
    await vi.waitFor(
      async () => {
        const deliveries = (await api.get(server, '/api/v2/webhooks/deliveries', { token })).body;
        expect(deliveries.map((d: any) => [d.state, d.attempts, d.last_status])).toEqual(Array(4).fill(['delivered', 3, 200]));
      },
      { timeout: 10_000, interval: 25 },
    );
    const listed = (await api.get(server, '/api/v2/webhooks', { token })).body;
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('secret');
    expect(listed[0].last_delivery).toMatchObject({ state: 'delivered', last_status: 200, attempts: 3 });
  });

  it('the account page adds, lists with the last status, and removes a webhook; the secret is shown once', async () => {
    const b = new Browser(server);
    await b.signUp('page-hooks@example.com');
    expect((await b.get('/users/webhooks')).status).toBe(200);
    const added = await b.submit('/users/webhooks', '/users/webhooks', { url: receiver.url, events: 'push.created' });
    expect(added.status).toBe(200);
    const secret = /<code id="webhook-secret">(whsec_[^<]+)<\/code>/.exec(added.text)?.[1];
    expect(secret).toMatch(/^whsec_/);
    const listed = await b.get('/users/webhooks');
    expect(listed.text).toContain(receiver.url);
    expect(listed.text).not.toContain(secret!);
    expect(listed.text).toContain('none yet');
    const id = /data-webhook="([^"]+)"/.exec(listed.text)![1]!;
    const removed = await b.submit('/users/webhooks', '/users/webhooks/remove', { id });
    expect(removed.status).toBe(303);
    expect((await b.get('/users/webhooks')).text).toContain('You have no webhooks yet.');
  });

  it('bad registrations: 401 without an account, 422 naming the field otherwise', async () => {
    expect((await api.post(server, '/api/v2/webhooks', { json: { url: receiver.url } })).status).toBe(401);
    const cases: [unknown, string][] = [
      [{ url: 'ftp://example.com/' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'http://user:pw@127.0.0.1/' }, 'url'],
      [{ url: receiver.url, events: ['push.exploded'] }, 'events'],
      [{ url: receiver.url, events: [] }, 'events'],
      [{ url: receiver.url, secret: 'plain' }, 'secret'],
    ];
    for (const [body, field] of cases) {
      const res = await api.post(server, '/api/v2/webhooks', { token, json: body });
      expect([JSON.stringify(body), res.status, Object.keys(res.body)]).toEqual([JSON.stringify(body), 422, [field]]);
    }
    expect((await api.post(server, '/api/v2/webhooks', { token, raw: '{', contentType: 'application/json' })).status).toBe(400);
    expect((await api.delete(server, '/api/v2/webhooks/wh_nope', { token })).status).toBe(404);
  });

  it('tRPC registers, lists and removes', async () => {
    const made = await api.post(server, '/trpc/webhooks.create', { token, json: { url: receiver.url, events: ['push.expired'] } });
    expect(made.status).toBe(200);
    const id = made.body.result.data.id;
    const list = await api.get(server, '/trpc/webhooks.list', { token });
    expect(list.body.result.data.map((w: any) => w.id)).toContain(id);
    const removed = await api.post(server, '/trpc/webhooks.remove', { token, json: { id } });
    expect(removed.body.result.data).toEqual({ removed: true });
  });
});

describe('webhook deliveries: giving up', () => {
  it('a delivery still failing after WEBHOOK_RETRY_FOR_HOURS is given up, and the page says so', async () => {
    const server = await startServer({ ...FAST, WEBHOOK_RETRY_FOR_HOURS: '0' });
    const receiver = await WebhookReceiver.start(() => 500);
    try {
      const b = new Browser(server);
      await b.signUp('give-up@example.com');
      const { user } = await server.server.accounts.ensureUser('give-up@example.com');
      const { token } = await server.server.accounts.createApiToken(user, 't');
      await api.post(server, '/api/v2/webhooks', { token, json: { url: receiver.url, events: ['push.created'] } });
      await createPush(server, { payload: 'x' }, token);
      await vi.waitFor(
        async () => {
          const [d] = (await api.get(server, '/api/v2/webhooks/deliveries', { token })).body;
          expect(d).toMatchObject({ state: 'failed', attempts: 1, last_status: 500, last_error: 'HTTP 500', next_attempt_at: null });
        },
        { timeout: 10_000, interval: 25 },
      );
      expect(receiver.received).toHaveLength(1);
      const page = (await b.get('/users/webhooks')).text;
      expect(page).toContain('Push created · given up · HTTP 500');
    } finally {
      await server.stop();
      await receiver.close();
    }
  });
});
