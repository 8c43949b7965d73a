import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One process per data directory: the store keeps state in memory, so a second writer would
 * silently lose the first one's changes. The lock file holds the owner's pid; a lock whose
 * process is gone (killed, crashed, or a zombie) is taken over.
 */
export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly pid: number) {
    super(`The data directory ${dataDir} is in use by another Secret Push process (pid ${pid}). Stop that process first, or point DATA_DIR somewhere else.`);
  }
}

const LOCK_FILE = 'secret-push.lock';
/** Locks held by this process (a lock naming our own pid but not in here is stale: pid reuse after a restart). */
const heldHere = new Set<string>();

/**
 * Whether `pid` is a running process. `kill(pid, 0)` also succeeds for a zombie (a process that
 * has exited but whose parent has not collected it, e.g. a server killed under a supervisor that
 * is slow to reap), so on Linux the state letter in `/proc/<pid>/stat` decides: Z (zombie) and
 * X (dead) hold nothing. Elsewhere (no /proc) the signal check alone answers.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = processState(pid);
  return state === undefined || (state !== 'Z' && state !== 'X' && state !== 'x');
}

/** The state letter of /proc/<pid>/stat (after the parenthesised command, which may hold spaces). */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch (e) {
    // No such entry while /proc exists: the process is gone. No /proc at all: cannot tell.
    return (e as NodeJS.ErrnoException).code === 'ENOENT' && existsSync('/proc/self/stat') ? 'X' : undefined;
  }
}

export interface DataDirLock {
  /** Whether a stale lock from a dead process was taken over. */
  tookOverStale: boolean;
  release(): void;
}

export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK_FILE);
  let tookOverStale = false;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx', mode: 0o600 });
      heldHere.add(path);
      let released = false;
      return {
        tookOverStale,
        release() {
          if (released) return;
          released = true;
          heldHere.delete(path);
          try {
            if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path);
          } catch {
            // already gone
          }
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const pid = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    const held = pid === process.pid ? heldHere.has(path) : Number.isSafeInteger(pid) && pid > 0 && isAlive(pid);
    if (held) throw new DataDirLockedError(dataDir, pid);
    rmSync(path, { force: true });
    tookOverStale = true;
  }
  throw new Error(`Could not take the lock ${path}`);
}
