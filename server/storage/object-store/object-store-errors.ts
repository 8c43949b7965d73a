import { StorageUnavailableError } from '../store.js';

interface SdkError {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

/** A 404 of the object store: the object (or the upload) is not there. */
export function isMissingObject(e: unknown): boolean {
  const err = e as SdkError;
  return err?.name === 'NoSuchKey' || err?.name === 'NotFound' || err?.$metadata?.httpStatusCode === 404;
}

/**
 * The object store's failures as the services know them: unreachable (refused, reset, timed
 * out, DNS), throttled or failing (5xx, 429) and refusing our credentials (403) all mean files
 * cannot be stored or read right now, and so does a bucket that does not exist (NoSuchBucket) —
 * StorageUnavailableError, a 503 with Retry-After — and
 * never a 500. Anything else (a bug of ours) goes on as it is.
 */
export function asObjectStoreError(e: unknown, what: string): unknown {
  if (e instanceof StorageUnavailableError) return e;
  const err = e as SdkError;
  const status = err?.$metadata?.httpStatusCode;
  const network = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'].includes(err?.code ?? '');
  const timedOut = err?.name === 'TimeoutError' || err?.name === 'RequestTimeout';
  // S3_BUCKET names no bucket (a typo, not created yet): files cannot be stored until the
  // operator mends it, like a store that is down; the log names NoSuchBucket.
  const noBucket = err?.name === 'NoSuchBucket';
  if (network || timedOut || noBucket || (status !== undefined && (status >= 500 || status === 429 || status === 403)) || (err?.$metadata !== undefined && status === undefined)) {
    return new StorageUnavailableError(`${what} (${err?.code ?? err?.name ?? status ?? 'unreachable'})`);
  }
  return e;
}
