// A real server for the measurement scripts (measure-e2e.ts, measure-e2e-browser.ts): a child
// process, so that its memory can be read from /proc apart from the script's, with limits that
// let a file of `fileBytes` through and a data directory removed when it stops.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgresCluster, type PostgresCluster } from '../../test/support/postgres-cluster.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/postgres-database.js';

const MiB = 1024 ** 2;
const root = new URL('../..', import.meta.url).pathname;

export interface MeasuredServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

let cluster: PostgresCluster | undefined;

export async function startMeasuredServer(fileBytes: number, store: 'embedded' | 'postgres' = 'embedded'): Promise<MeasuredServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-measure-'));
  let database: TestDatabase | undefined;
  if (store === 'postgres') {
    cluster ??= await startPostgresCluster();
    database = await createTestDatabase(cluster.url);
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      MASTER_KEY: randomBytes(32).toString('hex'),
      MAX_FILE_BYTES: String(fileBytes + 64 * MiB),
      REQUEST_TIMEOUT_SECONDS: '1800',
      MAX_STORAGE_MB: '0',
      ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '0',
      FILES_REQUIRE_AUTH: 'false',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'error',
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(d.toString());
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, pid: child.pid!, stop };
}

/** The PostgreSQL cluster started for `store: 'postgres'`, if any. */
export async function stopMeasuredClusters(): Promise<void> {
  await cluster?.destroy();
  cluster = undefined;
}
