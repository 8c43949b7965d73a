import type { Logger } from '../logger.js';
import { StoreNotReady, type Store } from '../storage/store.js';

export type ReadinessState = { ready: true } | { ready: false; reason: string };

/**
 * Whether this instance should get traffic: not while it shuts down, and not while its store
 * cannot take writes. The reason given out is a short category; the store's own words (which
 * may name hosts or files) go to the log, once per change of state.
 */
export class Readiness {
  private draining = false;
  private lastReason: string | null = null;

  constructor(
    private readonly store: Pick<Store, 'checkReady'>,
    private readonly logger: Logger,
  ) {}

  /** From now on the instance reports itself not ready (the first step of a shutdown). */
  drain() {
    this.draining = true;
  }

  get isDraining() {
    return this.draining;
  }

  async check(): Promise<ReadinessState> {
    if (this.draining) return { ready: false, reason: 'shutting down' };
    const problem = await this.store.checkReady().then(
      () => null,
      (e: unknown) => e,
    );
    if (!problem) {
      if (this.lastReason) this.logger.info('ready again: the store takes writes');
      this.lastReason = null;
      return { ready: true };
    }
    const reason = problem instanceof StoreNotReady ? problem.category : 'the store is unavailable';
    if (reason !== this.lastReason) this.logger.error(`not ready: ${reason}`, problem);
    this.lastReason = reason;
    return { ready: false, reason };
  }
}
