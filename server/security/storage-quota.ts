import { ServiceError } from '../service-error.js';
import type { LimitCounters, Store } from '../storage/store.js';
import { clientKey } from './client-key.js';

const MB = 1_048_576;
const DAY_MS = 86_400_000;
/** How long a measurement of the store's size is reused (bytes written since are added to it). */
const MEASURE_EVERY_MS = 5_000;

export interface StorageLimits {
  /** The whole store, in MiB (0: no cap). */
  maxStorageMb: number;
  /** What one account may store per rolling day, in MiB (0: no cap). */
  accountMbPerDay: number;
  /** What one client address may store anonymously per rolling day, in MiB (0: no cap). */
  anonymousMbPerIpPerDay: number;
}

/** Who is storing: an account, or an anonymous client address. */
export interface Storer {
  userId: string | null;
  ip: string;
}

/** Bytes set aside for a write; `release` gives them back when the write did not happen. */
export interface Reservation {
  release(): Promise<void>;
  /** The reservation as data, for a write that spans requests (a sliced upload): see releaseKept. */
  kept: KeptReservation;
}

/** A reservation's daily-quota claims, kept beside a write that outlives the request that made it. */
export interface KeptReservation {
  ids: string[];
}

/**
 * Storage quotas, so that nobody can fill the disk: a cap on the whole store (MAX_STORAGE_MB,
 * 507 when reached) and, per rolling day, on what one account or one anonymous client address
 * may store (429 with Retry-After). A write reserves its bytes before anything is stored and
 * gives them back if it fails, so a refused write leaves nothing behind. The store's size is
 * measured at most every few seconds; bytes reserved since the last measurement count on top.
 */
export class StorageQuota {
  private measured = 0;
  private measuredAt = -Infinity;
  private reservedSince = 0;
  private measuring: Promise<void> | null = null;

  constructor(
    private readonly store: Pick<Store, 'storedBytes'>,
    private readonly counters: LimitCounters,
    private readonly limits: StorageLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** Refuses with 507 when the store is already at its cap (before an upload is even read). */
  async assertRoom(): Promise<void> {
    if (this.limits.maxStorageMb > 0 && (await this.used()) >= this.limits.maxStorageMb * MB) throw this.full();
  }

  /**
   * Whether a reservation for `storer` would check or count anything: with no cap and no daily
   * quota for them, a caller need not work out what a write will store (a create would otherwise
   * serialise the whole push once more just to measure it).
   */
  counts(storer: Storer): boolean {
    return this.limits.maxStorageMb > 0 || (storer.userId ? this.limits.accountMbPerDay : this.limits.anonymousMbPerIpPerDay) > 0;
  }

  /** Sets `bytes` aside for `storer`, or refuses (507 for the store's cap, 429 for a daily quota). */
  async reserve(storer: Storer, bytes: number): Promise<Reservation> {
    const cap = this.limits.maxStorageMb * MB;
    if (cap > 0 && (await this.used()) + bytes > cap) throw this.full();
    const perDay = storer.userId ? this.limits.accountMbPerDay : this.limits.anonymousMbPerIpPerDay;
    let ids: string[] = [];
    if (perDay > 0) {
      const key = storer.userId ? `storage:account:${storer.userId}` : `storage:ip:${clientKey(storer.ip)}`;
      const claim = await this.counters.claim([{ key, limit: perDay * MB, windowMs: DAY_MS }], this.now(), Math.max(1, bytes));
      if (!claim.allowed) {
        const setting = storer.userId ? 'ACCOUNT_STORAGE_MB_PER_DAY' : 'ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY';
        const who = storer.userId ? 'This account has' : 'Your address has';
        throw new ServiceError(
          'too_many_requests',
          `${who} stored too much in the last 24 hours (the limit is ${perDay} MB a day, ${setting}). Try again later, or store less.`,
          undefined,
          claim.retryAfterSeconds,
        );
      }
      ids = claim.ids;
    }
    this.reservedSince += bytes;
    return {
      kept: { ids },
      release: async () => {
        this.reservedSince = Math.max(0, this.reservedSince - bytes);
        await this.releaseKept({ ids });
      },
    };
  }

  /** Gives back a kept reservation's daily quota (its bytes were removed unused). */
  async releaseKept(kept: KeptReservation): Promise<void> {
    if (kept.ids.length) await this.counters.forgive(kept.ids);
  }

  private full() {
    return new ServiceError(
      'insufficient_storage',
      `The server's storage is full (the limit is ${this.limits.maxStorageMb} MB, MAX_STORAGE_MB). Nothing was stored; try again after older pushes expire.`,
    );
  }

  private async used(): Promise<number> {
    if (this.now() - this.measuredAt > MEASURE_EVERY_MS) {
      this.measuring ??= this.store
        .storedBytes()
        .then((bytes) => {
          this.measured = bytes;
          this.measuredAt = this.now();
          this.reservedSince = 0;
        })
        .finally(() => (this.measuring = null));
      await this.measuring;
    }
    return this.measured + this.reservedSince;
  }
}
