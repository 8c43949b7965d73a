import type { FailureClaim, LimitCounters, LimitedKey } from '../store.js';

/**
 * The embedded store's counters: in this process's memory, which is exactly as shared as the
 * embedded store itself (one server per data directory). Counts are lost on restart, as a
 * minute's window would have passed by the time a restarted server matters.
 */
export class MemoryLimitCounters implements LimitCounters {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  /** Key → [id, time] of failures, oldest first. */
  private readonly failures = new Map<string, [string, number][]>();
  private readonly failureKeyOf = new Map<string, string>();
  private nextId = 0;

  async hit(key: string, windowMs: number, now: number, amount = 1) {
    const start = now - (now % windowMs);
    let entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: start + windowMs };
      this.hits.set(key, entry);
    }
    entry.count += amount;
    return { ...entry };
  }

  async unhit(key: string, _windowMs: number, now: number) {
    const entry = this.hits.get(key);
    if (entry && entry.resetAt > now && entry.count > 0) entry.count--;
  }

  async resetHits(key: string) {
    this.hits.delete(key);
  }

  private recent(key: string, windowMs: number, now: number) {
    const list = (this.failures.get(key) ?? []).filter(([, at]) => now - at < windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  async claimFailure(keys: LimitedKey[], windowMs: number, now: number): Promise<FailureClaim> {
    let retryAfterMs = 0;
    for (const { key, limit } of keys) {
      const list = this.recent(key, windowMs, now);
      // The window frees a slot when the oldest failure that keeps it full turns windowMs old.
      if (list.length >= limit) retryAfterMs = Math.max(retryAfterMs, list[list.length - limit]![1] + windowMs - now);
    }
    if (retryAfterMs > 0) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
    const ids = keys.map(({ key }) => {
      const id = String(++this.nextId);
      const list = this.failures.get(key) ?? [];
      list.push([id, now]);
      this.failures.set(key, list);
      this.failureKeyOf.set(id, key);
      return id;
    });
    return { allowed: true, ids };
  }

  async forgive(ids: string[]) {
    for (const id of ids) {
      const key = this.failureKeyOf.get(id);
      if (key === undefined) continue;
      this.failureKeyOf.delete(id);
      const list = this.failures.get(key)?.filter(([i]) => i !== id) ?? [];
      if (list.length) this.failures.set(key, list);
      else this.failures.delete(key);
    }
  }

  async prune(before: number) {
    for (const [key, entry] of this.hits) if (entry.resetAt <= before) this.hits.delete(key);
    for (const [key, list] of this.failures) {
      const kept = list.filter(([id, at]) => at >= before || !this.failureKeyOf.delete(id));
      if (kept.length) this.failures.set(key, kept);
      else this.failures.delete(key);
    }
  }
}
