import { StorageUnavailableError } from '../store.js';

/** A disk that refuses writes (full, over quota, read-only) is unavailable storage: 503, not 500. */
export function asStorageError(e: unknown, what: string): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS') return new StorageUnavailableError(`${what} (${code})`);
  return e;
}
