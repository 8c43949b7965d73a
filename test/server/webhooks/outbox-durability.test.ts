import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { storeEnv } from '../../support/server.js';
import { spawnBuilt, spawnBuiltServer, type SpawnedServer } from '../../support/spawn-server.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * The outbox is written with the event: events queued by a server killed with SIGKILL before it
 * delivered anything are delivered, each once, by the restarted server. The first server polls
 * its outbox only hourly, so nothing leaves it before the kill.
 */
const dirs: string[] = [];
const children: SpawnedServer[] = [];
let receiver: WebhookReceiver | undefined;
afterAll(async () => {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await Promise.all(children.map((c) => c.exited));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await receiver?.close();
});

describe('webhook outbox across kill -9', () => {
  // A CLI and two server processes: 30 s was too little with the suite loading the machine.
  it('delivers events queued before the kill once the server restarts, each once', { timeout: 90_000 }, async () => {
    receiver = await WebhookReceiver.start();
    const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-outbox-'));
    dirs.push(dataDir);
    const base = { DATA_DIR: dataDir, MASTER_KEY: 'b8'.repeat(32), LOG_LEVEL: 'error', WEBHOOK_ALLOW_PRIVATE: 'true', EXPIRY_SWEEP_SECONDS: '3600' };
    const env = { ...base, ...(await storeEnv(dataDir, base)) };

    const cli = await spawnBuilt('server/cli/users.js', ['create', 'outbox@example.com'], env);
    expect(await cli.exited, cli.output()).toBe(0);
    const token = cli.output().trim().split('\n').pop()!;

    const first = await spawnBuiltServer({ ...env, WEBHOOK_POLL_SECONDS: '3600' });
    children.push(first);
    const hook = await api.post(first.url, '/api/v2/webhooks', { token, json: { url: receiver.url } });
    expect(hook.status).toBe(201);
    receiver.secret = hook.body.secret;
    const push = await api.post(first.url, '/api/v2/pushes', { token, json: { push: { payload: 'queued', expire_after_views: 1 } } });
    expect(push.status).toBe(201);
    expect((await api.get(first.url, `/api/v2/pushes/${push.body.url_token}`)).body.payload).toBe('queued');

    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    expect(receiver.received).toEqual([]);

    const second = await spawnBuiltServer({ ...env, WEBHOOK_POLL_SECONDS: '0.05', WEBHOOK_RETRY_BASE_SECONDS: '0.05' });
    children.push(second);
    const types = () => receiver!.unique().map((d) => JSON.parse(d.body).type as string).sort();
    await receiver.until(() => types().length === 3);
    expect(types()).toEqual(['push.created', 'push.expired', 'push.viewed']);
    expect(receiver.received.every((d) => d.verified)).toBe(true);
    expect(new Set(receiver.received.map((d) => d.id)).size).toBe(receiver.received.length);
    second.child.kill('SIGTERM');
    await second.exited;
  });
});
