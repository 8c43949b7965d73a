import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { openStore } from '../storage/open-store.js';
import { moveFiles } from '../storage/object-store/move-files.js';
import { withObjectStorage } from '../storage/object-store/with-object-storage.js';
import type { StoredPush } from '../storage/records.js';

export const FILE_MOVE_USAGE = `Usage: npm run store:migrate -- --files-to s3|store
  Moves the files of the store the environment names (DATA_DIR, or DATABASE_URL) into the bucket of
  S3_BUCKET/S3_PREFIX (s3), or back out of it (store), each verified by its SHA-256 before the source
  copy is removed. Stop the servers first; safe to run again. Afterwards start them with FILE_STORAGE
  set to the same value.`;

/** `--files-to s3|store`: the files of the configured store, moved to or from object storage. */
export async function runFileMove(argv: string[], say: (line: string) => void): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { 'files-to': { type: 'string' } } });
  const direction = values['files-to'];
  if (direction !== 's3' && direction !== 'store') {
    say(FILE_MOVE_USAGE);
    return 2;
  }
  const config = loadConfig({ ...process.env, FILE_STORAGE: 's3' });
  const logger = createLogger('error');
  const { store: records } = await openStore({ ...config, objectStorage: undefined }, logger);
  const bucket = withObjectStorage(records, config.objectStorage!).blobs;
  try {
    // Every push, read once (records only; the files are streamed one at a time).
    const pushes: StoredPush[] = [];
    await records.renamePushes((p) => void pushes.push(p));
    const [from, to] = direction === 's3' ? [records.blobs, bucket] : [bucket, records.blobs];
    const counts = await moveFiles(pushes, from, to, say);
    say(`Moved ${counts.moved} files (${counts.bytes} bytes) ${direction === 's3' ? 'into the bucket' : 'out of the bucket'}, each verified by SHA-256; ${counts.alreadyThere} were already there; ${counts.uploads} storage ids without a push yet (sliced uploads in progress) moved with them.`);
    say(`Start every instance with FILE_STORAGE=${direction}.`);
    return 0;
  } finally {
    bucket.close();
    await records.close();
  }
}
