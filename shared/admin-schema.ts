import { z } from 'zod';
import { auditKindSchema } from './push-schema.js';

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const time = z.preprocess(blankToUndefined, z.iso.datetime({ offset: true, error: 'must be a date and time as ISO 8601 (2026-01-31T12:00:00Z)' }).or(z.iso.date({ error: 'must be a date (2026-01-31)' })).optional());
const text = (max: number) => z.preprocess(blankToUndefined, z.string().trim().max(max, { error: 'is too long' }).optional());

/** The instance-wide audit's filters, as a query string gives them (the pages' form and the API alike). */
export const auditFilterQuerySchema = z.object({
  from: time,
  to: time,
  /** An account's email. */
  account: text(254),
  /** A push's storage id (the admin's push list shows it). */
  push: text(128),
  event: z.preprocess(blankToUndefined, auditKindSchema.optional()),
  ip: text(64),
  format: z.preprocess(blankToUndefined, z.enum(['csv', 'ndjson']).optional()),
});
export type AuditFilterQuery = z.infer<typeof auditFilterQuerySchema>;
