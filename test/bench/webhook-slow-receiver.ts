import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api } from '../support/http.js';
import { spawnServer, spawnTs } from '../support/spawn-server.js';
import { SlowReceiver, WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Measures what one receiver trickling its answer (a byte a second, as issue 28's review did)
 * costs everyone else: how long another account's delivery waits, and how long SIGTERM takes
 * with the attempt in flight. `node --import tsx test/bench/webhook-slow-receiver.ts`
 * (WEBHOOK_TIMEOUT_SECONDS=10 as in the review; gives up waiting after 70 s).
 */
const slow = await SlowReceiver.start('trickle-status', 1000);
const fast = await WebhookReceiver.start();
const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-bench-hooks-'));
const env = { DATA_DIR: dataDir, MASTER_KEY: 'c3'.repeat(32), LOG_LEVEL: 'error', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_SECONDS: '0.1', WEBHOOK_TIMEOUT_SECONDS: '10' };
const token = async (email: string) => {
  const cli = spawnTs('server/cli/users.ts', ['create', email], env);
  await cli.exited;
  return cli.output().trim().split('\n').pop()!;
};
const [slowToken, fastToken] = [await token('slow@example.com'), await token('fast@example.com')];
const server = await spawnServer(env);
await api.post(server.url, '/api/v2/webhooks', { token: slowToken, json: { url: slow.url, events: ['push.created'] } });
await api.post(server.url, '/api/v2/webhooks', { token: fastToken, json: { url: fast.url, events: ['push.created'] } });
await api.post(server.url, '/api/v2/pushes', { token: slowToken, json: { push: { payload: 'a' } } });
await slow.until(() => slow.requests.length === 1);
const created = Date.now();
await api.post(server.url, '/api/v2/pushes', { token: fastToken, json: { push: { payload: 'b' } } });
const within = (ms: number) => new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref());
const arrived = await Promise.race([fast.until(() => fast.received.length === 1).then(() => true), within(70_000)]);
console.log(`other account's delivery: ${arrived ? `${Date.now() - created} ms after its push` : 'not within 70 s'}`);
await slow.until(() => slow.requests.length >= 1);
const signalled = Date.now();
server.child.kill('SIGTERM');
const exited = await Promise.race([server.exited.then(() => true), within(70_000)]);
console.log(`SIGTERM with the slow attempt in flight: ${exited ? `exited after ${Date.now() - signalled} ms` : 'still running after 70 s'}`);
if (!exited) server.child.kill('SIGKILL');
await Promise.all([slow.close(), fast.close()]);
rmSync(dataDir, { recursive: true, force: true });
