import { nextClaimAt, type ClaimWindow, type FailureClaim, type LimitCounters, type LimitedKey } from '../store.js';
import type { Queryable } from './unavailable.js';

/**
 * Rate-limit hits and guess failures shared by every instance on the database. A hit is one
 * upsert; a claim (a guess, stored bytes) takes a transaction-scoped advisory lock per key (in a fixed order,
 * so two claims cannot deadlock) before counting, so concurrent guesses on several instances
 * can never pass a limit together.
 */
export class PostgresLimitCounters implements LimitCounters {
  constructor(private readonly db: Queryable) {}

  async hit(key: string, windowMs: number, now: number, amount = 1) {
    const windowEnd = now - (now % windowMs) + windowMs;
    const { rows } = await this.db.query(
      `INSERT INTO rate_hits (key, window_end, count) VALUES ($1, $2, $3)
       ON CONFLICT (key, window_end) DO UPDATE SET count = rate_hits.count + EXCLUDED.count RETURNING count`,
      [key, windowEnd, amount],
    );
    return { count: Number(rows[0].count), resetAt: windowEnd };
  }

  async unhit(key: string, windowMs: number, now: number) {
    const windowEnd = now - (now % windowMs) + windowMs;
    await this.db.query('UPDATE rate_hits SET count = count - 1 WHERE key = $1 AND window_end = $2 AND count > 0', [key, windowEnd]);
  }

  async resetHits(key: string) {
    await this.db.query('DELETE FROM rate_hits WHERE key = $1', [key]);
  }

  claim(keys: LimitedKey[], now: number, weight = 1): Promise<FailureClaim> {
    return this.db.transaction(async (tx) => {
      for (const key of [...new Set(keys.map((k) => k.key))].sort()) {
        await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7))', [key]);
      }
      // A summary per key (count, total weight, newest) in its own window: one row a key however
      // many claims it has (a day of stored bytes can be many thousands).
      const { rows } = await tx.query(
        `SELECT k.key, count(f.id) AS n, coalesce(sum(f.weight), 0) AS used, coalesce(max(f.at), 0) AS newest
         FROM unnest($1::text[], $2::bigint[]) AS k(key, since)
         LEFT JOIN failed_attempts f ON f.key = k.key AND f.at > k.since
         GROUP BY k.key`,
        [keys.map((k) => k.key), keys.map((k) => now - k.windowMs)],
      );
      let retryAt = now;
      for (const rule of keys) {
        const row = rows.find((r) => r.key === rule.key);
        const since = now - rule.windowMs;
        const window: ClaimWindow = {
          count: Number(row?.n ?? 0),
          used: Number(row?.used ?? 0),
          newestAt: Number(row?.newest ?? 0),
          // Only when the rule refuses: the claim at which the oldest add up to `weight`.
          async ageOutAt(weight) {
            const { rows: found } = await tx.query(
              `SELECT at FROM (
                 SELECT at, sum(weight) OVER (ORDER BY at, id) AS older FROM failed_attempts WHERE key = $1 AND at > $2
               ) t WHERE older >= $3 ORDER BY at LIMIT 1`,
              [rule.key, since, weight],
            );
            return found[0] ? Number(found[0].at) : now;
          },
        };
        retryAt = Math.max(retryAt, await nextClaimAt(rule, window, now, weight));
      }
      if (retryAt > now) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((retryAt - now) / 1000)) };
      const inserted = await tx.query(
        'INSERT INTO failed_attempts (key, at, weight, expires) SELECT k, $2, $3, $2 + w FROM unnest($1::text[], $4::bigint[]) AS t(k, w) RETURNING id',
        [keys.map((k) => k.key), now, weight, keys.map((k) => k.windowMs)],
      );
      return { allowed: true, ids: inserted.rows.map((r) => String(r.id)) };
    });
  }

  async forgive(ids: string[]) {
    if (ids.length) await this.db.query('DELETE FROM failed_attempts WHERE id = ANY($1::bigint[])', [ids]);
  }

  async prune(now: number) {
    await this.db.query('DELETE FROM rate_hits WHERE window_end <= $1', [now]);
    await this.db.query('DELETE FROM failed_attempts WHERE expires <= $1', [now]);
  }
}
