import { Readable } from 'node:stream';
import type { BlobStore } from '../store.js';
import type { Queryable } from './unavailable.js';

/** Bytes per row: large enough that a 100 MiB file is 400 rows, small enough for any statement. */
const CHUNK_BYTES = 256 * 1024;
/** Chunks fetched per round trip when reading. */
const CHUNKS_PER_READ = 4;

/**
 * Blobs as rows of `blob_chunks`, written one chunk at a time as the upload streams in (each
 * insert its own statement: an upload never holds a transaction or more than one chunk in
 * memory) and marked complete at the end; read back a few chunks at a time.
 */
export class PostgresBlobStore implements BlobStore {
  constructor(private readonly db: Queryable) {}

  async write(pushToken: string, fileId: string, source: Readable): Promise<number> {
    let size = 0;
    try {
      await this.db.query('DELETE FROM blobs WHERE push_token = $1 AND file_id = $2', [pushToken, fileId]);
      await this.db.query('INSERT INTO blobs (push_token, file_id, chunk_size) VALUES ($1, $2, $3)', [pushToken, fileId, CHUNK_BYTES]);
      let seq = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async (bytes: number) => {
        const all = Buffer.concat(pending, pendingBytes);
        const chunk = all.subarray(0, bytes);
        await this.db.query('INSERT INTO blob_chunks (push_token, file_id, seq, data) VALUES ($1, $2, $3, $4)', [pushToken, fileId, seq++, chunk]);
        const rest = all.subarray(bytes);
        pending = rest.length ? [Buffer.from(rest)] : [];
        pendingBytes = rest.length;
      };
      for await (const piece of source) {
        const buf = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
        pending.push(buf);
        pendingBytes += buf.length;
        size += buf.length;
        while (pendingBytes >= CHUNK_BYTES) await flush(CHUNK_BYTES);
      }
      if (pendingBytes > 0) await flush(pendingBytes);
      await this.db.query('UPDATE blobs SET size = $3, complete = true WHERE push_token = $1 AND file_id = $2', [pushToken, fileId, size]);
      return size;
    } catch (e) {
      await this.db.query('DELETE FROM blobs WHERE push_token = $1 AND file_id = $2', [pushToken, fileId]).catch(() => {});
      throw e;
    }
  }

  async size(pushToken: string, fileId: string): Promise<number | undefined> {
    const { rows } = await this.db.query('SELECT size FROM blobs WHERE push_token = $1 AND file_id = $2 AND complete', [pushToken, fileId]);
    return rows[0] ? Number(rows[0].size) : undefined;
  }

  async read(pushToken: string, fileId: string, start: number, end: number): Promise<Readable> {
    const db = this.db;
    const first = Math.floor(start / CHUNK_BYTES);
    const last = end > start ? Math.floor((end - 1) / CHUNK_BYTES) : first - 1;
    const batch = async (from: number) => {
      const to = Math.min(last, from + CHUNKS_PER_READ - 1);
      const { rows } = await db.query(
        'SELECT seq, data FROM blob_chunks WHERE push_token = $1 AND file_id = $2 AND seq BETWEEN $3 AND $4 ORDER BY seq',
        [pushToken, fileId, from, to],
      );
      if (rows.length !== to - from + 1) throw Object.assign(new Error(`file ${fileId} was removed while being read`), { code: 'ENOENT' });
      return rows.map((row) => {
        const offset = row.seq * CHUNK_BYTES;
        const data = row.data as Buffer;
        return data.subarray(Math.max(0, start - offset), Math.min(data.length, end - offset));
      });
    };
    // The first batch is read before the stream is handed over: a file already removed (its
    // push deleted beside this download) is ENOENT here, before an answer has begun, not a
    // connection cut after it. One removed later, between batches, still ends the stream.
    const opening = last >= first ? await batch(first) : [];
    async function* chunks() {
      yield* opening;
      for (let from = first + CHUNKS_PER_READ; from <= last; from += CHUNKS_PER_READ) yield* await batch(from);
    }
    return Readable.from(chunks(), { objectMode: false });
  }

  async removeOrphans(startedBefore: Date, limit: number): Promise<number> {
    const { rows } = await this.db.query(
      `DELETE FROM blobs WHERE push_token IN (
         SELECT DISTINCT b.push_token FROM blobs b
         WHERE b.started_at < $1 AND NOT EXISTS (SELECT 1 FROM pushes p WHERE p.token = b.push_token)
         LIMIT $2
       ) RETURNING push_token`,
      [startedBefore.toISOString(), limit],
    );
    return new Set(rows.map((r) => r.push_token)).size;
  }

  async *list(): AsyncIterable<{ pushToken: string; fileId: string }> {
    const { rows } = await this.db.query('SELECT push_token, file_id FROM blobs WHERE complete ORDER BY push_token, file_id');
    for (const r of rows) yield { pushToken: r.push_token as string, fileId: r.file_id as string };
  }

  async removeAll(pushToken: string): Promise<void> {
    await this.db.query('DELETE FROM blobs WHERE push_token = $1', [pushToken]);
  }
}
