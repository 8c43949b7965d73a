import type { StoredPush } from '../storage/records.js';

/** Where pushes expire: the pure rules. The sweeper (expiry-sweeper.ts) applies them on a timer. */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** Legacy `expire_after_duration` codes (Password Pusher v1) → minutes. */
export const DURATION_CODES_MINUTES: readonly number[] = [
  15, 30, 45, 60, 360, 720, // 0..5: 15 min … 12 h
  1440, 2880, 4320, 5760, 7200, 8640, // 6..11: 1 … 6 days
  10080, 20160, 30240, // 12..14: 1 … 3 weeks
  43200, 86400, 129600, // 15..17: 1 … 3 months (30-day months)
];

export function expiresAt(createdAt: Date, lifetimeMinutes: number): string {
  return new Date(createdAt.getTime() + lifetimeMinutes * MINUTE_MS).toISOString();
}

export function daysRemaining(push: StoredPush, now: Date): number {
  // Days counted from a scheduled release have not started before it: all of them remain.
  const elapsedDays = Math.max(Math.floor((now.getTime() - Date.parse(push.lifetimeFrom ?? push.createdAt)) / DAY_MS), 0);
  return Math.max(push.expireAfterDays - elapsedDays, 0);
}

/** `views` counts views and failed views (retrievals after expiry), as Password Pusher does. */
export function viewsRemaining(push: StoredPush): number {
  return Math.max(push.expireAfterViews - push.views, 0);
}

export function isDueByTime(push: StoredPush, now: Date): boolean {
  return push.expiresAt <= now.toISOString();
}

export interface ExpireOptions {
  /** Set by an explicit DELETE. */
  deleted?: boolean;
  /** Keep attached files this long for the viewer who used up the last view. */
  filesGraceMs?: number;
}

/**
 * The expired form of a push: payload, passphrase and (unless in their grace window) files are
 * erased; name, note, counters and the audit log stay for the owner.
 */
export function expired(push: StoredPush, now: Date, options: ExpireOptions = {}): StoredPush {
  const keepFiles = (options.filesGraceMs ?? 0) > 0 && push.files.length > 0;
  return {
    ...push,
    payload: null,
    passphrase: null,
    files: keepFiles ? push.files : [],
    filesPurgeAt: keepFiles ? new Date(now.getTime() + options.filesGraceMs!).toISOString() : null,
    expiredAt: push.expiredAt ?? now.toISOString(),
    updatedAt: now.toISOString(),
    deleted: push.deleted || Boolean(options.deleted),
  };
}
