import { nextClaimAt, type FailureClaim, type LimitCounters, type LimitedKey } from '../store.js';

/**
 * The embedded store's counters: in this process's memory, which is exactly as shared as the
 * embedded store itself (one server per data directory). Counts are lost on restart, as a
 * minute's window would have passed by the time a restarted server matters.
 */
export class MemoryLimitCounters implements LimitCounters {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  /** Key → its claims, oldest first (`until`: when the claim's window has passed). */
  private readonly failures = new Map<string, { id: string; at: number; weight: number; until: number }[]>();
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

  /** The key's claims still in `windowMs` before `now`, oldest first (older ones are dropped). */
  private recent(key: string, windowMs: number, now: number) {
    const list = (this.failures.get(key) ?? []).filter((c) => now - c.at < windowMs);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  async claim(keys: LimitedKey[], now: number, weight = 1): Promise<FailureClaim> {
    let retryAt = now;
    for (const rule of keys) retryAt = Math.max(retryAt, nextClaimAt(rule, this.recent(rule.key, rule.windowMs, now), now, weight));
    if (retryAt > now) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((retryAt - now) / 1000)) };
    const ids = keys.map(({ key, windowMs }) => {
      const id = String(++this.nextId);
      const list = this.failures.get(key) ?? [];
      list.push({ id, at: now, weight, until: now + windowMs });
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
      const list = this.failures.get(key)?.filter((c) => c.id !== id) ?? [];
      if (list.length) this.failures.set(key, list);
      else this.failures.delete(key);
    }
  }

  async prune(now: number) {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
    for (const [key, list] of this.failures) {
      const kept = list.filter((c) => c.until > now || !this.failureKeyOf.delete(c.id));
      if (kept.length) this.failures.set(key, kept);
      else this.failures.delete(key);
    }
  }
}
