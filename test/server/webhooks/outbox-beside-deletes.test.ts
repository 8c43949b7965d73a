import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { createUserWithToken, startServer, testStore, type TestServer } from '../../support/server.js';

/**
 * A push made while one of its account's webhooks is removed: the push is stored and answered
 * 201 whichever happens first; its outbox has a delivery for each webhook that still exists, and
 * none for one that is gone. Issue 28: on PostgreSQL the outbox insert could pick a webhook whose
 * delete committed before the insert's foreign-key check (webhook_deliveries_webhook_id_fkey):
 * 12 of 320 creates answered 500 and their pushes were not stored. On the embedded store such a
 * delivery was kept for a webhook already removed, pending for ever.
 */
const ROUNDS = 8;
const CREATES_PER_ROUND = 40;

describe(`pushes created beside webhook deletes (${testStore})`, () => {
  let server: TestServer;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    // The worker never polls during the test: the deliveries stay as the creates wrote them.
    server = await startServer({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_SECONDS: '3600' });
    ({ token, userId } = await createUserWithToken(server, 'outbox-race@example.com'));
  });
  afterAll(() => server.stop());

  it('every create is 201 and stored, and no delivery outlives its webhook', async () => {
    const failures: string[] = [];
    const made: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const hooks: string[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await api.post(server, '/api/v2/webhooks', { token, json: { url: `http://127.0.0.1:9/r${round}h${i}`, events: ['push.created'] } });
        expect(res.status).toBe(201);
        hooks.push(res.body.id);
      }
      // The creates and the deletes interleaved: a delete after every few creates.
      const creates = Array.from({ length: CREATES_PER_ROUND }, async (_, i) => {
        const res = await api.post(server, '/api/v2/pushes', { token, json: { push: { payload: `race ${round}.${i}` } } });
        if (res.status === 201) made.push(res.body.url_token);
        else failures.push(`${res.status} ${res.text.slice(0, 200)}`);
      });
      const deletes = hooks.map(async (id, i) => {
        await new Promise((resolve) => setImmediate(resolve));
        for (let k = 0; k < i; k++) await new Promise((resolve) => setImmediate(resolve));
        const res = await api.delete(server, `/api/v2/webhooks/${id}`, { token });
        expect(res.status).toBe(204);
      });
      await Promise.all([...creates, ...deletes]);
    }
    expect(failures).toEqual([]);
    expect(made).toHaveLength(ROUNDS * CREATES_PER_ROUND);
    // Every push is stored (its owner reads its preview).
    for (const urlToken of made) expect((await api.get(server, `/api/v2/pushes/${urlToken}/preview`, { token })).status).toBe(200);
    // Every webhook is gone, and so is every delivery to one.
    expect(await server.server.store.listWebhooks(userId)).toEqual([]);
    expect(await server.server.store.listDeliveries(userId, 10_000)).toEqual([]);
  });
});
