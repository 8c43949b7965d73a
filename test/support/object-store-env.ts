import { startObjectStore, testFileStorage, type TestObjectStore } from './object-store.js';

/**
 * With TEST_FILE_STORAGE=s3 (the vitest project `server-s3`), every test server keeps its files
 * in object storage: one s3rver per test file (started with its first server), one bucket per
 * data dir (a server restarted on the same DATA_DIR finds its files again).
 */
let shared: Promise<TestObjectStore> | undefined;
const buckets = new Map<string, Record<string, string>>();

export async function objectStoreEnv(dataDir: string, env: Record<string, string>): Promise<Record<string, string>> {
  if (testFileStorage !== 's3' || env.FILE_STORAGE) return {};
  let bucketEnv = buckets.get(dataDir);
  if (!bucketEnv) {
    // Never stopped by a test: it removes its directory itself when this process ends.
    shared ??= startObjectStore();
    bucketEnv = (await (await shared).bucket()).env;
    buckets.set(dataDir, bucketEnv);
  }
  return bucketEnv;
}
