import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../support/http.js';
import { storeEnv, testStore, type TestServer } from '../../support/server.js';
import { SmtpReceiver } from '../../support/smtp-receiver.js';
import { spawnBuiltServer, type SpawnedServer } from '../../support/spawn-server.js';
import { Browser } from '../pages/browser.js';

/** The mail outbox across process deaths and instances: real server processes, a real SMTP server. */
describe('mail outbox durability', () => {
  let smtp: SmtpReceiver;
  let dataDir: string;
  const running: SpawnedServer[] = [];

  beforeAll(async () => {
    smtp = await SmtpReceiver.start();
    dataDir = mkdtempSync(join(tmpdir(), 'mail-durability-'));
  });
  afterAll(async () => {
    for (const s of running) {
      s.child.kill('SIGTERM');
      await s.exited;
    }
    await smtp?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const env = async () => ({
    DATA_DIR: dataDir,
    ...(await storeEnv(dataDir)),
    ...smtp.serverEnv(),
    MAIL_RETRY_BASE_SECONDS: '0.05',
    // A mail claimed by the instance killed is free again after 3 × this + 5 s (its lease).
    MAIL_SMTP_TIMEOUT_SECONDS: '2',
    SIGN_UPS_PER_IP_PER_HOUR: '1000',
    TRUST_PROXY: 'true',
  });
  const start = async () => {
    const s = await spawnBuiltServer(await env());
    running.push(s);
    return s;
  };
  const browser = (s: SpawnedServer) => new Browser({ url: s.url } as TestServer);

  it('a confirmation queued before kill -9, with SMTP down, is sent after the restart', async () => {
    await smtp.down();
    const first = await start();
    const email = `killed-${Date.now()}@example.test`;
    const answered = await browser(first).submit('/users/sign_up', '/users/sign_up', { email, password: 'correct horse battery' });
    expect(answered.status).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;
    running.splice(running.indexOf(first), 1);
    await smtp.up();
    await start();
    await waitFor(() => smtp.received.some((m) => m.to.includes(email)), 30_000, 'the confirmation after restart');
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(1);
    expect(smtp.received.find((m) => m.to.includes(email))!.parsed.text).toContain('/users/confirm/');
  });

  it.runIf(testStore === 'postgres')('three instances on PostgreSQL send each of 60 mails exactly once', async () => {
    const instances = [await start(), await start(), await start()];
    const before = smtp.received.length;
    const addresses = Array.from({ length: 60 }, (_, i) => `three-${Date.now()}-${i}@example.test`);
    await Promise.all(
      addresses.map((email, i) => browser(instances[i % 3]!).submit('/users/password/forgot', '/users/password/forgot', { email }, { 'x-forwarded-for': `192.0.2.${i}` })),
    );
    const distinct = () => new Set(smtp.received.slice(before).flatMap((m) => m.to)).size;
    await waitFor(() => distinct() >= 60, 60_000, '60 different recipients');
    // When the last distinct one arrives, none has come twice (each claimed by one instance under its lease).
    const got = smtp.received.slice(before).flatMap((m) => m.to);
    expect(got.sort()).toEqual([...addresses].sort());
  });
});
