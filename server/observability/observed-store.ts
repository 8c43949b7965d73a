import { auditList } from '../storage/outbox.js';
import type { AuditRecord, StoredPush } from '../storage/records.js';
import type { PushChange, Store } from '../storage/store.js';
import type { Metrics } from './metrics.js';

type Change<T> = (push: StoredPush) => PushChange<T>;

/**
 * The store as the services see it when metrics are on: every operation is timed, and what the
 * store commits is counted as push events. Counting at the store, from the audit entries and
 * expiry transitions it has durably written, counts each event once whatever path caused it
 * (REST, tRPC, pages, the sweep on any instance) and never counts a change that failed.
 */
export function observedStore(store: Store, metrics: Metrics): Store {
  const committed = (before: StoredPush, next: StoredPush | undefined, audit: AuditRecord | AuditRecord[] | undefined) => {
    for (const entry of auditList(audit)) {
      if (entry.kind === 'view') metrics.pushesViewed.labels(before.kind).inc();
      if (entry.kind === 'failed_passphrase') metrics.passphraseFailures.inc();
    }
    if (!before.expiredAt && next?.expiredAt) metrics.pushesExpired.labels(before.kind).inc();
  };

  /** Wraps a change so that its last run (the one the store committed) is remembered. */
  const remembering = <T>(change: Change<T>, runs: Map<string, () => void>): Change<T> => (push) => {
    const out = change(push);
    runs.set(push.token, () => committed(push, out.next, out.audit));
    return out;
  };

  const events: Partial<Store> = {
    async insertPush(push, ...rest) {
      // Every argument passed on (the mails and the link too, not only the events).
      await store.insertPush(push, ...rest);
      metrics.pushesCreated.labels(push.kind).inc();
    },
    async updatePush<T>(token: string, change: Change<T>, seen?: StoredPush) {
      const runs = new Map<string, () => void>();
      const result = await store.updatePush(token, remembering(change, runs), seen);
      for (const report of runs.values()) report();
      return result;
    },
    async updateDuePushes<T>(due: Parameters<Store['updateDuePushes']>[0], now: Date, limit: number, change: Change<T>) {
      const runs = new Map<string, () => void>();
      const results = await store.updateDuePushes(due, now, limit, remembering(change, runs));
      for (const report of runs.values()) report();
      return results;
    },
    async appendAudit(token, entry) {
      await store.appendAudit(token, entry);
      if (entry.kind === 'failed_passphrase') metrics.passphraseFailures.inc();
    },
  };

  return timed(Object.assign(Object.create(store) as Store, events), '', metrics, store);
}

/**
 * Times every method that returns a promise, as `operation` (`getPush`, `blobs.write`,
 * `counters.hit`…) with its outcome. `source` is the object whose methods run (so that private
 * fields still resolve on the real instance).
 */
function timed<T extends object>(target: T, prefix: string, metrics: Metrics, source: object): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      const value = Reflect.get(obj, prop, receiver);
      if (prop === 'blobs' || prop === 'counters') return timed(value as object, `${String(prop)}.`, metrics, value as object);
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      const owner = Object.hasOwn(obj, prop) ? obj : source;
      const operation = prefix + prop;
      return (...args: unknown[]) => {
        const stop = metrics.storeDuration.startTimer({ operation });
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(owner, args);
        } catch (e) {
          stop({ outcome: 'error' });
          throw e;
        }
        if (!(result instanceof Promise)) {
          stop({ outcome: 'ok' });
          return result;
        }
        return result.then(
          (v) => (stop({ outcome: 'ok' }), v),
          (e) => {
            stop({ outcome: 'error' });
            throw e;
          },
        );
      };
    },
  });
}
