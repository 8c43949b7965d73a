import { ServiceError } from '../service-error.js';
import { hashSecret, verifySecret } from './secret-hash.js';

export interface HashingLimits {
  /** scrypt computations at once. */
  concurrency: number;
  /** Computations allowed to wait for a slot; beyond that the caller is refused at once. */
  maxWaiting: number;
  /** scrypt's cost for new hashes, log2 N (PASSWORD_HASH_COST; default 14). */
  cost?: number;
}

/** What a caller is told when the queue is full (503 with Retry-After). */
export const HASHING_BUSY_MESSAGE = 'The server is busy checking passwords and passphrases. Please try again in a few seconds.';
const BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * Every scrypt computation (passwords, passphrases) goes through here. scrypt runs on libuv's
 * thread pool (4 threads by default), which the file system calls of every request share: an
 * unbounded number of hashes at once (a tRPC batch of passphrase checks) held every thread, so
 * that even plain creates waited for their fsync behind them. At most `concurrency` hashes run
 * at once (fewer than the pool's threads), at most `maxWaiting` wait; past that the request is
 * refused with 503 and Retry-After instead of waiting without bound.
 */
export class HashingQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limits: HashingLimits = { concurrency: 2, maxWaiting: 64 }) {}

  hash(secret: string): Promise<string> {
    return this.run(() => hashSecret(secret, this.limits.cost));
  }

  verify(secret: string, stored: string): Promise<boolean> {
    return this.run(() => verifySecret(secret, stored));
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.concurrency) {
      if (this.waiting.length >= this.limits.maxWaiting) {
        throw new ServiceError('unavailable', HASHING_BUSY_MESSAGE, undefined, BUSY_RETRY_AFTER_SECONDS);
      }
      // The slot is handed over by the finishing computation (running stays counted), so a
      // newcomer can never overtake a waiter.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
