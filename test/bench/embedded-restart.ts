/**
 * How long the embedded store takes to open a snapshot of N realistic pushes (each with a sealed
 * payload, some with a note, and a one-entry audit trail) in a fresh process, as at a restart,
 * and that process's memory after it. Part of `npm run bench`; alone:
 * `node --import tsx test/bench/embedded-restart.ts 100000`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LowdbStore } from '../../server/storage/embedded/lowdb-store.js';
import { fillEmbedded } from './fill-store.js';

export async function measureRestart(count: number): Promise<{ pushes: number; snapshotMiB: number; openMs: number; rssMiB: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'secret-push-restart-bench-'));
  try {
    await fillEmbedded(dir, count);
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
