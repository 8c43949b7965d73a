import type { StoredPush } from '../storage/records.js';

/**
 * Scheduled release (issue 35): the pure rules. A push with `notBefore` opens to recipients only
 * from that time; before it a retrieval is refused (425 Too Early on the API) and counts no view,
 * so views and the passphrase count from the release. Its days count from creation unless the
 * sender asks for them to count from the release (`expire_from_release`).
 */

const MINUTE_MS = 60_000;

/** The stored release of a create request, and when its expiry days count from. */
export interface Release {
  /** ISO; null: opens at once. */
  notBefore: string | null;
  /** Where the lifetime starts: the release with `expire_from_release`, else creation. */
  lifetimeFrom: Date;
}

/**
 * The release of a create request: none for a time already past (the push opens at once, as
 * asked; a client's clock a little behind the server's changes nothing). Days count from creation,
 * so a release at or after the push's expiry by time is refused, since nobody could ever open it;
 * with `expire_from_release` they count from the release, which may then be at most the instance's
 * longest lifetime (`maxDays`) ahead, so that no push waits on the server for ever.
 */
export function releaseOf(
  given: { notBefore: string | undefined; fromRelease: boolean },
  now: Date,
  lifetimeMinutes: number,
  maxDays: number,
  refuse: (field: string, message: string) => void,
): Release {
  const none = { notBefore: null, lifetimeFrom: now };
  if (given.notBefore === undefined) return none;
  const at = Date.parse(given.notBefore);
  if (at <= now.getTime()) return none;
  if (given.fromRelease) {
    if (at > now.getTime() + maxDays * 1440 * MINUTE_MS) {
      refuse('not_before', `must be at most ${maxDays} days ahead`);
      return none;
    }
    return { notBefore: new Date(at).toISOString(), lifetimeFrom: new Date(at) };
  }
  const expiry = now.getTime() + lifetimeMinutes * MINUTE_MS;
  if (at >= expiry) {
    refuse('not_before', `must be before the push expires (${new Date(expiry).toISOString()}): its days count from creation, so choose more days, an earlier release, or expire_from_release`);
    return none;
  }
  return { notBefore: new Date(at).toISOString(), lifetimeFrom: now };
}

/** When the push opens, if it is not open yet at `now`; null when it is (or never had a schedule). */
export function opensAt(push: Pick<StoredPush, 'notBefore'>, now: Date): string | null {
  const at = push.notBefore;
  return at && Date.parse(at) > now.getTime() ? at : null;
}

/** Whole seconds until the release, at least 1 (a Retry-After that never says "now" too early). */
export function secondsUntil(at: string, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(at) - now.getTime()) / 1000));
}
