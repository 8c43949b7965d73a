import { randomBytes } from 'node:crypto';
import { nextClaimAt, type ClaimWindow, type FailureClaim, type LimitCounters, type LimitedKey } from '../store.js';

interface Claim {
  id: string;
  at: number;
  weight: number;
  until: number;
}

/** A key's claims, oldest first from `head` (older ones are dropped from the front), and their total weight. */
interface ClaimLog {
  claims: Claim[];
  head: number;
  used: number;
}

/**
 * The embedded store's counters: in this process's memory, which is exactly as shared as the
 * embedded store itself (one server per data directory). Counts are lost on restart, as a
 * minute's window would have passed by the time a restarted server matters.
 */
export class MemoryLimitCounters implements LimitCounters {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  /** Key → its claims, oldest first (`until`: when the claim's window has passed). */
  private readonly failures = new Map<string, ClaimLog>();
  /** Claim id → its key and the claim, so that forgiving one costs no scan. */
  private readonly claimsById = new Map<string, { key: string; claim: Claim }>();
  private nextId = 0;
  /** Claim ids begin with it: a restarted process, counting from 0 again, never hands out an earlier id. */
  private readonly idPrefix = `${randomBytes(6).toString('base64url')}-`;

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

  /**
   * The key's claims still in `windowMs` before `now`. Claims are appended in time order, so the
   * ones that left the window are at the front: dropping them is amortised O(1), and the total
   * is kept as they come and go, so a key with a day of claims costs what a key with one does.
   */
  private window(key: string, windowMs: number, now: number): ClaimWindow {
    const log = this.failures.get(key);
    if (log) {
      while (log.head < log.claims.length && now - log.claims[log.head]!.at >= windowMs) this.drop(key, log, log.claims[log.head++]!);
      if (log.head === log.claims.length) this.failures.delete(key);
      else if (log.head > 64 && log.head * 2 > log.claims.length) {
        log.claims = log.claims.slice(log.head);
        log.head = 0;
      }
    }
    const live = log && log.head < log.claims.length ? log : undefined;
    return {
      count: live ? live.claims.length - live.head : 0,
      used: live?.used ?? 0,
      newestAt: live?.claims.at(-1)!.at ?? 0,
      async ageOutAt(weight) {
        let freed = 0;
        for (let i = live?.head ?? 0; live && i < live.claims.length; i++) {
          freed += live.claims[i]!.weight;
          if (freed >= weight) return live.claims[i]!.at;
        }
        return now;
      },
    };
  }

  private drop(key: string, log: ClaimLog, claim: Claim) {
    log.used -= claim.weight;
    this.claimsById.delete(claim.id);
    if (log.used <= 0 && log.head >= log.claims.length) this.failures.delete(key);
  }

  /** Claims one after another: each checks and records with no other claim in between (atomic). */
  private claiming: Promise<unknown> = Promise.resolve();

  claim(keys: LimitedKey[], now: number, weight = 1): Promise<FailureClaim> {
    const run = this.claiming.then(() => this.claimNow(keys, now, weight));
    this.claiming = run.catch(() => {});
    return run;
  }

  private async claimNow(keys: LimitedKey[], now: number, weight: number): Promise<FailureClaim> {
    let retryAt = now;
    for (const rule of keys) retryAt = Math.max(retryAt, await nextClaimAt(rule, this.window(rule.key, rule.windowMs, now), now, weight));
    if (retryAt > now) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((retryAt - now) / 1000)) };
    const ids = keys.map(({ key, windowMs }) => {
      const id = `${this.idPrefix}${++this.nextId}`;
      let log = this.failures.get(key);
      if (!log) this.failures.set(key, (log = { claims: [], head: 0, used: 0 }));
      const claim = { id, at: now, weight, until: now + windowMs };
      log.claims.push(claim);
      log.used += weight;
      this.claimsById.set(id, { key, claim });
      return id;
    });
    return { allowed: true, ids };
  }

  /** Forgiving is rare (a right guess, a failed write): the claim leaves its key's log at once. */
  async forgive(ids: string[]) {
    for (const id of ids) {
      const found = this.claimsById.get(id);
      if (!found) continue;
      this.claimsById.delete(id);
      const log = this.failures.get(found.key);
      const at = log ? log.claims.indexOf(found.claim, log.head) : -1;
      if (!log || at < 0) continue;
      log.claims.splice(at, 1);
      log.used -= found.claim.weight;
      if (log.head >= log.claims.length) this.failures.delete(found.key);
    }
  }

  async prune(now: number) {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
    for (const [key, log] of this.failures) {
      while (log.head < log.claims.length && log.claims[log.head]!.until <= now) this.drop(key, log, log.claims[log.head++]!);
      if (log.head >= log.claims.length) this.failures.delete(key);
    }
  }
}
