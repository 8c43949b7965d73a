import { z } from 'zod';

/**
 * Scheduled release (issue 35): a push that opens only from a given time. A Secret Push addition
 * to Password Pusher's create request; its clients never send it, and ignore `not_before` in
 * the records they read.
 *
 * The time must name its offset (`Z` or `+02:00`): a bare local time would mean a different
 * moment on the sender's machine and on the server.
 */
export const NOT_BEFORE_FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** A well-formed time naming its offset, on a day the calendar has (Date.parse rolls 30 February over). */
function isDateTimeWithOffset(s: string): boolean {
  if (!NOT_BEFORE_FORMAT.test(s) || !Number.isFinite(Date.parse(s))) return false;
  const [y, m, d] = s.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

export const notBeforeSchema = z
  .string({ error: 'not_before must be a date and time (ISO 8601 with an offset, e.g. 2027-03-01T08:00:00+01:00)' })
  .refine((s) => s.trim() === '' || isDateTimeWithOffset(s.trim()), {
    error: 'must be a date and time with its offset (ISO 8601, e.g. 2027-03-01T08:00:00+01:00 or 2027-03-01T07:00:00Z)',
  })
  // An empty form field means "no schedule", as if it were not sent.
  .transform((s) => (s.trim() === '' ? undefined : new Date(Date.parse(s.trim())).toISOString()))
  .describe('Secret Push only: the push opens from this time (ISO 8601 with an offset). Before it, retrieval answers 425 Too Early with Retry-After and counts no view.');

/** The 425 body: the Password Pusher-style `error`, and when the push opens. */
export const tooEarlyBodySchema = z.object({ error: z.string(), not_before: z.string() });
