import type { StoredPush } from '../storage/records.js';

/**
 * Scheduled release (issue 35): the pure rules. A push with `notBefore` opens to recipients only
 * from that time; before it a retrieval is refused (425 Too Early on the API) and counts no view,
 * so views and the passphrase count from the release. Its days count from creation: the sender
 * chooses a lifetime long enough to cover the wait (a release after the expiry is refused).
 */

const MINUTE_MS = 60_000;

/**
 * The stored release time of a create request: null for none, or for a time already past (the
 * push opens at once, as asked; a client's clock a little behind the server's changes nothing).
 * A release at or after the push's expiry by time is refused, since nobody could ever open it.
 */
export function releaseTime(notBefore: string | undefined, now: Date, lifetimeMinutes: number, refuse: (field: string, message: string) => void): string | null {
  if (notBefore === undefined) return null;
  const at = Date.parse(notBefore);
  if (at <= now.getTime()) return null;
  const expiry = now.getTime() + lifetimeMinutes * MINUTE_MS;
  if (at >= expiry) {
    refuse('not_before', `must be before the push expires (${new Date(expiry).toISOString()}): its days count from creation, so choose more days or an earlier release`);
    return null;
  }
  return new Date(at).toISOString();
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
