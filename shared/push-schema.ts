import { z } from 'zod';
import { notBeforeSchema } from './release-schema.js';

/**
 * The Password Pusher API v2 shapes, defined once. The server validates with them, the tRPC
 * router is typed by them, the OpenAPI document is generated from them, and the extension's
 * forms reuse them. Nothing here may import Node or DOM APIs.
 */

export const pushKinds = ['text', 'file', 'url', 'qr'] as const;
export const pushKindSchema = z.enum(pushKinds);
export type PushKind = z.infer<typeof pushKindSchema>;

/** Rails-style truthy strings: what Password Pusher clients send in forms and JSON alike. */
export const truthyStrings = ['true', 'on', 'yes', '1', 'checked'] as const;

/** A boolean as clients send it: true/false, or a Rails truthy string (anything else is false). */
export const lenientBooleanSchema = z
  .union([z.boolean(), z.string(), z.number()], { error: 'must be true or false' })
  .transform((v) => (typeof v === 'boolean' ? v : truthyStrings.includes(String(v).trim().toLowerCase() as never)));

/** An integer as clients send it: a JSON number or a string of digits. */
export const lenientIntegerSchema = z
  .union([z.number(), z.string()], { error: 'must be a whole number' })
  .transform((v, ctx) => {
    const n = typeof v === 'number' ? v : /^\s*-?\d+\s*$/.test(v) ? Number(v) : Number.NaN;
    if (!Number.isSafeInteger(n)) {
      ctx.addIssue({ code: 'custom', message: 'must be a whole number' });
      return z.NEVER;
    }
    return n;
  });

const optionalText = (what: string) => z.string({ error: `${what} must be a string` });

/**
 * The `push` object of a create request. Bounds that depend on instance settings (days, views,
 * payload size) are checked by the push service, which knows the settings.
 */
export const pushInputSchema = z.object({
  payload: optionalText('payload').optional(),
  kind: z.string({ error: 'kind must be a string' }).optional(),
  expire_after_days: lenientIntegerSchema.optional(),
  expire_after_views: lenientIntegerSchema.optional(),
  /** Legacy duration code 0..17 (15 minutes … 3 months), an alternative to expire_after_days. */
  expire_after_duration: lenientIntegerSchema.optional(),
  deletable_by_viewer: lenientBooleanSchema.optional(),
  retrieval_step: lenientBooleanSchema.optional(),
  passphrase: optionalText('passphrase').optional(),
  name: optionalText('name').optional(),
  note: optionalText('note').optional(),
  /**
   * Burn on guessing: the push expires (payload and files erased) at this many wrong passphrases;
   * 0 turns it off. Only with a passphrase. Absent: the server's default.
   */
  max_failed_passphrase_attempts: lenientIntegerSchema.optional(),
  /**
   * Secret Push only: the payload (and each file) is an end-to-end envelope the client encrypted
   * with a key the server never sees (docs/end-to-end-encryption.md).
   */
  end_to_end: lenientBooleanSchema.optional(),
  /** Secret Push only: scheduled release (shared/release-schema.ts). */
  not_before: notBeforeSchema.optional(),
  /** Secret Push only, with not_before: the expiry days count from the release instead of from creation. */
  expire_from_release: lenientBooleanSchema.optional(),
  /** Secret Push only, signed in and with e-mail set up: e-mail the owner when the push is first opened. */
  email_on_open: lenientBooleanSchema.optional(),
  /** …or when it expires without having been opened. */
  email_on_expired_unopened: lenientBooleanSchema.optional(),
  /** Secret Push only, signed in and with e-mail set up: up to 5 addresses the server e-mails the link to (a list, or one string separated by commas). */
  notify_emails: z.union([z.array(z.string()), z.string()]).optional(),
  /** A personal note for those e-mails (plain text, at most 1,000 characters). */
  notify_note: optionalText('notify_note').optional(),
});
export type PushInput = z.input<typeof pushInputSchema>;
export type ParsedPushInput = z.output<typeof pushInputSchema>;

export const attachedFileSchema = z.object({
  filename: z.string(),
  content_type: z.string(),
  url: z.string(),
});
export type AttachedFile = z.infer<typeof attachedFileSchema>;

/** The fifteen base keys of a push record, in Password Pusher's order. */
export const pushRecordBaseSchema = z.object({
  expire_after_views: z.number().int(),
  expired: z.boolean(),
  url_token: z.string(),
  deletable_by_viewer: z.boolean().nullable(),
  retrieval_step: z.boolean(),
  expired_on: z.string().nullable(),
  /** Never the passphrase itself: "" when none was set, "[FILTERED]" when one was. */
  passphrase: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  expire_after_days: z.number().int(),
  days_remaining: z.number().int(),
  views_remaining: z.number().int(),
  deleted: z.boolean(),
  json_url: z.string(),
  html_url: z.string(),
  /** Secret Push only, and only on end-to-end pushes: the payload and files are envelopes. */
  end_to_end: z.literal(true).optional(),
  /** Secret Push only, and only on pushes with a scheduled release: when the push opens. */
  not_before: z.string().optional(),
});
export type PushRecordBase = z.infer<typeof pushRecordBaseSchema>;

/**
 * Read receipt: what only the owner sees of how a push was opened (Secret Push's own keys, after
 * Password Pusher's). `push_id` names the push in webhook deliveries without being its link.
 */
export const readReceiptSchema = z.object({
  push_id: z.string(),
  first_viewed_at: z.string().nullable(),
  failed_passphrase_attempts: z.number().int(),
  max_failed_passphrase_attempts: z.number().int().nullable(),
});
export type ReadReceipt = z.infer<typeof readReceiptSchema>;

/** create, active and expired lists: base keys + note and name (owner-only fields), then the receipt. */
export const ownerPushRecordSchema = pushRecordBaseSchema.extend({
  note: z.string().nullable(),
  name: z.string().nullable(),
  ...readReceiptSchema.shape,
  /**
   * File pushes only, for their owner: the attached files' names, in upload order, while the
   * server still holds the files (they are purged after expiry). A Secret Push addition after
   * Password Pusher's keys; absent on other pushes, so its clients see the keys they know.
   */
  file_names: z
    .array(z.string())
    .optional()
    .describe("File pushes only, for their owner: the attached files' names while the server holds the files (a Secret Push addition)."),
});
export type OwnerPushRecord = z.infer<typeof ownerPushRecordSchema>;

/** Retrieval (show): base keys + payload and files; for the owner, the read receipt too. */
export const retrievedPushSchema = pushRecordBaseSchema.extend({
  payload: z.string().nullable(),
  files: z.array(attachedFileSchema),
  ...readReceiptSchema.partial().shape,
});
export type RetrievedPush = z.infer<typeof retrievedPushSchema>;

export const previewSchema = z.object({ url: z.string() });
export type Preview = z.infer<typeof previewSchema>;

export const auditKinds = [
  'creation',
  'view',
  'failed_view',
  'expire',
  'failed_passphrase',
  'owner_view',
  'admin_view',
  'edit',
] as const;
export const auditKindSchema = z.enum(auditKinds);
export type AuditKind = z.infer<typeof auditKindSchema>;

export const auditEntrySchema = z.object({
  ip: z.string(),
  user_agent: z.string(),
  referrer: z.string(),
  kind: auditKindSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditLogSchema = z.object({ logs: z.array(auditEntrySchema) });

export const pageSchema = z.object({ page: z.number().int().min(1).max(200).default(1) });
export const tokenSchema = z.object({ url_token: z.string().min(1).max(200) });
export const retrieveInputSchema = tokenSchema.extend({ passphrase: z.string().optional() });

export const versionDocumentSchema = z.object({
  /** The Password Pusher release whose API this server matches (clients gate features on it). */
  application_version: z.string(),
  api_version: z.string(),
  edition: z.string(),
  features: z.object({
    anonymous_access: z.boolean(),
    api_token_authentication: z.boolean(),
    accounts: z.object({ enabled: z.boolean() }),
    pushes: z.object({
      enabled: z.boolean(),
      email_auto_dispatch: z.boolean(),
      file_attachments: z.object({ enabled: z.boolean(), requires_authentication: z.boolean() }),
      url_pushes: z.object({ enabled: z.boolean() }),
      qr_code_pushes: z.object({ enabled: z.boolean() }),
    }),
    requests: z.object({ enabled: z.boolean() }),
  }),
  /**
   * Secret Push's own release. Not in Password Pusher's document, and absent from Secret Push
   * servers older than this field, so readers must not require it.
   */
  secret_push_version: z.string().optional(),
  /** The name the operator gave the instance (BRAND_NAME), for a client to show once connected; absent when unbranded. */
  secret_push_name: z.string().optional(),
});
export type VersionDocument = z.infer<typeof versionDocumentSchema>;

/** Error bodies: `{"error": "..."}`, or 422's `{"<field>": ["message", ...]}`. */
export const errorBodySchema = z.object({ error: z.string() });
export const validationErrorBodySchema = z.record(z.string(), z.array(z.string()));
export type ValidationErrors = z.infer<typeof validationErrorBodySchema>;

/** Instance limits the extension needs to build its form (served by the tRPC `limits` query). */
export const pushLimitsSchema = z.object({
  days: z.object({ default: z.number(), min: z.number(), max: z.number() }),
  views: z.object({ default: z.number(), min: z.number(), max: z.number() }),
  retrieval_step: z.boolean(),
  deletable_by_viewer: z.boolean(),
  max_payload_chars: z.number(),
  max_qr_chars: z.number(),
  /** The server's default burn-on-guessing limit for pushes with a passphrase (0: off). Absent from older servers. */
  max_failed_passphrase_attempts: z.number().optional(),
  /** Largest file; absent from servers older than end-to-end pushes. */
  max_file_bytes: z.number().optional(),
  /** The server takes end-to-end pushes (docs/end-to-end-encryption.md); absent from older servers. */
  end_to_end: z.boolean().optional(),
  /** The server takes `not_before` (scheduled release); absent from older servers, which would ignore it and open the push at once. */
  scheduled_release: z.boolean().optional(),
  /** The server e-mails secret links (`notify_emails`, `pushes.emailLink`): SMTP is set up. Absent from older servers. */
  email_links: z.boolean().optional(),
});
export type PushLimits = z.infer<typeof pushLimitsSchema>;
