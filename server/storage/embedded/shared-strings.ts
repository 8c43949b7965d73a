import type { AuditRecord, StoredPush } from '../records.js';

/**
 * Equal strings parsed from the snapshot are separate copies in memory: a push's token beside
 * its key, its creation time in `updatedAt` and in its audit trail, the same client addresses
 * and browsers across thousands of trails. The embedded store keeps every record in memory, so
 * on open these are made to point at one copy each (the values are unchanged).
 */
export class SharedStrings {
  private readonly seen = new Map<string, string>();

  /** The one copy of `value` (short values only: long ones are rarely repeated). */
  of(value: string): string {
    if (value.length > 512) return value;
    const known = this.seen.get(value);
    if (known !== undefined) return known;
    this.seen.set(value, value);
    return value;
  }
}

export function shareRepeatedStrings(push: StoredPush, key: string, trail: AuditRecord[], shared: SharedStrings): void {
  if (push.token === key) push.token = key;
  if (push.updatedAt === push.createdAt) push.updatedAt = push.createdAt;
  for (const entry of trail) {
    if (entry.at === push.createdAt) entry.at = push.createdAt;
    entry.ip = shared.of(entry.ip);
    entry.userAgent = shared.of(entry.userAgent);
    entry.referrer = shared.of(entry.referrer);
  }
}
