import { z } from 'zod';
import { auditKindSchema, pushKindSchema } from '../../shared/push-schema.js';
import { webhookEventTypeSchema } from '../../shared/webhook-schema.js';

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
  /**
   * Set for a file stored as sealed segments of this many plaintext bytes (a sliced upload's,
   * storage/segmented-file.ts); absent for a file stored as one blob.
   */
  segmentBytes: z.number().int().positive().optional(),
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
  /** The owner's label, sealed (pushes/push-name.ts); records from before names were sealed hold it plain. */
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
  /** Read receipt: when a recipient first saw the payload (not the owner's own looks). */
  firstViewedAt: z.string().nullable().optional(),
  /** Wrong passphrases given so far (read receipt; burn on guessing counts them). */
  failedPassphraseAttempts: z.number().int().nonnegative().optional(),
  /** Burn on guessing: the push expires at this many wrong passphrases; null or absent: never. */
  maxFailedPassphraseAttempts: z.number().int().positive().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  expiredAt: z.string().nullable(),
  deleted: z.boolean(),
  /** The payload and files are end-to-end envelopes (absent on records older than that). */
  endToEnd: z.boolean().optional(),
  /** Scheduled release: nobody but the owner may open the push before this time (absent: at once). */
  notBefore: z.string().nullable().optional(),
  /** When the expiry days count from, if not from creation (a scheduled release's `expire_from_release`). */
  lifetimeFrom: z.string().optional(),
  /** Linked secrets: the push (storage id) this one follows, and when it opens without it (ISO; null: never). */
  follows: z.object({ id: z.string(), until: z.string().nullable() }).optional(),
  /** Some push follows this one: a recipient who opens it gets a proof (pushes/linked/opened-proof.ts). */
  followed: z.boolean().optional(),
  /** One link per recipient: the batch this push was made in (metadata only; its row's label is the push's sealed name). */
  batchId: z.string().optional(),
  /** Receipts by e-mail the owner asked for (server/mail/receipts.ts); absent: none. */
  receipts: z
    .object({
      opened: z.boolean(),
      expiredUnopened: z.boolean(),
      to: sealed,
      locale: z.string(),
      origin: z.string(),
      /** Which of them the account's default asked for, decided when the push was made (the mail says so); absent: the push asked. */
      byDefault: z.object({ opened: z.boolean(), expiredUnopened: z.boolean() }).optional(),
    })
    .optional(),
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

/** An account's passkey (a WebAuthn credential): what verifying its signatures needs, and its name. */
export const storedPasskeySchema = z.object({
  /** The credential id, base64url (what the browser names it by). */
  id: z.string(),
  /** The COSE public key, base64url. */
  publicKey: z.string(),
  /** The authenticator's signature counter (0 for passkeys that keep none). */
  counter: z.number().int().nonnegative(),
  transports: z.array(z.string()),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type StoredPasskey = z.infer<typeof storedPasskeySchema>;

/** An account's second factor: TOTP and its recovery codes (accounts/second-factor/). */
export const storedSecondFactorSchema = z.object({
  /** The TOTP secret, sealed; null until an enrolment is confirmed with a code. */
  totpSecret: sealed.nullable(),
  /** A secret being enrolled (shown as a QR code, not yet confirmed), sealed. */
  pendingTotpSecret: sealed.nullable(),
  /** The newest TOTP time step a code was accepted for: codes of it and earlier steps are refused (replay). */
  lastUsedStep: z.number().int(),
  /** Keyed digests of the unused recovery codes. */
  recoveryCodes: z.array(z.string()),
  enrolledAt: z.string().nullable(),
});
export type StoredSecondFactor = z.infer<typeof storedSecondFactorSchema>;

export const storedUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  passwordHash: z.string(),
  createdAt: z.string(),
  /** Absent on accounts that never enrolled. */
  secondFactor: storedSecondFactorSchema.optional(),
  passkeys: z.array(storedPasskeySchema).optional(),
  /** Made an administrator on the command line (ADMIN_EMAILS grants it without being stored). */
  admin: z.boolean().optional(),
  /** Locked by an administrator: no sign-in, no session, no API token works until unlocked. */
  lockedAt: z.string().nullable().optional(),
  /**
   * When the address was confirmed by a link in an e-mail. null: not yet (REQUIRE_EMAIL_CONFIRMATION
   * keeps it from signing in); absent: made before confirmation existed, or without it.
   */
  emailConfirmedAt: z.string().nullable().optional(),
  /**
   * Set once the account has signed in by OpenID Connect (made just in time or linked by a verified
   * e-mail): the provider's identity and the groups its last sign-in reported (OIDC_ADMIN_GROUP).
   */
  sso: z
    .object({
      issuer: z.string(),
      subject: z.string(),
      groups: z.array(z.string()),
      signedInAt: z.string(),
    })
    .optional(),
  /** The page language the account last signed in or chose a language with: its e-mails' language (API pushes too). */
  locale: z.string().optional(),
  /** The receipts by e-mail a push or secret request gets when it does not say (the e-mail settings page). */
  receiptDefaults: z.object({ opened: z.boolean(), expiredUnopened: z.boolean(), requestAnswered: z.boolean() }).optional(),
  /** A new address waiting for the confirmation link sent to it (server/accounts/email-change.ts). */
  pendingEmail: z.string().optional(),
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

/**
 * A one-time code the browser extension exchanges for an API token (accounts/extension-connect/):
 * made when the user approves the extension, bound to the PKCE challenge and redirect URI the
 * extension asked with. Marked used (with the id its token got) by the first exchange.
 */
export const storedConnectCodeSchema = z.object({
  /** SHA-256 of the code (codes carry 256 bits of entropy). */
  hash: z.string(),
  userId: z.string(),
  /** base64url(SHA-256(code_verifier)): PKCE S256. */
  challenge: z.string(),
  redirectUri: z.string(),
  /** The label the token gets (browser and date, in the approving page's language). */
  label: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  usedAt: z.string().optional(),
  /** The id of the token the first exchange made (or meant to make): revoked if the code is replayed. */
  tokenId: z.string().optional(),
});
export type StoredConnectCode = z.infer<typeof storedConnectCodeSchema>;

/**
 * A multipart upload this server started in object storage, recorded before its first part is
 * sent and forgotten once it is completed or aborted: what the sweep aborts when an instance died
 * mid-upload, on object stores that cannot list their multipart uploads.
 */
export const storedMultipartUploadSchema = z.object({
  uploadId: z.string(),
  /** The object's key in the bucket. */
  key: z.string(),
  startedAt: z.string(),
});
export type StoredMultipartUpload = z.infer<typeof storedMultipartUploadSchema>;


/** An account's webhook endpoint. */
export const storedWebhookSchema = z.object({
  id: z.string(),
  userId: z.string(),
  url: z.string(),
  /** The whsec_ signing secret, sealed (it must be readable again to sign). */
  secret: sealed,
  events: z.array(webhookEventTypeSchema),
  createdAt: z.string(),
});
export type StoredWebhook = z.infer<typeof storedWebhookSchema>;

/**
 * Something that happened to an account's push or request, handed to the store in the same
 * atomic step as the change itself; the store turns it into one delivery per endpoint of the
 * account that asked for its type (the outbox).
 */
export interface WebhookEvent {
  /** Unique per event; deliveries are named after it, so a receiver can drop duplicates. */
  id: string;
  type: z.infer<typeof webhookEventTypeSchema>;
  userId: string;
  /**
   * The JSON body to send, sealed (it carries the push's name); deliveries written before bodies
   * were sealed hold the JSON itself. Never a payload, passphrase, secret link or file name.
   */
  body: string;
  at: string;
}

/** One event on its way to one endpoint (an outbox row). */
export const storedDeliverySchema = z.object({
  /** The Standard Webhooks `webhook-id`: the same on every attempt. */
  id: z.string(),
  webhookId: z.string(),
  userId: z.string(),
  type: webhookEventTypeSchema,
  body: z.string(),
  createdAt: z.string(),
  attempts: z.number().int().nonnegative(),
  /** When the next attempt is due; null once delivered or given up. */
  nextAttemptAt: z.string().nullable(),
  /** An instance attempting it holds it until then (a crashed one's lease runs out). */
  leaseUntil: z.string().nullable(),
  state: z.enum(['pending', 'delivered', 'failed']),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
});
export type StoredDelivery = z.infer<typeof storedDeliverySchema>;

/** What one attempt changed (see Store.finishDelivery). */
export type DeliveryOutcome = Pick<StoredDelivery, 'attempts' | 'nextAttemptAt' | 'state' | 'lastStatus' | 'lastError' | 'lastAttemptAt'>;

/**
 * A secret request: a link its owner hands out so that someone can send them a secret once; the
 * answer becomes a push owned by the requester. Stored under a keyed hash of its URL token.
 */
export const storedRequestSchema = z.object({
  id: z.string(),
  /** The URL token, sealed: the owner's list shows the link again. */
  urlToken: sealed,
  ownerId: z.string(),
  /** What the requester chose to show whoever opens the link (sealed), or null. */
  title: sealed.nullable(),
  message: sealed.nullable(),
  expiresAt: z.string(),
  answerExpireAfterDays: z.number().int(),
  answerExpireAfterViews: z.number().int(),
  createdAt: z.string(),
  answeredAt: z.string().nullable(),
  /** The storage id of the push the answer became. */
  pushId: z.string().nullable(),
  /** Closed by its owner before it was answered. */
  closedAt: z.string().nullable(),
  /** "E-mail me when it is answered": to whom (the owner's address then, sealed), in which language, where its audit page is. */
  /** `byDefault`: the account's default asked for it, not the request (decided when it was made; the mail says so). */
  answerReceipt: z.object({ to: sealed, locale: z.string(), origin: z.string(), byDefault: z.boolean().optional() }).optional(),
});
export type StoredRequest = z.infer<typeof storedRequestSchema>;

/**
 * One e-mail in the outbox: written in the same atomic step as its cause, sent by the mail
 * worker (server/mail/mail-worker.ts) with retries, leased like a webhook delivery so that with
 * several instances each is sent by one.
 */
export const storedMailSchema = z.object({
  id: z.string(),
  /** The account it concerns (its page lists what was sent), or null (an address without one). */
  userId: z.string().nullable(),
  /** What it is (password-reset, confirm-email, …): for the log and the account page. */
  kind: z.string(),
  /** The message (recipients, subject, both parts, headers) as JSON, sealed: it may hold a reset link. */
  message: sealed,
  createdAt: z.string(),
  attempts: z.number().int().nonnegative(),
  /** When the next attempt is due; null once sent or given up. */
  nextAttemptAt: z.string().nullable(),
  leaseUntil: z.string().nullable(),
  state: z.enum(['pending', 'sent', 'failed']),
  /** The SMTP server's last refusal (its reply code and text), or the connection error. */
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
});
export type StoredMail = z.infer<typeof storedMailSchema>;

/** What one attempt at a mail changed (see Store.finishMail). */
export type MailOutcome = Pick<StoredMail, 'attempts' | 'nextAttemptAt' | 'state' | 'lastError' | 'lastAttemptAt'>;
