import { z } from 'zod';
import { auditKindSchema, pushKindSchema } from '../../shared/push-schema.js';

/**
 * What the server stores. Secret fields hold sealed strings (see crypto/key-ring.ts), never
 * plaintext. These schemas validate the data file when it is read, so a hand-edited or corrupt
 * file is refused with a clear message instead of crashing later.
 */
const sealed = z.string().startsWith('v1.');

export const storedFileSchema = z.object({
  id: z.string(),
  /** Sealed original file name. */
  name: sealed,
  contentType: z.string(),
  size: z.number().int().nonnegative(),
});
export type StoredFile = z.infer<typeof storedFileSchema>;

export const storedPushSchema = z.object({
  /**
   * The push's storage id: a keyed hash of its URL token (pushes/url-token-id.ts), never the
   * token itself. Everything about the push (audit trail, files, guess counts) is kept under it.
   */
  token: z.string(),
  /** The URL token, sealed, for pushes with an owner (their lists show their links); else null. */
  urlToken: sealed.nullable().optional(),
  kind: pushKindSchema,
  ownerId: z.string().nullable(),
  name: z.string().nullable(),
  payload: sealed.nullable(),
  note: sealed.nullable(),
  /** Sealed scrypt hash of the passphrase; null when none, and after expiry. */
  passphrase: sealed.nullable(),
  /** Whether a passphrase was set (survives expiry, for the record's `passphrase` marker). */
  hasPassphrase: z.boolean(),
  files: z.array(storedFileSchema),
  /** After the view that used up the last view, files stay until then for that viewer. */
  filesPurgeAt: z.string().nullable(),
  expireAfterDays: z.number().int(),
  expireAfterViews: z.number().int(),
  /** When the push expires by time (days, or a legacy duration code). */
  expiresAt: z.string(),
  deletableByViewer: z.boolean().nullable(),
  retrievalStep: z.boolean(),
  views: z.number().int().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiredAt: z.string().nullable(),
  deleted: z.boolean(),
  /** The payload and files are end-to-end envelopes (absent on records older than that). */
  endToEnd: z.boolean().optional(),
});
export type StoredPush = z.infer<typeof storedPushSchema>;

export const auditRecordSchema = z.object({
  kind: auditKindSchema,
  ip: z.string(),
  userAgent: z.string(),
  referrer: z.string(),
  at: z.string(),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;

export const storedUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  passwordHash: z.string(),
  createdAt: z.string(),
});
export type StoredUser = z.infer<typeof storedUserSchema>;

export const storedApiTokenSchema = z.object({
  id: z.string(),
  userId: z.string(),
  /** SHA-256 of the token (tokens carry 256 bits of entropy, so a fast hash is enough). */
  hash: z.string(),
  label: z.string(),
  createdAt: z.string(),
});
export type StoredApiToken = z.infer<typeof storedApiTokenSchema>;

export const storedSessionSchema = z.object({
  /** SHA-256 of the session cookie's value. */
  id: z.string(),
  userId: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type StoredSession = z.infer<typeof storedSessionSchema>;
