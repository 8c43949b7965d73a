import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config.js';
import { createLogger } from '../../server/logger.js';
import { startServer as start, type RunningServer } from '../../server/server.js';
import { auditedServer, strayError } from './bucket-audit.js';
import { signWithRealClock } from './object-store.js';
import { objectStoreEnv } from './object-store-env.js';
import { S3BlobStore } from '../../server/storage/object-store/s3-blob-store.js';
import { createTestDatabase, type TestDatabase } from './postgres-database.js';

/** Which store the suite runs on: the vitest project sets TEST_STORE=postgres for the second run. */
export const testStore: 'embedded' | 'postgres' = process.env.TEST_STORE === 'postgres' ? 'postgres' : 'embedded';

/**
 * On PostgreSQL, a test's "data dir" stands for a database and a key: a server restarted on the
 * same DATA_DIR (restart tests) gets the same database and key back.
 */
const databases = new Map<string, { db: TestDatabase; masterKey: string }>();

export async function storeEnv(dataDir: string, env: Record<string, string> = {}): Promise<Record<string, string>> {
  if (testStore !== 'postgres' || env.DATABASE_URL) return {};
  let entry = databases.get(dataDir);
  if (!entry) {
    entry = { db: await createTestDatabase(), masterKey: randomBytes(32).toString('hex') };
    databases.set(dataDir, entry);
  }
  return { DATABASE_URL: entry.db.url, MASTER_KEY: env.MASTER_KEY ?? entry.masterKey };
}

async function dropDatabase(dataDir: string) {
  const entry = databases.get(dataDir);
  databases.delete(dataDir);
  await entry?.db.drop();
}

export interface TestServer {
  url: string;
  dataDir: string;
  /** The server's PostgreSQL database, when the suite runs on PostgreSQL. */
  databaseUrl: string | undefined;
  server: RunningServer;
  /** Log lines the server wrote (tests check that no secret appears in them). */
  logs: string[];
  stop(): Promise<void>;
  /** Stops without deleting the data dir (for restart tests). */
  close(): Promise<void>;
}

/**
 * A real server on an ephemeral port of 127.0.0.1 with a fresh data dir (or the given one),
 * rate limiting (and the sign-up limit) off and purge compaction immediate unless asked for, and debug logs captured.
 */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'secret-push-test-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    RATE_LIMIT_PER_MINUTE: '0',
    // Suites make many accounts and pushes from 127.0.0.1; these limits have their own tests.
    SIGN_UPS_PER_IP_PER_HOUR: '100000',
    ACCOUNT_STORAGE_MB_PER_DAY: '0',
    ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '0',
    PURGE_COMPACTION_SECONDS: '0',
    // Cheaper scrypt (2^10, not 2^14): a sixth of the CPU of the suite's many sign-ups, sign-ins and
    // passphrases; files about hashing's cost under load set the default 14 again.
    PASSWORD_HASH_COST: '10',
    LOG_LEVEL: 'debug',
    ...env,
    ...(await storeEnv(dataDir, env)),
    ...(await objectStoreEnv(dataDir, env)),
    DATA_DIR: dataDir,
  });
  const logs: string[] = [];
  const server = await start(config, createLogger(config.logLevel, (line) => logs.push(line)));
  if (server.store.blobs instanceof S3BlobStore) signWithRealClock(server.store.blobs.client);
  // With files in object storage, its bucket is listed against its pushes when it stops.
  const audit = auditedServer(server.store, server.url);
  const closeAudited = async () => {
    const strays = await audit.beforeClose().catch((e: unknown) => [`(the bucket could not be listed: ${String(e)})`]);
    await server.close();
    if (strays.length) throw strayError(`server ${server.url} stopping`, strays);
  };
  return {
    url: server.url,
    dataDir,
    databaseUrl: config.database?.url,
    server,
    logs,
    close: closeAudited,
    async stop() {
      try {
        await closeAudited();
      } finally {
        if (!env.DATA_DIR) {
          rmSync(dataDir, { recursive: true, force: true });
          await dropDatabase(dataDir);
        }
      }
      assertStructuredLog(logs);
    },
  };
}

/** An account with a fresh API token, made through the account service. */
export async function createUserWithToken(server: TestServer, email: string): Promise<{ token: string; userId: string }> {
  const { user } = await server.server.accounts.ensureUser(email);
  const { token } = await server.server.accounts.createApiToken(user, 'test');
  return { token, userId: user.id };
}

/**
 * Every line the server logged, in every test that uses this harness, is one JSON object with a
 * level, a time and a message: log shippers parse them, and a value a client sent cannot have
 * broken one into two (a forged line).
 */
function assertStructuredLog(lines: string[]) {
  for (const line of lines) {
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      throw new Error(`a log line is not JSON: ${line.slice(0, 200)}`);
    }
    const e = entry as Record<string, unknown>;
    if (typeof e.level !== 'string' || typeof e.time !== 'string' || typeof e.msg !== 'string') {
      throw new Error(`a log line lacks level, time or msg: ${line.slice(0, 200)}`);
    }
  }
}
