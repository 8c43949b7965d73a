import { SnapshotFile } from '../../server/storage/embedded/snapshot-file.js';

/** The embedded store's snapshot (db.json) as data; throws unless it is a whole, valid snapshot. */
export async function readSnapshot(path: string): Promise<Record<string, Record<string, any>>> {
  const data = await new SnapshotFile(path).read();
  if (!data) throw new Error(`no snapshot at ${path}`);
  return data;
}
