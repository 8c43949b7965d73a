import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDecryptStream, encryptBytes } from '../../../shared/e2e/envelope-crypto.js';
import { newPushKey } from '../../../shared/e2e/link-key.js';
import { encryptManifestPayload } from '../../../shared/e2e/push-content.js';
import { api, createPush, request } from '../../support/http.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { createUserWithToken, startServer } from '../../support/server.js';
import { spawnBuilt } from '../../support/spawn-server.js';
import { SmtpReceiver } from '../../support/smtp-receiver.js';
import { waitFor } from '../../support/http.js';
import { Browser } from '../pages/browser.js';
import pg from 'pg';

/**
 * `npm run store:migrate`: an embedded store, filled through the real API, is copied into
 * PostgreSQL; a server on PostgreSQL with the same key then serves everything as before.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-migrate-'));
let db: TestDatabase;
const made: { owner: string; text: string; guarded: string; file: string; fileBytes: Buffer; expired: string; request: string } = {} as never;
/** A sliced upload in progress at the move: one of its two slices stored. */
const SLICE = 8 * 1_048_576;
const slicedPlain = Buffer.alloc(9 * 1_048_576, 5);
const sliced: { key: Uint8Array; envelope: Buffer; upload: string } = {} as never;
const putSlice = (s: Parameters<typeof request>[0], at: number) =>
  request(s, 'PUT', `/api/v2/uploads/${sliced.upload}/files/0?offset=${at}`, { token: made.owner, raw: sliced.envelope.subarray(at, at + SLICE), contentType: 'application/octet-stream' });

const migrate = async (to: string, env: Record<string, string> = {}) => {
  const p = await spawnBuilt('server/cli/store-migrate.js', ['--from', dataDir, '--to', to], env);
  return { code: await p.exited, out: p.output() };
};

beforeAll(async () => {
  db = await createTestDatabase();
  // No webhook delivery is attempted (the endpoint is a public address this test cannot reach).
  const smtp = await SmtpReceiver.start();
  const s = await startServer({ ...smtp.serverEnv(), DATA_DIR: dataDir, WEBHOOK_POLL_SECONDS: '3600', ADMIN_EMAILS: 'mover@example.com' });
  try {
    made.owner = (await createUserWithToken(s, 'mover@example.com')).token;
    // The mail outbox in its three states: sent (the account's), given up (5xx), pending (SMTP down).
    const forgot = (email: string) => new Browser(s).submit('/users/password/forgot', '/users/password/forgot', { email });
    await forgot('mover@example.com');
    await waitFor(() => smtp.received.length === 1, 20_000, 'the reset mail');
    smtp.replies.push('5xx');
    await forgot('refused@example.test');
    await waitFor(() => s.logs.some((l) => l.includes('given up after 1 attempt')), 20_000, 'the 5xx given up');
    await smtp.down();
    await forgot('pending@example.test');
    expect((await api.post(s, '/api/v2/webhooks', { token: made.owner, json: { url: 'https://93.184.216.34/hook', events: ['push.expired'] } })).status).toBe(201);
    // An administrator's action: an invite, and its admin-log entry.
    expect((await api.post(s, '/api/v2/admin/invites', { token: made.owner, json: { email: 'next@example.com' } })).status).toBe(201);
    made.request = (await api.post(s, '/api/v2/secret-requests', { token: made.owner, json: { title: 'moved request' } })).body.url_token;
    made.text = (await createPush(s, { payload: 'plain secret ✓', expire_after_views: 5 }, made.owner)).url_token;
    made.guarded = (await createPush(s, { payload: 'guarded secret', passphrase: 'open sesame', expire_after_views: 5 }, made.owner)).url_token;
    made.fileBytes = randomBytes(600_000);
    const fd = new FormData();
    fd.append('push[files][]', new Blob([new Uint8Array(made.fileBytes)]), 'report.bin');
    made.file = (await api.post(s, '/api/v2/pushes', { token: made.owner, raw: fd })).body.url_token;
    made.expired = (await createPush(s, { payload: 'gone', expire_after_views: 1 }, made.owner)).url_token;
    await api.get(s, `/api/v2/pushes/${made.expired}`);
    await api.get(s, `/api/v2/pushes/${made.expired}`);
    expect((await api.post(s, `/api/v2/secret-requests/${made.request}/answer`, { json: { payload: 'answered before the move' } })).status).toBe(201);
    sliced.key = newPushKey();
    sliced.envelope = Buffer.from(await encryptBytes(sliced.key, 'file', slicedPlain));
    const slicedPush = { kind: 'file', end_to_end: true, payload: await encryptManifestPayload(sliced.key, { message: '', files: [{ name: 'big.bin', type: '', size: slicedPlain.length }] }) };
    const started = await api.post(s, '/api/v2/uploads', { token: made.owner, json: { push: slicedPush, files: [{ size: sliced.envelope.length }] } });
    expect(started.status).toBe(201);
    sliced.upload = started.body.upload;
    expect((await putSlice(s, 0)).status).toBe(200);
  } finally {
    await s.close();
    await smtp.stop();
  }
}, 60_000);

afterAll(async () => {
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

// Each test spawns the CLI (the run's build) and servers one after another: past vitest's 30 s when
// the shared machine is loaded (load average 37 measured at a run that timed out there).
describe('npm run store:migrate', { timeout: 120_000 }, () => {
  it('copies, verifies, can run again, and a PostgreSQL server with the same key serves it all', async () => {
    const first = await migrate(db.url);
    expect(first.out).toContain('Copied 5 pushes');
    expect(first.out).toMatch(/1 files, \d+ bytes\), 1 accounts, 1 API tokens, 0 sessions, 1 webhooks \(1 deliveries\), 1 secret requests, 1 admin-log entries, 1 invites, 3 mails/);
    // The upload's record and its first slice's segment, under two storage ids without a push.
    expect(first.out).toMatch(/Copied 2 blobs \(\d+ bytes\) of 2 storage ids without a push yet \(sliced uploads in progress\), each verified by SHA-256; 0 were already there/);
    expect(first.out).toContain('Verified: all 5 pushes');
    expect(first.code).toBe(0);

    const again = await migrate(db.url);
    expect(again.code).toBe(0);
    expect(again.out).toContain('Copied 0 pushes');
    expect(again.out).toContain('5 pushes were already there');
    expect(again.out).toContain('0 admin-log entries, 0 invites, 0 mails');
    expect(again.out).toContain('Copied 0 blobs (0 bytes) of 2 storage ids without a push yet (sliced uploads in progress), each verified by SHA-256; 2 were already there');
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const { rows } = await c.query(`SELECT kind, state, user_id IS NOT NULL AS of_account, last_error FROM mail_outbox ORDER BY seq`);
      expect(rows).toMatchObject([
        { kind: 'password-reset', state: 'sent', of_account: true },
        { state: 'failed', of_account: false, last_error: expect.stringContaining('550') },
        { state: 'pending', of_account: false },
      ]);
    } finally {
      await c.end();
    }

    const masterKey = readFileSync(join(dataDir, 'master.key'), 'utf8').trim();
    const s = await startServer({ DATABASE_URL: db.url, MASTER_KEY: masterKey, WEBHOOK_POLL_SECONDS: '3600' });
    try {
      expect((await api.get(s, `/api/v2/pushes/${made.text}`)).body.payload).toBe('plain secret ✓');
      expect((await api.get(s, `/api/v2/pushes/${made.guarded}?passphrase=wrong`)).status).toBe(401);
      expect((await api.get(s, `/api/v2/pushes/${made.guarded}?passphrase=open%20sesame`)).body.payload).toBe('guarded secret');
      const file = (await api.get(s, `/api/v2/pushes/${made.file}`)).body.files[0];
      expect(file.filename).toBe('report.bin');
      expect(Buffer.from(await (await fetch(file.url)).arrayBuffer()).equals(made.fileBytes)).toBe(true);
      expect((await api.get(s, `/api/v2/pushes/${made.expired}`)).body).toMatchObject({ expired: true, payload: null });
      // The owner's API token still works, and the audit trails came along whole.
      const logs = (await api.get(s, `/api/v2/pushes/${made.expired}/audit`, { token: made.owner })).body.logs.map((l: any) => l.kind);
      expect(logs).toEqual(['creation', 'view', 'failed_view', 'failed_view']);
      expect((await api.get(s, '/api/v2/pushes/active', { token: made.owner })).body).toHaveLength(4);
      // Webhooks (with their outbox) and secret requests came along, the answer readable.
      const [hook] = (await api.get(s, '/api/v2/webhooks', { token: made.owner })).body;
      expect(hook).toMatchObject({ url: 'https://93.184.216.34/hook', last_delivery: { type: 'push.expired', state: 'pending' } });
      const [request] = (await api.get(s, '/api/v2/secret-requests', { token: made.owner })).body;
      expect(request).toMatchObject({ url_token: made.request, state: 'answered', title: 'moved request' });
      const answer = /\/p\/([^/]+)\/r$/.exec(request.answer_html_url)![1];
      expect((await api.get(s, `/api/v2/pushes/${answer}`, { token: made.owner })).body.payload).toBe('answered before the move');
      // The sliced upload goes on where it stood: its second slice, the finish, and the file whole.
      expect((await api.get(s, `/api/v2/uploads/${sliced.upload}`, { token: made.owner })).body.files).toEqual([{ size: sliced.envelope.length, received: SLICE }]);
      expect((await putSlice(s, SLICE)).status).toBe(200);
      const done = await api.post(s, `/api/v2/uploads/${sliced.upload}/finish`, { token: made.owner });
      expect(done.status).toBe(201);
      const shown = await api.get(s, `/api/v2/pushes/${done.body.url_token}`);
      const res = await fetch((shown.body.files as { url: string }[])[0]!.url);
      const { stream } = createDecryptStream(sliced.key);
      const out: Uint8Array[] = [];
      for await (const chunk of res.body!.pipeThrough(stream) as unknown as AsyncIterable<Uint8Array>) out.push(chunk);
      expect(Buffer.concat(out).equals(slicedPlain)).toBe(true);
    } finally {
      await s.close();
    }
  });

  it('takes a database instances have only started on (schema, their own keys, no data)', async () => {
    for (const masterKey of [randomBytes(32).toString('hex'), readFileSync(join(dataDir, 'master.key'), 'utf8').trim()]) {
      const started = await createTestDatabase();
      try {
        const s = await startServer({ DATABASE_URL: started.url, MASTER_KEY: masterKey });
        await s.close();
        const moved = await migrate(started.url);
        expect(moved.out).toContain('Verified: all 5 pushes');
        expect(moved.code).toBe(0);
        const served = await startServer({ DATABASE_URL: started.url, MASTER_KEY: readFileSync(join(dataDir, 'master.key'), 'utf8').trim(), WEBHOOK_POLL_SECONDS: '3600' });
        try {
          expect((await api.get(served, `/api/v2/pushes/${made.text}`)).body.payload).toBe('plain secret ✓');
        } finally {
          await served.close();
        }
      } finally {
        await started.drop();
      }
    }
  });

  it('refuses a target database that holds data of another installation, and a data directory a server holds', async () => {
    const other = await createTestDatabase();
    try {
      const s = await startServer({ DATABASE_URL: other.url, MASTER_KEY: randomBytes(32).toString('hex') });
      await createPush(s, { payload: 'another installation' });
      await s.close();
      const refused = await migrate(other.url);
      expect(refused.code).toBe(1);
      expect(refused.out).toMatch(/The target database already holds data \(1 pushes\) of another installation, stored under another MASTER_KEY\. Migrate into a database without data/);
    } finally {
      await other.drop();
    }
    const running = await startServer({ DATA_DIR: dataDir });
    try {
      const locked = await migrate(db.url);
      expect(locked.code).toBe(1);
      expect(locked.out).toMatch(/in use|another|running/i);
    } finally {
      await running.close();
    }
  });
});
