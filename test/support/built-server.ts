import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILD_TIMEOUT_MS = 120_000;

/** When `lock` was made (now, when it is gone meanwhile). */
function lockedSince(lock: string): number {
  try {
    return statSync(lock).mtimeMs;
  } catch {
    return Date.now();
  }
}

/** Outside a test run: this process's own directory for the build. */
let ownRunDir: string | undefined;

/**
 * The server as `npm run build` writes it (what the container runs with plain node), built once
 * per test run from the working tree: the first test file that asks builds it under a lock into
 * the run's directory, the others wait for it and use it. Outside a run (no
 * SECRET_PUSH_TEST_RUN_DIR) each test process builds once into a directory of its own.
 *
 * Why: the files that start and restart many server processes (rolling restarts, database
 * faults, kills) spent most of each restart in tsx loading ~290 TypeScript modules; the build
 * loads in about half the CPU time (measured: 1.6–1.9 s against 0.9–1.0 s user CPU to import
 * server/server.ts on this machine). The code is the same esbuild transform tsx applies.
 */
export async function builtServerDir(): Promise<string> {
  const runDir = process.env.SECRET_PUSH_TEST_RUN_DIR ?? (ownRunDir ??= mkdtempSync(join(tmpdir(), 'secret-push-built-')));
  const target = join(runDir, 'server-build');
  const done = join(target, 'server', 'main.js');
  const lock = join(runDir, 'server-build.lock');
  for (;;) {
    if (existsSync(done)) return target;
    try {
      mkdirSync(lock);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // Another file is building: wait for its lock to go (the build's own timeout bounds this).
      // A lock older than that timeout was left by a test process killed mid-build: taken over.
      if (Date.now() - lockedSince(lock) > BUILD_TIMEOUT_MS + 30_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      if (!existsSync(done)) {
        const partial = `${target}.partial`;
        rmSync(partial, { recursive: true, force: true });
        const env = { ...process.env, NODE_ENV: 'production', BUILD_OUT_DIR: partial };
        await promisify(execFile)(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, env, timeout: BUILD_TIMEOUT_MS });
        // Outside the repository, node finds the packages through this link.
        symlinkSync(join(ROOT, 'node_modules'), join(partial, 'node_modules'), 'dir');
        // Renamed whole: a waiting file sees no main.js until every file is there.
        renameSync(partial, target);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
