import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { SlowReceiver, WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * Receivers that answer a byte at a time (every 100 ms, so the connection is never idle): one
 * endpoint's slowness holds up only its own deliveries, no attempt outlasts
 * WEBHOOK_TIMEOUT_SECONDS whatever trickles in, the status decides an attempt as soon as it
 * arrives, and stopping the server abandons attempts in flight, which are sent again (same
 * webhook-id) after a restart.
 */
const FAST = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_SECONDS: '0.05', WEBHOOK_POLL_SECONDS: '0.05' };

const servers: TestServer[] = [];
const receivers: { close(): Promise<void> }[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const r of receivers) await r.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function hook(server: TestServer, email: string, url: string) {
  const { token } = await createUserWithToken(server, email);
  const made = await api.post(server, '/api/v2/webhooks', { token, json: { url, events: ['push.created'] } });
  expect(made.status).toBe(201);
  return token;
}

async function deliveries(server: TestServer, token: string) {
  return (await api.get(server, '/api/v2/webhooks/deliveries', { token })).body as { id: string; state: string; attempts: number; last_status: number | null; last_error: string | null }[];
}

describe('slow webhook receivers', () => {
  it("one endpoint trickling its answer does not hold up another account's deliveries; stopping abandons it, and it is sent again after a restart", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-slow-hook-'));
    dirs.push(dataDir);
    const slow = await SlowReceiver.start('trickle-status');
    const fast = await WebhookReceiver.start();
    receivers.push(slow, fast);
    // A deadline far beyond the test: only independence lets the other delivery through.
    const server = await startServer({ ...FAST, DATA_DIR: dataDir, WEBHOOK_TIMEOUT_SECONDS: '120' });
    const slowToken = await hook(server, 'slow-endpoint@example.com', slow.url);
    const fastToken = await hook(server, 'fast-endpoint@example.com', fast.url);

    await createPush(server, { payload: 'a' }, slowToken);
    await slow.until(() => slow.requests.length === 1);
    await createPush(server, { payload: 'b' }, fastToken);
    await fast.until(() => fast.unique().length === 1);
    expect([slow.open, slow.requests[0]!.closedBySender]).toEqual([1, false]);

    // Stopping abandons the attempt in flight: it ends while the receiver is still trickling.
    const stopping = Date.now();
    await server.close();
    const stoppedMs = Date.now() - stopping;
    await slow.until(() => slow.requests[0]!.closedBySender);
    console.log(`stop with an attempt in flight to a trickling receiver: ${stoppedMs} ms`);

    slow.answer = 'answer';
    const again = await startServer({ ...FAST, DATA_DIR: dataDir, WEBHOOK_TIMEOUT_SECONDS: '120' });
    servers.push(again);
    await slow.until(() => slow.requests.length === 2);
    // The same event, with the same webhook-id, recorded as delivered; the abandoned try is not counted as a failure.
    expect(slow.requests[1]!.id).toBe(slow.requests[0]!.id);
    await vi.waitFor(async () => expect((await deliveries(again, slowToken)).map((d) => [d.id, d.state, d.attempts, d.last_status])).toEqual([[slow.requests[0]!.id, 'delivered', 1, 200]]), {
      timeout: 10_000,
      interval: 25,
    });
  });

  it('an answer trickling in never holds an attempt past WEBHOOK_TIMEOUT_SECONDS: it fails, and is retried', async () => {
    const slow = await SlowReceiver.start('trickle-status');
    receivers.push(slow);
    const server = await startServer({ ...FAST, WEBHOOK_TIMEOUT_SECONDS: '1', WEBHOOK_RETRY_BASE_SECONDS: '3600' });
    servers.push(server);
    const token = await hook(server, 'deadline@example.com', slow.url);
    await createPush(server, { payload: 'x' }, token);
    await vi.waitFor(async () => expect((await deliveries(server, token)).map((d) => [d.state, d.attempts, d.last_error])).toEqual([['pending', 1, 'no answer within 1 s']]), {
      timeout: 10_000,
      interval: 25,
    });
    // The sender gave up: the receiver, still trickling, saw its connection closed.
    await slow.until(() => slow.requests[0]?.closedBySender === true);
  });

  it('the status decides as soon as it arrives: a 200 whose body trickles is delivered while it trickles', async () => {
    const slow = await SlowReceiver.start('trickle-body');
    receivers.push(slow);
    const server = await startServer({ ...FAST, WEBHOOK_TIMEOUT_SECONDS: '120' });
    servers.push(server);
    const token = await hook(server, 'slow-body@example.com', slow.url);
    await createPush(server, { payload: 'x' }, token);
    await vi.waitFor(async () => expect((await deliveries(server, token)).map((d) => [d.state, d.last_status])).toEqual([['delivered', 200]]), { timeout: 10_000, interval: 25 });
    expect(slow.requests).toHaveLength(1);
    expect(slow.requests[0]!.closedBySender).toBe(false);
  });
});
