import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { builtServerDir } from './built-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
}

type Spawned = { child: ChildProcess; output: () => string; exited: Promise<number | string> };

/** Runs a Node/TypeScript entry point of this repo in a child process (tsx as a loader). */
export function spawnTs(script: string, args: string[], env: Record<string, string>): Spawned {
  return spawnNode(['--import', 'tsx', script, ...args], env);
}

/** Runs node with `args` from the repo's root, collecting its stdout and stderr; `input`, if given, is its stdin. */
export function spawnNode(args: string[], env: Record<string, string>, input?: string): Spawned {
  // Vite/Vitest put BASE_URL, MODE, DEV… into process.env: not ours, so not passed on.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR', 'VITEST', 'TEST'].includes(k)));
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...inherited, NODE_ENV: 'production', ...env },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (input !== undefined) child.stdin!.end(input);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  running.add(child);
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? -1);
    }),
  );
  return { child, output: () => out, exited };
}

/**
 * Children still running: killed when this test process ends. A file whose set-up failed half
 * way (one of three instances not started in time) never stops the others; they were left
 * behind, reparented to init, waiting for their file's deleted database for good (eleven such
 * servers were found retrying every second after a few failed runs, loading the shared machine).
 */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** `npm start`'s entry point in a child process, resolved once it prints its URL. */
export function spawnServer(env: Record<string, string>, timeoutMs = 20_000): Promise<SpawnedServer> {
  return listening(spawnTs('server/main.ts', [], serverDefaults(env)), timeoutMs);
}

/** The compiled server (`npm run build` into `outDir`) run by plain node, as the container runs it. */
export function spawnCompiledServer(outDir: string, env: Record<string, string>, timeoutMs = 20_000): Promise<SpawnedServer> {
  return listening(spawnNode([`${outDir}/server/main.js`], serverDefaults(env)), timeoutMs);
}

/**
 * The same server from the run's build (builtServerDir): for files that start and restart many
 * instances, where the start itself is not what they test; about half the CPU of a tsx start.
 */
export async function spawnBuiltServer(env: Record<string, string>, timeoutMs = 20_000): Promise<SpawnedServer> {
  return spawnCompiledServer(await builtServerDir(), env, timeoutMs);
}

/**
 * A script of the run's build (`server/main.js`, `server/cli/users.js`) as spawnTs runs its
 * source: a start expected to fail or to wait, or an admin command.
 */
export async function spawnBuilt(script: string, args: string[], env: Record<string, string>, input?: string): Promise<Spawned> {
  return spawnNode([`${await builtServerDir()}/${script}`, ...args], env, input);
}

/**
 * `npm run users -- <args>` as the image runs it (the run's build of server/cli/users.ts), with
 * `input` on its stdin (a password), to its end: its exit code and its output. A third of the
 * CPU of a start through tsx, which each command would otherwise pay.
 */
export async function runUsersCommand(args: string[], env: Record<string, string>, input = ''): Promise<{ code: number | string; out: string }> {
  const command = await spawnBuilt('server/cli/users.js', args, env, input);
  const code = await command.exited;
  return { code, out: command.output() };
}

// No balancer in front of a test's server: SIGTERM stops it without SHUTDOWN_DELAY_SECONDS' wait.
const serverDefaults = (env: Record<string, string>) => ({ PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '0', SHUTDOWN_DELAY_SECONDS: '0', PASSWORD_HASH_COST: '10', ...env });

async function listening(proc: Spawned, timeoutMs: number): Promise<SpawnedServer> {
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: it may start later, on a port or a data directory nothing watches.
      proc.child.kill('SIGKILL');
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${proc.output()}`));
    }, timeoutMs);
    const check = () => {
      const m = /listening on (http:\/\/\S+)/.exec(proc.output());
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.child.stdout!.on('data', check);
    void proc.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${proc.output()}`));
    });
  });
  return { url, ...proc };
}
