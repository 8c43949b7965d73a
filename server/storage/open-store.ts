import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { LowdbStore } from './embedded/lowdb-store.js';
import type { Store } from './store.js';

// The PostgreSQL store (pg) and object storage (the AWS SDK, ~100 files) are loaded only by a
// server configured for them: an embedded server's start no longer reads them.

/**
 * The backend the configuration asks for: PostgreSQL with DATABASE_URL (shared by every
 * instance on it), else the embedded store in DATA_DIR (one process per directory, held by a
 * lock). `where` names it in messages.
 */
export async function openStore(
  config: Pick<Config, 'database' | 'dataDir' | 'purgeCompactionSeconds'> & Partial<Pick<Config, 'objectStorage'>>,
  logger: Logger,
): Promise<{ store: Store; where: string }> {
  const opened = await openRecordStore(config, logger);
  // Files in an S3-compatible bucket (FILE_STORAGE=s3), beside either store's records.
  if (config.objectStorage) {
    const { withObjectStorage } = await import('./object-store/with-object-storage.js');
    return { store: withObjectStorage(opened.store, config.objectStorage, (message) => logger.info(message)), where: opened.where };
  }
  return opened;
}

async function openRecordStore(config: Pick<Config, 'database' | 'dataDir' | 'purgeCompactionSeconds'>, logger: Logger): Promise<{ store: Store; where: string }> {
  if (config.database) {
    const { PostgresStore } = await import('./postgres/postgres-store.js');
    const store = await PostgresStore.open({ url: config.database.url, poolSize: config.database.poolSize, logger, waitForDatabase: true });
    return { store, where: 'the PostgreSQL database' };
  }
  const store = await LowdbStore.open(config.dataDir, {
    requestedCompactionIntervalMs: config.purgeCompactionSeconds * 1000,
    onCompactionError: (e) => logger.error(`Compacting the store in ${config.dataDir} failed (retried in 30 s; erased secrets stay in the journal until it succeeds)`, e),
    onStaleLockTakenOver: () => logger.info(`Took over a stale lock in ${config.dataDir} (the previous process did not shut down cleanly).`),
  });
  return { store, where: config.dataDir };
}
