import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { isForbiddenAddress } from '../../../server/webhooks/ssrf-guard.js';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * Server-side request forgery: webhook targets on loopback, private, link-local, unique-local
 * and reserved addresses (or names resolving to them, or IPv6 forms embedding them) are refused
 * when registered, and again when a delivery connects, unless WEBHOOK_ALLOW_PRIVATE=true.
 */
describe('which addresses a webhook may not reach', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'fc00::abcd', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1', '64:ff9b::a00:1', 'fe80::1%eth0', 'not-an-ip',
  ])('refuses %s', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])('allows %s', (address) =>
    expect(isForbiddenAddress(address)).toBe(false),
  );
});

describe('SSRF guard over HTTP', () => {
  const servers: TestServer[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('refuses private targets at registration, literal or by name, naming the address', async () => {
    const server = await startServer();
    servers.push(server);
    const { token } = await createUserWithToken(server, 'ssrf@example.com');
    for (const url of ['http://127.0.0.1:8080/x', 'http://[::1]/', 'http://169.254.169.254/latest/meta-data', 'http://10.0.0.7/', 'http://[::ffff:127.0.0.1]/', 'https://[fd12::1]/', 'http://localhost/hook']) {
      const res = await api.post(server, '/api/v2/webhooks', { token, json: { url } });
      expect([url, res.status]).toEqual([url, 422]);
      expect(res.body.url[0]).toMatch(/^is not allowed: .* resolves to .*loopback, private, link-local or reserved/);
    }
    // A public literal is accepted (no connection is made to register it).
    expect((await api.post(server, '/api/v2/webhooks', { token, json: { url: 'https://93.184.216.34/hook', events: ['request.answered'] } })).status).toBe(201);
  });

  it('checks again at delivery time: a loopback target saved while allowed is refused once it is not', async () => {
    const receiver = await WebhookReceiver.start();
    const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-ssrf-'));
    dirs.push(dataDir);
    const allowed = await startServer({ DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_SECONDS: '3600' });
    const { token } = await createUserWithToken(allowed, 'rebind@example.com');
    expect((await api.post(allowed, '/api/v2/webhooks', { token, json: { url: receiver.url.replace('127.0.0.1', 'localhost') } })).status).toBe(201);
    await allowed.close();

    const guarded = await startServer({ DATA_DIR: dataDir, WEBHOOK_POLL_SECONDS: '0.05', WEBHOOK_RETRY_BASE_SECONDS: '3600' });
    servers.push(guarded);
    await createPush(guarded, { payload: 'x' }, token);
    await vi.waitFor(
      async () => {
        const [d] = (await api.get(guarded, '/api/v2/webhooks/deliveries', { token })).body;
        expect(d).toMatchObject({ type: 'push.created', state: 'pending', attempts: 1, last_status: null });
        expect(d.last_error).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a loopback/);
      },
      { timeout: 10_000, interval: 25 },
    );
    expect(receiver.received).toEqual([]);
    await receiver.close();
  });
});
