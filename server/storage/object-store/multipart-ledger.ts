import { AbortMultipartUploadCommand, type S3Client } from '@aws-sdk/client-s3';
import type { Store } from '../store.js';
import { isMissingObject } from './object-store-errors.js';

/** Where the multipart uploads we start are recorded: the store (shared by every instance). */
export type MultipartLedger = Pick<Store, 'recordMultipartUpload' | 'forgetMultipartUpload' | 'listMultipartUploads'>;

/**
 * Records every multipart upload `client` starts, as soon as the object store has given it an
 * id and before its first part is sent (lib-storage sends parts only after its create call
 * returns, and this runs inside that call), and forgets it once completed or aborted. A record
 * that cannot be written fails the create: lib-storage then aborts the upload it began.
 * An instance killed mid-upload leaves its record for the sweep (abortRecordedUploads).
 */
export function recordMultipartUploads(client: S3Client, ledger: MultipartLedger): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const input = args.input as { Key?: string; UploadId?: string };
      if (context.commandName === 'CreateMultipartUploadCommand') {
        const out = result.output as { UploadId?: string; Key?: string };
        if (out.UploadId) await ledger.recordMultipartUpload({ uploadId: out.UploadId, key: out.Key ?? input.Key!, startedAt: new Date().toISOString() });
      } else if ((context.commandName === 'CompleteMultipartUploadCommand' || context.commandName === 'AbortMultipartUploadCommand') && input.UploadId) {
        await ledger.forgetMultipartUpload(input.UploadId);
      }
      return result;
    },
    { step: 'initialize', name: 'recordMultipartUploads' },
  );
}

/** Whether the object store does not implement aborting multipart uploads (s3rver answers 405 MethodNotAllowed). */
function cannotAbort(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name === 'NotImplemented' || err?.name === 'MethodNotAllowed' || err?.$metadata?.httpStatusCode === 405 || err?.$metadata?.httpStatusCode === 501;
}

export interface RecordedAbortOutcome {
  /** Aborted now, or found gone (completed or aborted by the store's lifecycle rule): records forgotten. */
  aborted: number;
  /** Kept: the object store cannot abort them (its lifecycle rule must). */
  kept: number;
}

/**
 * Aborts up to `limit` recorded multipart uploads started before `before` (an instance died
 * mid-upload: their parts cost storage and no push will ever reference them), without listing
 * the bucket's uploads, which not every S3-compatible server can do. One the store no longer
 * knows (404 NoSuchUpload) is forgotten; where the store cannot abort at all, the records are
 * kept, `onUnsupported` is told, and the sweep goes on with its other work.
 */
export async function abortRecordedUploads(client: S3Client, bucket: string, ledger: MultipartLedger, before: Date, limit: number, onUnsupported: () => void): Promise<RecordedAbortOutcome> {
  const recorded = await ledger.listMultipartUploads(before, limit);
  let aborted = 0;
  for (const u of recorded) {
    try {
      // Forgotten by recordMultipartUploads once it succeeds.
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: u.key, UploadId: u.uploadId }));
      aborted++;
    } catch (e) {
      if (isMissingObject(e)) {
        await ledger.forgetMultipartUpload(u.uploadId);
        aborted++;
      } else if (cannotAbort(e)) {
        // The others would be refused alike.
        onUnsupported();
        return { aborted, kept: recorded.length - aborted };
      } else throw e;
    }
  }
  return { aborted, kept: 0 };
}
