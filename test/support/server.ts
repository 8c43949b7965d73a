import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config.js';
import { createLogger } from '../../server/logger.js';
import { startServer as start, type RunningServer } from '../../server/server.js';

export interface TestServer {
  url: string;
  dataDir: string;
  server: RunningServer;
  /** Log lines the server wrote (tests check that no secret appears in them). */
  logs: string[];
  stop(): Promise<void>;
  /** Stops without deleting the data dir (for restart tests). */
  close(): Promise<void>;
}

/**
 * A real server on an ephemeral port of 127.0.0.1 with a fresh data dir (or the given one),
 * rate limiting off and purge compaction immediate unless asked for, and debug logs captured.
 */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'secret-push-test-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '0', PURGE_COMPACTION_SECONDS: '0', LOG_LEVEL: 'debug', ...env, DATA_DIR: dataDir });
  const logs: string[] = [];
  const server = await start(config, createLogger('debug', (line) => logs.push(line)));
  return {
    url: server.url,
    dataDir,
    server,
    logs,
    close: () => server.close(),
    async stop() {
      await server.close();
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An account with a fresh API token, made through the account service. */
export async function createUserWithToken(server: TestServer, email: string): Promise<{ token: string; userId: string }> {
  const { user } = await server.server.accounts.ensureUser(email);
  const { token } = await server.server.accounts.createApiToken(user, 'test');
  return { token, userId: user.id };
}
