import { startPostgresCluster } from './postgres-cluster.js';

/**
 * One PostgreSQL cluster for the whole test run; every test file makes its own database in it
 * (test/support/postgres-database.ts). The URL reaches the test workers through the environment.
 */
export default async function setup() {
  const cluster = await startPostgresCluster();
  process.env.SECRET_PUSH_TEST_PG_URL = cluster.url;
  return () => cluster.destroy();
}
