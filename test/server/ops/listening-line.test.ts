import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { storeEnv, testStore } from '../../support/server.js';
import { spawnServer, type SpawnedServer } from '../../support/spawn-server.js';

/**
 * The line a supervisor reads at start says where the data is: the data directory on the
 * embedded store, the database (host and name, never the password) on PostgreSQL, where nothing
 * is written to DATA_DIR (issue 28: it said "data in …/data" there too).
 */
const dirs: string[] = [];
const running: SpawnedServer[] = [];
afterAll(() => {
  for (const s of running) s.child.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

it(`names where the data is (${testStore})`, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-listening-'));
  dirs.push(dataDir);
  const extra = await storeEnv(dataDir, { MASTER_KEY: 'cd'.repeat(32) });
  const server = await spawnServer({ DATA_DIR: dataDir, MASTER_KEY: 'cd'.repeat(32), ...extra });
  running.push(server);
  const line = /Secret Push listening on \S+ \(data in (.*)\)\n/.exec(server.output())?.[1];
  if (testStore === 'postgres') {
    const url = new URL(extra.DATABASE_URL!);
    expect(line).toBe(`the PostgreSQL database ${url.host}${url.pathname}`);
    if (url.password) expect(server.output()).not.toContain(url.password);
    expect(readdirSync(dataDir)).toEqual([]);
  } else {
    expect(line).toBe(dataDir);
  }
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
});
