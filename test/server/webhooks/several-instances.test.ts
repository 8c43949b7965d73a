import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../support/http.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * Three servers on one PostgreSQL database, each polling the shared outbox every 20 ms: each
 * delivery is leased by one instance at a time, so a receiver that accepts at once gets every
 * event exactly once, whichever instance recorded it and whichever sent it.
 */
describe('webhook deliveries with several instances on PostgreSQL', () => {
  let db: TestDatabase | undefined;
  const servers: TestServer[] = [];
  let receiver: WebhookReceiver | undefined;
  afterAll(async () => {
    for (const s of servers) await s.close();
    await receiver?.close();
    await db?.drop();
  });

  it('sends each event once', async () => {
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, MASTER_KEY: randomBytes(32).toString('hex'), WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_SECONDS: '0.02', LOG_LEVEL: 'error' };
    for (let i = 0; i < 3; i++) servers.push(await startServer(env));
    receiver = await WebhookReceiver.start();
    const { token } = await createUserWithToken(servers[0]!, 'fleet@example.com');
    const hook = await api.post(servers[1]!, '/api/v2/webhooks', { token, json: { url: receiver.url, events: ['push.created'] } });
    receiver.secret = hook.body.secret;
    const created = await Promise.all(Array.from({ length: 30 }, (_, i) => api.post(servers[i % 3]!, '/api/v2/pushes', { token, json: { push: { payload: `p${i}`, name: `n${i}` } } })));
    expect(created.every((c) => c.status === 201)).toBe(true);
    await receiver.until(() => receiver!.unique().length === 30);
    // Once every outcome is recorded, nothing is left that any instance could still be sending.
    await vi.waitFor(
      async () => {
        const deliveries = (await api.get(servers[2]!, '/api/v2/webhooks/deliveries', { token })).body;
        expect(deliveries.filter((d: { state: string }) => d.state === 'delivered')).toHaveLength(30);
      },
      { timeout: 10_000, interval: 25 },
    );
    // Every request the receiver got was a distinct delivery: no instance sent one another was sending.
    expect(receiver.received).toHaveLength(30);
    expect(new Set(receiver.received.map((d) => JSON.parse(d.body).data.name)).size).toBe(30);
    expect(receiver.received.every((d) => d.verified)).toBe(true);
  });
});
