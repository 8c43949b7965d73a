import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The test run's cluster (started by postgres-global-setup.ts). */
export function clusterUrl(): string {
  const url = process.env.SECRET_PUSH_TEST_PG_URL;
  if (!url) throw new Error('No test PostgreSQL cluster: run the tests through vitest (its globalSetup starts one).');
  return url;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database in `baseUrl`'s cluster (default: the test run's), dropped after. */
export async function createTestDatabase(baseUrl = clusterUrl()): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
