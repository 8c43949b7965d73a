import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * Issue 35: "a batch emits one event per push". A batch of rows made through the API reaches the
 * owner's webhook as one signed push.created per row, each naming its own push and row label,
 * and none carrying a row's secret or link.
 */
const FAST = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_SECONDS: '0.05', WEBHOOK_POLL_SECONDS: '0.05' };

describe('webhooks for a batch', () => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    server = await startServer(FAST);
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await server.stop();
    await receiver.close();
  });

  it('one push.created per row, each its own push and label, no secret or link in any body', async () => {
    // A fresh account per try: a retry must not count the first try's events.
    const { token } = await createUserWithToken(server, `batch-hooks-${Date.now()}@example.com`);
    const hook = await api.post(server, '/api/v2/webhooks', { token, json: { url: receiver.url } });
    expect(hook.status).toBe(201);
    receiver.secret = hook.body.secret;
    const seen = receiver.received.length;

    const rows = ['Ann', 'Bob', 'Cleo', 'Dev'].map((name, i) => ({ name, payload: `row secret ${i} 5813` }));
    const made = await api.post(server, '/api/v2/pushes/batch', { token, json: { push: { expire_after_views: 1 }, recipients: rows } });
    expect(made.status).toBe(201);
    const links = JSON.stringify(made.body).match(/\/p\/[\w-]+/g) ?? [];
    expect(links).toHaveLength(rows.length);

    const created = () => receiver.unique().filter((d) => receiver.received.indexOf(d) >= seen).map((d) => JSON.parse(d.body));
    await receiver.until(() => created().length >= rows.length);
    const events = created();
    expect(events.map((e) => e.type)).toEqual(Array(rows.length).fill('push.created'));
    expect(events.map((e) => e.data.name).sort()).toEqual(['Ann', 'Bob', 'Cleo', 'Dev']);
    expect(new Set(events.map((e) => e.data.push_id)).size).toBe(rows.length);
    for (const d of receiver.received.slice(seen)) {
      expect(d.verified).toBe(true);
      expect(d.body).not.toMatch(/row secret \d 5813/);
      for (const link of links) expect(d.body).not.toContain(link);
    }
  });
});
