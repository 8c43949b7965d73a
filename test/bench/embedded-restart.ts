/**
 * How long the embedded store takes to open a snapshot of N realistic pushes (each with a sealed
 * payload, some with a note, and a one-entry audit trail) in a fresh process, as at a restart,
 * and that process's memory after it. Part of `npm run bench`; alone:
 * `node --import tsx test/bench/embedded-restart.ts 100000`.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LowdbStore } from '../../server/storage/embedded/lowdb-store.js';
import { SnapshotFile } from '../../server/storage/embedded/snapshot-file.js';

export async function measureRestart(count: number): Promise<{ pushes: number; snapshotMiB: number; openMs: number; rssMiB: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'secret-push-restart-bench-'));
  try {
    const sealed = () => `v1.${randomBytes(60).toString('base64url')}`;
    const pushes: Record<string, unknown> = {};
    const audit: Record<string, unknown> = {};
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < count; i++) {
      const token = randomBytes(14).toString('base64url').slice(0, 19).toLowerCase();
      const at = new Date(t0 + i * 1000).toISOString();
      pushes[token] = {
        token, kind: 'text', ownerId: i % 10 === 0 ? `user${i % 1000}` : null, name: null, payload: sealed(), note: i % 3 === 0 ? sealed() : null,
        passphrase: null, hasPassphrase: false, files: [], filesPurgeAt: null, expireAfterDays: 7, expireAfterViews: 5,
        expiresAt: new Date(t0 + i * 1000 + 7 * 86_400_000).toISOString(), deletableByViewer: true, retrievalStep: true,
        views: 0, createdAt: at, updatedAt: at, expiredAt: null, deleted: false,
      };
      audit[token] = [{ kind: 'creation', ip: '192.0.2.1', userAgent: 'bench/1.0', referrer: '', at }];
    }
    await new SnapshotFile(join(dir, 'db.json')).write({ pushes, audit, users: {}, apiTokens: {}, sessions: {}, _meta: { seq: 0 } } as never);
    const snapshotMiB = statSync(join(dir, 'db.json')).size / 1_048_576;
    // A restart is a fresh process: open the store in one, as the server's start does.
    const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--open', dir], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`opening failed: ${child.stderr}`);
    return { snapshotMiB, ...JSON.parse(child.stdout.trim().split('\n').at(-1)!) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function openAndReport(dir: string) {
  const start = performance.now();
  const store = await LowdbStore.open(dir);
  const openMs = performance.now() - start;
  const { total } = await store.countPushes();
  console.log(JSON.stringify({ pushes: total, openMs: Math.round(openMs), rssMiB: Math.round(process.memoryUsage().rss / 1_048_576) }));
  await store.close();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === '--open') await openAndReport(process.argv[3]!);
  else console.log(JSON.stringify(await measureRestart(Number(process.argv[2] ?? 100_000))));
}
