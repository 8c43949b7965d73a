import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { KeyRing } from '../crypto/key-ring.js';
import type { StoredFile } from '../storage/records.js';
import type { FileVault } from '../storage/file-vault.js';
import { ServiceError } from '../service-error.js';

/**
 * The files of a push being created: each is streamed encrypted to disk as it arrives, before
 * the push record exists; `discard` removes them when the push is then refused.
 */
export class FileUpload {
  private readonly slots: (StoredFile | undefined)[] = [];
  private reserved = 0;

  constructor(
    /** The URL token the push will have. */
    readonly token: string,
    /** Its storage id (the files are stored under it). */
    readonly storageId: string,
    private readonly vault: FileVault,
    private readonly keys: KeyRing,
    private readonly maxFiles: number,
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
    const size = await this.vault.write(this.storageId, id, stream);
    this.slots[slot] = { id, name: this.keys.seal(safeName), contentType: contentType || 'application/octet-stream', size };
  }

  /** The stored files, in upload order. */
  get files(): StoredFile[] {
    return this.slots.filter((f): f is StoredFile => f !== undefined);
  }

  discard(): Promise<void> {
    return this.vault.removeAll(this.storageId);
  }
}
