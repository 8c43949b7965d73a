import {
  AbortMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PassThrough, Readable } from 'node:stream';
import type { BlobStore } from '../store.js';
import { abortRecordedUploads, recordMultipartUploads, type MultipartLedger } from './multipart-ledger.js';
import { asObjectStoreError, isMissingObject } from './object-store-errors.js';

/** Multipart part size: what one upload holds in memory per part in flight (× PART_QUEUE). */
const PART_BYTES = 8 * 1_048_576;
const PART_QUEUE = 2;
/** S3 allows at most 1,000 keys per DeleteObjects and per listing page. */
const PAGE = 1000;

export interface S3Settings {
  endpoint: string | undefined;
  region: string;
  bucket: string;
  /** Prepended to every key ('' or ending in '/'). */
  prefix: string;
  forcePathStyle: boolean;
}

/**
 * Which files a stored push references: undefined when there is no push under the token
 * (its objects are then orphans once old enough not to be an upload under way).
 */
export type ReferencedFiles = (pushToken: string) => Promise<readonly string[] | undefined>;

/**
 * Blobs as objects `<S3_PREFIX><push>/<file>.bin` in an S3-compatible bucket, streamed in with
 * multipart uploads (bounded memory: PART_QUEUE parts of PART_BYTES in flight; an object appears
 * only when its upload is completed, so a process killed mid-upload leaves an incomplete
 * multipart upload, never an object that looks whole) and out with ranged GETs. Everything is
 * ciphertext already (FileVault encrypts above). An unreachable or failing object store is a
 * StorageUnavailableError (503 with Retry-After on the file routes only); the SDK's client
 * opens new connections per request, so it recovers by itself when the store is back.
 */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  private abortUnsupportedTold = false;

  constructor(
    readonly settings: S3Settings,
    private readonly referenced: ReferencedFiles,
    /** Where the multipart uploads we start are recorded, so that the sweep can abort a killed instance's (absent: listing only). */
    private readonly ledger?: MultipartLedger,
    /** Told, once per process, what an operator should know (the store cannot abort multipart uploads). */
    private readonly notice: (message: string) => void = () => {},
  ) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      // A store that is down must be a prompt 503, not a request hanging on connect.
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 60_000 },
    });
    if (ledger) recordMultipartUploads(this.client, ledger);
  }

  key(pushToken: string, fileId: string): string {
    return `${this.settings.prefix}${pushToken}/${fileId}.bin`;
  }

  private tokenPrefix(pushToken: string): string {
    return `${this.settings.prefix}${pushToken}/`;
  }

  async write(pushToken: string, fileId: string, source: Readable): Promise<number> {
    let size = 0;
    let sourceError: unknown;
    source.on('error', (e) => void (sourceError ??= e));
    const counter = new PassThrough();
    counter.on('data', (chunk: Buffer) => (size += chunk.length));
    source.on('error', (e) => counter.destroy(e));
    source.pipe(counter);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.key(pushToken, fileId), Body: counter },
      partSize: PART_BYTES,
      queueSize: PART_QUEUE,
      // A failed upload aborts its multipart upload; a killed process leaves it to the sweep.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (e) {
      // The upload's own failure (cut short, over its size limit) is reported as it is.
      if (sourceError !== undefined) throw sourceError;
      throw asObjectStoreError(e, 'could not store the file in object storage');
    }
    if (sourceError !== undefined) throw sourceError;
    return size;
  }

  async size(pushToken: string, fileId: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.key(pushToken, fileId) }));
      return head.ContentLength;
    } catch (e) {
      if (isMissingObject(e)) return undefined;
      throw asObjectStoreError(e, 'could not reach object storage');
    }
  }

  async read(pushToken: string, fileId: string, start: number, end: number): Promise<Readable> {
    if (end <= start) return new PassThrough().end();
    try {
      const got = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(pushToken, fileId), Range: `bytes=${start}-${end - 1}` }),
      );
      return got.Body as Readable;
    } catch (e) {
      if (isMissingObject(e)) throw Object.assign(new Error(`no file ${fileId}`), { code: 'ENOENT' });
      throw asObjectStoreError(e, 'could not read the file from object storage');
    }
  }

  async removeAll(pushToken: string): Promise<void> {
    try {
      for await (const keys of this.keysUnder(this.tokenPrefix(pushToken))) await this.deleteKeys(keys.map((k) => k.key));
    } catch (e) {
      throw asObjectStoreError(e, 'could not delete the files from object storage');
    }
  }

  /**
   * The sweep: removes, up to `limit` pushes' worth, (1) objects of tokens with no push that
   * were last written before `startedBefore` (an upload given up, a process killed between its
   * files and its push, a sliced upload never finished), (2) objects of a stored push that it no
   * longer references (its files purged but the delete failed: retried here), and (3) multipart
   * uploads begun before `startedBefore` and never completed. An object a push references is
   * never deleted.
   */
  async removeOrphans(startedBefore: Date, limit: number): Promise<number> {
    let removed = 0;
    try {
      const byToken = new Map<string, { key: string; fileId: string; lastModified: Date }[]>();
      const flush = async (token: string) => {
        const objects = byToken.get(token)!;
        byToken.delete(token);
        const files = await this.referenced(token);
        const doomed = files === undefined ? (objects.every((o) => o.lastModified < startedBefore) ? objects : []) : objects.filter((o) => !files.includes(o.fileId));
        if (!doomed.length) return;
        await this.deleteKeys(doomed.map((o) => o.key));
        removed++;
      };
      for await (const page of this.keysUnder(this.settings.prefix)) {
        for (const o of page) {
          const rest = o.key.slice(this.settings.prefix.length);
          const slash = rest.indexOf('/');
          if (slash < 0 || !rest.endsWith('.bin')) continue; // not ours
          const token = rest.slice(0, slash);
          // Keys are listed in order, so a token's objects come together.
          for (const other of byToken.keys()) if (other !== token) await flush(other);
          if (removed >= limit) return removed;
          const list = byToken.get(token) ?? [];
          list.push({ key: o.key, fileId: rest.slice(slash + 1, -'.bin'.length), lastModified: o.lastModified });
          byToken.set(token, list);
        }
      }
      for (const token of [...byToken.keys()]) if (removed < limit) await flush(token);
      await this.abortStaleMultipartUploads(startedBefore);
      if (this.ledger) await abortRecordedUploads(this.client, this.settings.bucket, this.ledger, startedBefore, limit, () => this.abortUnsupported());
    } catch (e) {
      throw asObjectStoreError(e, 'could not sweep object storage');
    }
    return removed;
  }

  /** Aborts multipart uploads under the prefix begun before `before` (their parts cost storage). */
  async abortStaleMultipartUploads(before: Date): Promise<number> {
    let aborted = 0;
    let keyMarker: string | undefined;
    let uploadIdMarker: string | undefined;
    do {
      const page = await this.client
        .send(
          new ListMultipartUploadsCommand({ Bucket: this.settings.bucket, Prefix: this.settings.prefix || undefined, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
        )
        .catch((e: { name?: string }) => {
          // Some S3-compatible servers (s3rver among them) do not list multipart uploads: the
          // bucket's lifecycle rule (AbortIncompleteMultipartUpload, see the README) is then the
          // only cleanup of a process killed mid-upload.
          if (e?.name === 'NotImplemented') return undefined;
          throw e;
        });
      if (!page) return aborted;
      for (const u of page.Uploads ?? []) {
        if (!u.Key || !u.UploadId || !u.Initiated || u.Initiated >= before) continue;
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.settings.bucket, Key: u.Key, UploadId: u.UploadId }));
        aborted++;
      }
      keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
      uploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
    } while (keyMarker);
    return aborted;
  }

  private abortUnsupported(): void {
    if (this.abortUnsupportedTold) return;
    this.abortUnsupportedTold = true;
    this.notice(
      'The object store cannot abort multipart uploads (AbortMultipartUpload refused as not implemented): the parts of uploads cut short stay in the bucket. ' +
        'Add the bucket lifecycle rule AbortIncompleteMultipartUpload (1-2 days); the records of those uploads are kept and tried again by each sweep.',
    );
  }

  async *list(): AsyncIterable<{ pushToken: string; fileId: string }> {
    for await (const page of this.keysUnder(this.settings.prefix)) {
      for (const o of page) {
        const rest = o.key.slice(this.settings.prefix.length);
        const slash = rest.indexOf('/');
        if (slash > 0 && rest.endsWith('.bin')) yield { pushToken: rest.slice(0, slash), fileId: rest.slice(slash + 1, -'.bin'.length) };
      }
    }
  }

  /** Every object under `prefix`, a listing page at a time. */
  async *keysUnder(prefix: string): AsyncGenerator<{ key: string; lastModified: Date; size: number }[]> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: prefix || undefined, ContinuationToken: token, MaxKeys: PAGE }),
      );
      yield (page.Contents ?? []).filter((o) => o.Key).map((o) => ({ key: o.Key!, lastModified: o.LastModified ?? new Date(0), size: o.Size ?? 0 }));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async deleteKeys(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += PAGE) {
      const batch = keys.slice(i, i + PAGE);
      const out = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.settings.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      const failed = out.Errors ?? [];
      if (failed.length) throw new Error(`object storage refused to delete ${failed.length} object(s): ${failed[0]!.Code ?? ''} ${failed[0]!.Message ?? ''}`);
    }
  }

  close(): void {
    this.client.destroy();
  }
}
