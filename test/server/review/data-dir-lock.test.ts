import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError } from '../../../server/storage/embedded/data-dir-lock.js';
import { createPush, waitFor } from '../../support/http.js';
import { startServer } from '../../support/server.js';

/**
 * Finding 8: a lock left by a process that is a zombie (exited, not yet reaped by its parent)
 * was taken for a live server, so the data directory could not be opened again. A zombie or a
 * gone process is stale; a live one still keeps a second server out.
 */
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'secret-push-lock-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const state = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
};

/**
 * A zombie: a forked child exits and its parent never reaps it (SIGCHLD at its default, in case
 * the disposition inherited from the test runner would have the kernel reap it at once).
 */
const ZOMBIE_MAKER = ['import os, signal, time', 'signal.signal(signal.SIGCHLD, signal.SIG_DFL)', 'pid = os.fork()', 'if pid == 0: os._exit(0)', 'print(pid, flush=True)', 'time.sleep(60)'].join('\n');

async function withZombie(run: (zombiePid: number, parentPid: number) => Promise<void>) {
  const parent = spawn('python3', ['-c', ZOMBIE_MAKER], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const zombie = await new Promise<number>((resolve) => parent.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
    await waitFor(() => state(zombie) === 'Z', 5000, 'the background process to become a zombie');
    await run(zombie, parent.pid!);
  } finally {
    parent.kill('SIGKILL');
  }
}

describe('the data-directory lock', () => {
  it('takes over a lock whose process is a zombie, and says so', async () => {
    await withZombie(async (zombie) => {
      const dataDir = tempDir();
      writeFileSync(join(dataDir, 'secret-push.lock'), String(zombie));
      const server = await startServer({ DATA_DIR: dataDir });
      try {
        expect(server.logs.join('\n')).toMatch(/stale lock/i);
        expect((await createPush(server, { payload: 'after a zombie' })).url_token).toBeTruthy();
        expect(readFileSync(join(dataDir, 'secret-push.lock'), 'utf8').trim()).toBe(String(process.pid));
      } finally {
        await server.close();
      }
    });
  });

  it('takes over a lock whose process is gone', async () => {
    const gone = spawn('true');
    await new Promise((r) => gone.on('exit', r));
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'secret-push.lock'), String(gone.pid));
    const server = await startServer({ DATA_DIR: dataDir });
    await server.close();
  });

  it('still refuses a directory held by a live process', async () => {
    await withZombie(async (_zombie, live) => {
      const dataDir = tempDir();
      writeFileSync(join(dataDir, 'secret-push.lock'), String(live));
      await expect(startServer({ DATA_DIR: dataDir })).rejects.toThrow(DataDirLockedError);
      expect(readFileSync(join(dataDir, 'secret-push.lock'), 'utf8').trim()).toBe(String(live));
    });
  });
});
