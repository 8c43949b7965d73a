import { randomBytes } from 'node:crypto';
import { Readable, Transform, pipeline, type TransformCallback } from 'node:stream';
import { finished } from 'node:stream/promises';
import { envelopeLengthProblem, HEADER_BYTES } from '../../shared/e2e/envelope-format.js';
import type { OwnerPushRecord } from '../../shared/push-schema.js';
import { sliceUploadStartSchema, type SliceReceipt, type SliceUploadState } from '../../shared/sliced-upload-schema.js';
import type { Config } from '../config.js';
import type { KeptReservation, StorageQuota } from '../security/storage-quota.js';
import { ServiceError } from '../service-error.js';
import type { FileVault } from '../storage/file-vault.js';
import { segmentBlobId } from '../storage/segmented-file.js';
import type { BlobStore, LimitCounters } from '../storage/store.js';
import type { Actor, PushService } from './push-service.js';
import { fileTooLarge } from './file-upload.js';
import { validatePushInput } from './push-input.js';
import type { UrlTokenIds } from './url-token-id.js';
import { newUrlToken } from './url-token.js';

/**
 * Sliced uploads of end-to-end file pushes (docs/end-to-end-encryption.md, "Sliced uploads").
 * Firefox holds a request's whole body in memory whatever its source, so a 1 GiB envelope sent
 * in one request costs the sender's browser gigabytes; sent as 8 MiB slices it costs a slice.
 *
 * An upload is started with the push (as create takes it) and each file's envelope size; it is
 * checked then as a create would be, so that nothing is sent for a push that would be refused.
 * Slices arrive in order, each at an offset that is a multiple of SLICE_BYTES and exactly that
 * long but for a file's last; a slice sent again (a retry) is answered as before and not
 * rewritten. The start chooses the push's URL token and each file's id, and each slice is
 * stored as it arrives as a sealed segment of its file, under the push's storage id
 * (storage/segmented-file.ts): the finish then writes no file byte, it creates the push through
 * PushService.create, with every rule of a create (framing, quotas, audit, webhooks), over the
 * segments already there; before that nothing is viewable. The upload's own record (encrypted
 * with the key ring like any blob, holding the chosen token) lives under the upload's storage
 * id. Neither id has a push until the finish: an upload never finished is purged by the sweep
 * of orphaned blobs a day after it started, and is refused after UPLOAD_TTL_MS. Every backend
 * works the same (the BlobStore contract).
 */
export const SLICE_BYTES = 8 * 1_048_576;
const UPLOAD_TTL_MS = 6 * 3_600_000;
/**
 * How long one step of an upload (a slice, the finish) holds the upload against other instances.
 * Released when the step ends; only an instance that died mid-step leaves it to run out, and a
 * 1 GiB finish takes well under it.
 */
const STEP_LEASE_MS = 5 * 60_000;
/** The upload's record among its blobs. */
const RECORD = 'upload';
/**
 * What a finished upload leaves among its blobs (instead of its slices and record): which push
 * it created, so that a finish asked again (its answer lost to a dropped connection or a proxy's
 * timeout, after a finish that rewrote a large file) gets that push instead of a 404. Kept
 * FINISHED_ANSWER_MS; the sweep of blobs no push holds removes it a day later at the latest.
 */
const FINISHED = 'finished';
const FINISHED_ANSWER_MS = 15 * 60_000;
const UPLOAD_ID = /^[A-Za-z0-9_-]{24}$/;

/** The FINISHED blob (encrypted at rest like every blob). */
interface FinishedRecord {
  ownerId: string | null;
  /** The created push's URL token: the upload's id is the capability to it until the answer goes. */
  token: string;
  finishedAt: string;
}

/** What an upload keeps between its requests (in its RECORD blob, encrypted at rest). */
interface UploadRecord {
  ownerId: string | null;
  /**
   * The URL token the push will have (its storage id holds the segments), and each file's id.
   * Absent from records of uploads started before slices were stored as segments: those answer
   * 404 (their client starts again), and the sweep removes their slices.
   */
  urlToken?: string;
  fileIds?: string[];
  /** The push as the start took it; created as such at the finish. */
  push: Record<string, unknown>;
  sizes: number[];
  sliceBytes: number;
  startedAt: string;
  /** The daily quota the start reserved: given back when the upload is given up (its slices removed). */
  reservation?: KeptReservation;
}

export interface SlicedUploadDeps {
  pushes: PushService;
  vault: FileVault;
  blobs: BlobStore;
  /** The store's shared counters: a step of an upload is leased there, so it runs on one instance at a time. */
  counters: LimitCounters;
  ids: UrlTokenIds;
  config: Pick<Config, 'features' | 'limits'>;
  quota?: StorageQuota;
}

const UPLOAD_GONE = () => new ServiceError('not_found', 'No such upload: it was finished, given up, expired or never started.');

const totalBytes = (sizes: number[]) => sizes.reduce((sum, n) => sum + n, 0);

/** A record as this version stores slices (segments under the push's storage id). */
type SegmentedUploadRecord = UploadRecord & { urlToken: string; fileIds: string[] };

/** Passes exactly `bytes` bytes: more is refused (413); fewer (a body cut short) fails at its end. */
function exactly(bytes: number, tooLong: () => ServiceError): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      done(seen > bytes ? tooLong() : null, seen > bytes ? undefined : chunk);
    },
    flush(done: TransformCallback) {
      done(seen === bytes ? null : new ServiceError('bad_request', `The slice ended after ${seen} of its ${bytes} bytes.`));
    },
  });
}

export class SlicedUploads {
  /** Requests of one upload, one at a time (in this process): a retried slice never races its first try. */
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: SlicedUploadDeps) {}

  async start(actor: Actor, raw: unknown): Promise<SliceUploadState> {
    const { pushes, config } = this.deps;
    pushes.assertApiAccess(actor);
    pushes.assertMayAttachFiles(actor);
    const parsed = sliceUploadStartSchema.safeParse(raw);
    if (!parsed.success) {
      throw new ServiceError('bad_request', 'A sliced upload starts with {"push": {...}, "files": [{"size": <envelope bytes>}, ...]}.');
    }
    const { push, files } = parsed.data;
    const fields = validatePushInput(push, { limits: config.limits, features: config.features, hasFiles: true });
    if (!fields.endToEnd) throw ServiceError.validation({ end_to_end: ['must be true: sliced uploads carry end-to-end file pushes only'] });
    if (files.length > config.limits.maxFilesPerPush) throw ServiceError.validation({ files: [`too many files (maximum is ${config.limits.maxFilesPerPush})`] });
    files.forEach(({ size }, i) => {
      if (size > config.limits.maxFileBytes) throw fileTooLarge(config.limits.maxFileBytes);
      const problem = envelopeLengthProblem(size);
      if (problem) throw ServiceError.validation({ files: [`file ${i + 1} is not a well-formed end-to-end envelope: ${problem}`] });
    });
    // The files' bytes count against the caller's daily quota from the start, and are kept
    // counted whether or not the upload is finished: checked and given back, a client could store
    // any amount in uploads it never finishes (they stay a day). The finish's create then counts
    // only what the start did not (reservedBytes). The reservation refuses a store at its cap too.
    const sizes = files.map((f) => f.size);
    const reservation = await this.deps.quota?.reserve({ userId: actor.user?.id ?? null, ip: actor.client.ip }, totalBytes(sizes));

    const upload = randomBytes(18).toString('base64url');
    const record: SegmentedUploadRecord = {
      ownerId: actor.user?.id ?? null,
      urlToken: newUrlToken(),
      fileIds: sizes.map(() => randomBytes(9).toString('base64url')),
      push,
      sizes,
      sliceBytes: SLICE_BYTES,
      startedAt: new Date().toISOString(),
      reservation: reservation?.kept,
    };
    await this.deps.vault.write(this.storageId(upload), RECORD, Readable.from([Buffer.from(JSON.stringify(record))]));
    return this.stateOf(upload, record, record.sizes.map(() => 0));
  }

  async state(actor: Actor, upload: string): Promise<SliceUploadState> {
    const record = await this.load(actor, upload);
    const received = await Promise.all(record.sizes.map((_, i) => this.received(record, i)));
    return this.stateOf(upload, record, received);
  }

  /**
   * Stores a slice of file `file` at `offset` from `body`, which the client declared
   * `declaredBytes` long (its Content-Length). Out of order is refused (409) with where the
   * file stands; a slice already stored is answered as it was.
   */
  async addSlice(actor: Actor, upload: string, fileParam: string, offsetParam: string | undefined, declaredBytes: number | undefined, body: Readable): Promise<SliceReceipt> {
    const record = await this.load(actor, upload);
    const file = /^\d{1,3}$/.test(fileParam) ? Number(fileParam) : -1;
    const size = record.sizes[file];
    if (size === undefined) throw new ServiceError('not_found', `This upload has no file ${fileParam} (its files are 0 to ${record.sizes.length - 1}).`);
    const offset = offsetParam !== undefined && /^\d{1,16}$/.test(offsetParam) ? Number(offsetParam) : -1;
    if (offset < 0 || offset >= size || offset % record.sliceBytes !== 0) {
      throw new ServiceError('bad_request', `offset must be a multiple of ${record.sliceBytes} below the file's size (${size}); got ${offsetParam ?? 'none'}.`);
    }
    const bytes = Math.min(record.sliceBytes, size - offset);
    const wrongLength = (kind: 'bad_request' | 'payload_too_large', got: number | string) =>
      new ServiceError(kind, `The slice of file ${file} at offset ${offset} must be ${bytes} bytes long; this one is ${got}.`);
    if (declaredBytes === undefined) throw new ServiceError('bad_request', 'A slice needs a Content-Length.');
    if (declaredBytes > bytes) throw wrongLength('payload_too_large', declaredBytes);
    if (declaredBytes < bytes) throw wrongLength('bad_request', declaredBytes);

    return this.oneStepAtATime(upload, async () => {
      const sid = this.storageId(upload);
      const pushSid = this.deps.ids.of(record.urlToken);
      const fileId = record.fileIds[file]!;
      const seq = offset / record.sliceBytes;
      const receipt = { file, offset, next_offset: offset + bytes };
      // Given up or finished by a request beside this one (the record was loaded before this
      // step's turn): a slice stored now would belong to no upload and no push.
      if ((await this.deps.blobs.size(sid, RECORD)) === undefined) throw UPLOAD_GONE();
      if ((await this.deps.blobs.size(pushSid, segmentBlobId(fileId, seq))) !== undefined) {
        body.resume();
        await finished(body);
        return receipt;
      }
      if (seq > 0 && (await this.deps.blobs.size(pushSid, segmentBlobId(fileId, seq - 1))) === undefined) {
        const received = await this.received(record, file);
        throw new ServiceError('conflict', `Slices of a file go in order: file ${file} has ${received} bytes so far, so its next slice starts at offset ${received}.`);
      }
      await this.deps.pushes.assertStorageRoom();
      const final = offset + bytes === size;
      await this.deps.vault.writeSegment(pushSid, fileId, seq, final, pipeline(body, exactly(bytes, () => wrongLength('payload_too_large', 'longer')), () => {}));
      return receipt;
    });
  }

  /**
   * Creates the push (PushService.create's rules) over the segments the slices stored: no file
   * byte is written or copied. Asked again within FINISHED_ANSWER_MS, answers with that push.
   */
  async finish(actor: Actor, upload: string): Promise<OwnerPushRecord> {
    const answered = await this.finishedPush(actor, upload);
    if (answered) return answered;
    const record = await this.load(actor, upload);
    return this.oneStepAtATime(upload, async () => {
      const sid = this.storageId(upload);
      // A finish that waited for another (on this instance or another) answers with its push.
      if ((await this.deps.blobs.size(sid, RECORD)) === undefined) {
        const created = await this.finishedPush(actor, upload);
        if (created) return created;
        throw UPLOAD_GONE();
      }
      for (const [file, size] of record.sizes.entries()) {
        const received = await this.received(record, file);
        if (received < size) throw new ServiceError('conflict', `File ${file} is not complete: ${received} of its ${size} bytes have arrived.`);
      }
      const files = this.deps.pushes.openSlicedFileUpload(actor, record.urlToken);
      for (const [file, size] of record.sizes.entries()) {
        const stored = { id: record.fileIds[file]!, contentType: 'application/octet-stream', size, segmentBytes: record.sliceBytes };
        files.addStored(`file-${file + 1}.bin`, stored, await this.headOf(files.storageId, stored));
      }
      const created = await this.deps.pushes.create(actor, record.push, files, { reservedBytes: totalBytes(record.sizes) });
      await this.deps.blobs.removeAll(sid);
      const finished: FinishedRecord = { ownerId: record.ownerId, token: created.url_token, finishedAt: new Date().toISOString() };
      // The push exists and is answered whether or not this is kept (a retry would then be a 404).
      await this.deps.vault.write(sid, FINISHED, Readable.from([Buffer.from(JSON.stringify(finished))])).catch(() => undefined);
      return created;
    });
  }

  /** The push a finished upload created, for its starter, while its answer is kept; else undefined. */
  private async finishedPush(actor: Actor, upload: string): Promise<OwnerPushRecord | undefined> {
    const finished = await this.starterBlob<FinishedRecord>(actor, upload, FINISHED, (f) => f.finishedAt, FINISHED_ANSWER_MS, (sid) => this.deps.blobs.removeAll(sid));
    return finished && this.deps.pushes.creatorRecord(actor, finished.token);
  }

  /**
   * One of the upload's own blobs (its record, or the note of the push it made), for the
   * upload's starter (the same account, or anyone with the id when it was started anonymously):
   * undefined when there is none; refused (404) once `keptMs` after `since` have passed, after
   * `onOutlived`, and to anyone else (403).
   */
  private async starterBlob<T extends { ownerId: string | null }>(
    actor: Actor,
    upload: string,
    name: string,
    since: (blob: T) => string,
    keptMs: number,
    onOutlived?: (sid: string) => Promise<void>,
  ): Promise<T | undefined> {
    this.deps.pushes.assertApiAccess(actor);
    if (!UPLOAD_ID.test(upload)) throw UPLOAD_GONE();
    const sid = this.storageId(upload);
    if ((await this.deps.blobs.size(sid, name)) === undefined) return undefined;
    const blob = (await this.readJson(sid, name)) as T;
    if (Date.now() - Date.parse(since(blob)) > keptMs) {
      await onOutlived?.(sid);
      throw UPLOAD_GONE();
    }
    if (blob.ownerId && blob.ownerId !== actor.user?.id) throw new ServiceError('forbidden', "That upload doesn't belong to you.");
    return blob;
  }

  private async readJson(sid: string, name: string): Promise<unknown> {
    const parts: Buffer[] = [];
    try {
      for await (const chunk of await this.deps.vault.read(sid, name)) parts.push(chunk as Buffer);
    } catch (e) {
      // Removed while being read (the upload finished or was given up by a request beside this
      // one, which a step's turn does not cover: loading happens before it).
      if ((await this.deps.blobs.size(sid, name)) === undefined) throw UPLOAD_GONE();
      throw e;
    }
    return JSON.parse(Buffer.concat(parts).toString('utf8'));
  }

  /**
   * Gives an upload up: its slices are removed at once, and the daily quota its start reserved
   * is given back (nothing of it stays stored; one left unfinished keeps its reservation, as its
   * slices stay until the sweep).
   */
  async abandon(actor: Actor, upload: string): Promise<void> {
    // Uploads started before slices were stored as segments too (every other step answers them
    // 404 "start it again"): their client can still give them up, and the quota comes back.
    const record = await this.loadAnyVersion(actor, upload);
    await this.oneStepAtATime(upload, async () => {
      const sid = this.storageId(upload);
      // Given up meanwhile by another request: given back once.
      if ((await this.deps.blobs.size(sid, RECORD)) === undefined) throw UPLOAD_GONE();
      await this.deps.blobs.removeAll(sid);
      if (record.urlToken) await this.deps.blobs.removeAll(this.deps.ids.of(record.urlToken));
      if (record.reservation) await this.deps.quota?.releaseKept(record.reservation);
    });
  }

  private storageId(upload: string) {
    return this.deps.ids.of(`upload:${upload}`);
  }

  /** The upload's record, for its starter. */
  private async load(actor: Actor, upload: string): Promise<SegmentedUploadRecord> {
    const record = await this.loadAnyVersion(actor, upload);
    if (!record.urlToken || !record.fileIds) {
      throw new ServiceError('not_found', 'This upload was started before the server was upgraded and cannot be finished: start it again.');
    }
    return record as SegmentedUploadRecord;
  }

  /** The upload's record as stored, whichever version started it, for its starter. */
  private async loadAnyVersion(actor: Actor, upload: string): Promise<UploadRecord> {
    const record = await this.starterBlob<UploadRecord>(actor, upload, RECORD, (r) => r.startedAt, UPLOAD_TTL_MS);
    if (!record) throw UPLOAD_GONE();
    return record;
  }

  /** Bytes of `file` stored so far, from its start (slices are stored in order). */
  private async received(record: SegmentedUploadRecord, file: number): Promise<number> {
    const pushSid = this.deps.ids.of(record.urlToken);
    let seq = 0;
    while (seq * record.sliceBytes < record.sizes[file]! && (await this.deps.blobs.size(pushSid, segmentBlobId(record.fileIds[file]!, seq))) !== undefined) seq++;
    return Math.min(record.sizes[file]!, seq * record.sliceBytes);
  }

  /** A stored file's first bytes, for the end-to-end framing check (its first segment's start, nothing more is read). */
  private async headOf(pushSid: string, file: { id: string; size: number; segmentBytes: number }): Promise<Uint8Array> {
    const parts: Buffer[] = [];
    for await (const chunk of await this.deps.vault.readFileRange(pushSid, file, 0, Math.min(HEADER_BYTES, file.size))) parts.push(chunk as Buffer);
    return Buffer.concat(parts);
  }

  private stateOf(upload: string, record: UploadRecord, received: number[]): SliceUploadState {
    return {
      upload,
      slice_bytes: record.sliceBytes,
      files: record.sizes.map((size, i) => ({ size, received: received[i]! })),
      expires_at: new Date(Date.parse(record.startedAt) + UPLOAD_TTL_MS).toISOString(),
    };
  }

  /**
   * Runs a step of an upload while no other step of it runs anywhere: queued behind this
   * instance's own steps (a retried slice waits for its first try), and leased in the shared
   * counters against other instances' (behind a load balancer a retry may reach another one;
   * two finishes at once would create the push twice). A step leased elsewhere is a 409 with
   * Retry-After.
   */
  private oneStepAtATime<T>(upload: string, step: () => Promise<T>): Promise<T> {
    return this.inTurn(upload, async () => {
      const { counters } = this.deps;
      const lease = await counters.claim([{ key: `sliced-upload:${this.storageId(upload)}`, limit: 1, windowMs: STEP_LEASE_MS }], Date.now());
      if (!lease.allowed) {
        throw new ServiceError('conflict', 'Another request of this upload is still running on another server: try again shortly.', undefined, lease.retryAfterSeconds);
      }
      try {
        return await step();
      } finally {
        await counters.forgive(lease.ids);
      }
    });
  }

  private inTurn<T>(upload: string, step: () => Promise<T>): Promise<T> {
    const next = (this.turns.get(upload) ?? Promise.resolve()).then(step, step);
    const settled = next.catch(() => undefined);
    this.turns.set(upload, settled);
    void settled.then(() => this.turns.get(upload) === settled && this.turns.delete(upload));
    return next;
  }
}
