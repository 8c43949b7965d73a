import { randomBytes } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import type { KeyRing } from '../crypto/key-ring.js';
import type { StoredFile } from '../storage/records.js';
import type { FileVault } from '../storage/file-vault.js';
import { ServiceError } from '../service-error.js';
import { EnvelopeHeadTap, type UploadedFileFacts } from './end-to-end.js';

const MiB = 1_048_576;

/** A file over MAX_FILE_BYTES (413): the limit as people read it, and exactly. */
export function fileTooLarge(maxFileBytes: number): ServiceError {
  const readable = maxFileBytes < MiB ? null : `${Number((maxFileBytes / MiB).toFixed(1))} MiB`;
  return new ServiceError('payload_too_large', `A file is larger than the limit of ${readable ? `${readable} (${maxFileBytes} bytes)` : `${maxFileBytes} bytes`}.`);
}

/**
 * The files of a push being created: each is streamed encrypted to disk as it arrives, before
 * the push record exists; `discard` removes them when the push is then refused.
 */
export class FileUpload {
  private readonly slots: (StoredFile | undefined)[] = [];
  private readonly facts: (UploadedFileFacts | undefined)[] = [];
  private reserved = 0;

  constructor(
    /** The URL token the push will have. */
    readonly token: string,
    /** Its storage id (the files are stored under it). */
    readonly storageId: string,
    private readonly vault: FileVault,
    private readonly keys: KeyRing,
    private readonly maxFiles: number,
    private readonly options: { keepOnRefusal?: boolean } = {},
  ) {}

  async add(filename: string, contentType: string, stream: Readable): Promise<void> {
    // The slot is taken before the (slower) encrypted write, so files keep their upload order
    // and concurrent parts cannot slip past the count limit.
    const slot = this.reserved++;
    if (slot >= this.maxFiles) {
      stream.resume();
      throw ServiceError.validation({ files: [`too many files (maximum is ${this.maxFiles})`] });
    }
    const id = randomBytes(9).toString('base64url');
    const safeName = filename.replace(/[\u0000-\u001f\u007f/\\]/g, '_').slice(0, 255) || 'file';
    // The first bytes are kept for the end-to-end framing check (the kind is known only once
    // every field has arrived, which may be after the files).
    const tap = new EnvelopeHeadTap();
    const size = await this.vault.write(this.storageId, id, pipeline(stream, tap, () => {}));
    this.facts[slot] = { head: tap.head, size };
    this.slots[slot] = { id, name: this.keys.seal(safeName), contentType: contentType || 'application/octet-stream', size };
  }

  /**
   * Adds a file already stored under this upload's storage id (a sliced upload's segments):
   * nothing is written, the push will reference it as it is.
   */
  addStored(filename: string, file: Omit<StoredFile, 'name'>, head: Uint8Array): void {
    const slot = this.reserved++;
    if (slot >= this.maxFiles) throw ServiceError.validation({ files: [`too many files (maximum is ${this.maxFiles})`] });
    this.facts[slot] = { head, size: file.size };
    this.slots[slot] = { ...file, name: this.keys.seal(filename) };
  }

  /** The stored files, in upload order. */
  get files(): StoredFile[] {
    return this.slots.filter((f): f is StoredFile => f !== undefined);
  }

  /** First bytes and size of each stored file, in upload order (for the end-to-end check). */
  get fileFacts(): UploadedFileFacts[] {
    return this.facts.filter((f): f is UploadedFileFacts => f !== undefined);
  }

  /** Removes the files of a refused push (unless they are a sliced upload's, kept for its next finish). */
  async discard(): Promise<void> {
    if (this.options.keepOnRefusal) return;
    await this.vault.removeAll(this.storageId);
  }
}
