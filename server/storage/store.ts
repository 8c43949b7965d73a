import type { Readable } from 'node:stream';
import type {
  AuditRecord,
  DeliveryOutcome,
  MailOutcome,
  StoredApiToken,
  StoredConnectCode,
  StoredMultipartUpload,
  StoredMail,
  StoredDelivery,
  StoredPush,
  StoredRequest,
  StoredSession,
  StoredUser,
  StoredWebhook,
  WebhookEvent,
} from './records.js';
import type { AdminLogEntry, InstanceAuditEntry, InstanceAuditFilter, StoredInvite } from './admin-records.js';

/** The result of a read-modify-write on one push (see Store.updatePush). */
export interface PushChange<T> {
  /** The new record, or undefined to leave it as it is. */
  next?: StoredPush;
  /** Audit entries written in the same atomic step, in order. */
  audit?: AuditRecord | AuditRecord[];
  /** Webhook events written to the outbox in the same atomic step (see Store.insertPush). */
  events?: WebhookEvent[];
  /** E-mails (receipts) put in the mail outbox in the same atomic step (see Store.insertMails). */
  mails?: StoredMail[];
  result: T;
}

/**
 * Linked secrets: the `linked` audit entry a new push and the push it follows both get, written in
 * the same atomic step as the new push (see Store.insertPush).
 */
export interface PushLink {
  /** The storage token of the push the new one follows. */
  follows: string;
  entry: AuditRecord;
}

/** How a claim of deliveries is shared between webhooks (see Store.claimDeliveries). */
export interface EndpointShare {
  /** At most this many deliveries of one webhook. */
  perWebhook: number;
  /** Webhooks to claim none of (their endpoints are still busy with earlier deliveries). */
  skip: readonly string[];
}

/** The result of a read-modify-write on one secret request (see Store.updateRequest). */
export interface RequestChange<T> {
  next?: StoredRequest;
  /** A push created in the same atomic step (the answer), with its creation entry. */
  push?: { push: StoredPush; creation: AuditRecord };
  events?: WebhookEvent[];
  mails?: StoredMail[];
  result: T;
}

/**
 * Encrypted file contents, as opaque bytes (encryption happens above, in FileVault). A blob is
 * visible only once it is completely written, and is streamed in and out, never held whole.
 */
export interface BlobStore {
  /** Stores `source` as the blob (push, file); resolves with the number of bytes stored. */
  write(pushToken: string, fileId: string, source: Readable): Promise<number>;
  /** Size in bytes, or undefined when there is no such blob. */
  size(pushToken: string, fileId: string): Promise<number | undefined>;
  /** The bytes `start` (inclusive) to `end` (exclusive) as a stream. */
  read(pushToken: string, fileId: string, start: number, end: number): Promise<Readable>;
  /** Deletes every blob of a push. */
  removeAll(pushToken: string): Promise<void>;
  /**
   * Every complete blob, a token's together (store:migrate --files-to moves those no push has
   * yet: sliced uploads in progress).
   */
  list(): AsyncIterable<{ pushToken: string; fileId: string }>;
  /**
   * Deletes up to `limit` pushes' blobs that were started before `startedBefore` and belong to no
   * stored push (an upload whose push was never created: the process died in between). Resolves
   * with the number of pushes whose blobs were deleted.
   */
  removeOrphans(startedBefore: Date, limit: number): Promise<number>;
}

export type DueWork = 'expiry' | 'file-purge';

/**
 * One key of a limit and its rule: at most `limit` (total weight) in the sliding window of
 * `windowMs`; or, with `backoff`, `limit` claims free in the window and then each further one
 * only `baseMs` × 2^(claims − limit) (at most `maxMs`) after the latest.
 */
export interface LimitedKey {
  key: string;
  limit: number;
  windowMs: number;
  backoff?: { baseMs: number; maxMs: number };
}

export type FailureClaim = { allowed: true; ids: string[] } | { allowed: false; retryAfterSeconds: number };

/**
 * Counters behind the rate limit, the guess limits and the storage quotas. The rules (which
 * keys, which limits) live in server/security and server/http; a backend only counts,
 * atomically and, for a shared backend, across every instance.
 */
export interface LimitCounters {
  /** Counts `amount` (default 1) requests of `key` in the fixed window of `windowMs` containing `now`. */
  hit(key: string, windowMs: number, now: number, amount?: number): Promise<{ count: number; resetAt: number }>;
  /** Takes back one hit of `key` (hono-rate-limiter's skip options use it). */
  unhit(key: string, windowMs: number, now: number): Promise<void>;
  /** Forgets the hits of `key`. */
  resetHits(key: string): Promise<void>;
  /**
   * Records a claim of `weight` (default 1) on every key at once, unless any key's rule refuses
   * it: then nothing is recorded and the caller learns when it may try again. Atomic: concurrent
   * claims can never exceed a limit. A weight above a key's limit is always refused.
   */
  claim(keys: LimitedKey[], now: number, weight?: number): Promise<FailureClaim>;
  /**
   * Takes back claims (a guess that was right, a write that failed). Ids are never reused, also
   * across restarts: one kept for later (a sliced upload's quota reservation) can only name its claim.
   */
  forgive(ids: string[]): Promise<void>;
  /** Forgets claims whose windows have ended by `now`, and hits whose windows ended before it. */
  prune(now: number): Promise<void>;
}

/**
 * A key's claims inside its rule's window, summarised: how many, their total weight, and when the
 * newest was made. The claims themselves are read only when a rule refuses, through `ageOutAt`.
 */
export interface ClaimWindow {
  count: number;
  used: number;
  newestAt: number;
  /**
   * The time of the claim at which the oldest claims, counted oldest first, first add up to
   * `weight` (when that much room will have aged out, less the window).
   */
  ageOutAt(weight: number): Promise<number>;
}

/**
 * When a rule lets a new claim of `weight` in, given the key's claims in its window: `now` or
 * later. Needs only the summary when the claim fits (the usual case), so a key with many claims
 * (a day of stored bytes) costs no more than one with few.
 */
export async function nextClaimAt(rule: LimitedKey, window: ClaimWindow, now: number, weight: number): Promise<number> {
  if (weight > rule.limit) return now + rule.windowMs;
  if (rule.backoff) {
    if (window.count < rule.limit) return now;
    const wait = Math.min(rule.backoff.maxMs, rule.backoff.baseMs * 2 ** (window.count - rule.limit));
    return Math.max(now, window.newestAt + wait);
  }
  const excess = window.used + weight - rule.limit;
  if (excess <= 0) return now;
  // The window frees room as its oldest claims turn windowMs old.
  return (await window.ageOutAt(excess)) + rule.windowMs;
}

/**
 * Everything the services need from storage. The rules (limits, expiry, who may see what)
 * live in the services; a backend only stores, indexes and serialises. Two backends implement
 * it: the embedded lowdb store (storage/embedded/) and PostgreSQL (storage/postgres/); the
 * contract test suite (test/server/storage/store-contract.test.ts) states what both must do.
 */
export interface Store {
  readonly blobs: BlobStore;
  readonly counters: LimitCounters;

  /**
   * Stores a new push with its creation entry and, in the same atomic step, the outbox rows of
   * `events`: one pending delivery per webhook of the event's account subscribed to its type,
   * named `<event id>.<webhook id>`, due at once. With `link`, its entry is appended after the
   * creation entry and to the followed push's trail in the same step (none of it when the followed
   * push no longer exists: then the followed push's trail is simply not written).
   */
  insertPush(push: StoredPush, creation: AuditRecord, events?: WebhookEvent[], mails?: StoredMail[], link?: PushLink): Promise<void>;
  getPush(token: string): Promise<StoredPush | undefined>;
  /**
   * Runs `change` on the current record and persists what it returns, atomically with respect
   * to every other update of the same push, on every instance: two concurrent retrievals of a
   * one-view push see one another's effect. Resolves to undefined for an unknown token. The
   * change is durable before the promise resolves. `change` may run more than once (a backend
   * may retry a transaction), so it must not have side effects. `seen`, the record as the
   * caller last read it with getPush, lets a backend skip reading it again when it is still
   * current (it never changes what `change` is run on: the current record).
   */
  updatePush<T>(token: string, change: (push: StoredPush) => PushChange<T>, seen?: StoredPush): Promise<T | undefined>;
  appendAudit(token: string, entry: AuditRecord): Promise<void>;
  /** Audit entries oldest first. */
  listAudit(token: string, offset: number, limit: number): Promise<AuditRecord[]>;
  /** The owner's pushes, newest first, filtered by state. */
  listPushesByOwner(ownerId: string, expired: boolean, offset: number, limit: number): Promise<StoredPush[]>;
  /** The owner's pushes of one batch (one link per recipient), active and expired, in the order they were made; at most `limit`. */
  listPushesOfBatch(ownerId: string, batchId: string, limit: number): Promise<StoredPush[]>;
  /**
   * Background work that is safe with several instances: claims up to `limit` pushes due at
   * `now` — for `expiry`, not yet expired and past their time limit; for `file-purge`, expired
   * with files whose grace window has passed — skipping any that another instance is handling,
   * and runs `change` on each as updatePush would. Resolves with the results.
   */
  updateDuePushes<T>(due: DueWork, now: Date, limit: number, change: (push: StoredPush) => PushChange<T>): Promise<T[]>;
  /**
   * Deletes up to `limit` pushes that expired before `expiredBefore`, with their audit trails
   * and blobs (retention). Resolves with the number deleted.
   */
  deleteExpiredBefore(expiredBefore: Date, limit: number): Promise<number>;
  countPushes(): Promise<{ active: number; total: number }>;
  /**
   * Bytes the store occupies (the embedded store's files in DATA_DIR; PostgreSQL's tables with
   * their indexes and TOAST). May take a moment on a large store: callers cache it.
   */
  storedBytes(): Promise<number>;
  /**
   * Moves every push for which `rename` returns a new record with another `token` to that token,
   * with its audit trail and blobs, each push atomically (a crash leaves it under one token or
   * the other, whole). Pushes for which it returns undefined stay. Resolves with how many moved.
   */
  renamePushes(rename: (push: StoredPush) => StoredPush | undefined): Promise<number>;

  /**
   * Adds a webhook unless its account already has `maxPerAccount`: resolves false then. Atomic:
   * webhooks added at once never take an account past the limit.
   */
  insertWebhook(webhook: StoredWebhook, maxPerAccount: number): Promise<boolean>;
  /** An account's webhooks, oldest first. */
  listWebhooks(userId: string): Promise<StoredWebhook[]>;
  /** Deletes an account's webhook with its pending deliveries; false when it has none by that id. */
  deleteWebhook(userId: string, id: string): Promise<boolean>;
  /**
   * Claims up to `limit` pending deliveries due at `now` whose lease (if any) has run out,
   * leasing each until `leaseUntil`: with several instances, each delivery is attempted by one
   * at a time, and one whose instance died is picked up again after its lease. `endpoints`
   * shares the claim out between webhooks (the earliest due of each first), so that one
   * endpoint's backlog or slowness never takes the others' turn.
   */
  claimDeliveries(now: Date, leaseUntil: Date, limit: number, endpoints?: EndpointShare): Promise<StoredDelivery[]>;
  /** Records an attempt's outcome and releases the lease. */
  finishDelivery(id: string, outcome: DeliveryOutcome): Promise<void>;
  /** An account's most recent deliveries, newest first (the account page shows their status). */
  listDeliveries(userId: string, limit: number): Promise<StoredDelivery[]>;
  /** Deletes up to `limit` delivered or given-up deliveries last attempted before `before`; resolves with how many. */
  deleteFinishedDeliveries(before: Date, limit: number): Promise<number>;

  /**
   * Puts e-mails in the mail outbox, durably before it resolves, all or none. A mail whose id is
   * already there is left as it is (a retried cause does not send twice).
   */
  insertMails(mails: StoredMail[]): Promise<void>;
  /**
   * Claims up to `limit` pending mails due at `now` whose lease (if any) has run out, oldest
   * first, leasing each until `leaseUntil`: with several instances each mail is attempted by one
   * at a time, and one whose instance died is taken up again after its lease.
   */
  claimMails(now: Date, leaseUntil: Date, limit: number): Promise<StoredMail[]>;
  /** Records an attempt's outcome and releases the lease. */
  finishMail(id: string, outcome: MailOutcome): Promise<void>;
  /** The mails about an account, newest first (its page shows what was given up). */
  listMails(userId: string, limit: number): Promise<StoredMail[]>;
  /** Every account's given-up mails (state failed), newest first, from `offset`: the administration's list. */
  listGivenUpMails(offset: number, limit: number): Promise<StoredMail[]>;

  insertRequest(request: StoredRequest): Promise<void>;
  getRequest(id: string): Promise<StoredRequest | undefined>;
  /** The owner's requests, newest first. */
  listRequestsByOwner(ownerId: string, offset: number, limit: number): Promise<StoredRequest[]>;
  /**
   * Deletes up to `limit` requests that stopped being open (answered, closed or expired) before
   * `before` (retention); resolves with how many. Their answers are pushes with their own retention.
   */
  deleteRequestsBefore(before: Date, limit: number): Promise<number>;
  /**
   * Runs `change` on the current request and persists what it returns — the request, a new push
   * and the outbox rows of its events — in one atomic step, serialised with every other update of
   * the same request on every instance (so a request is answered once). Resolves to undefined for
   * an unknown id. `change` may run more than once and must not have side effects.
   */
  updateRequest<T>(id: string, change: (request: StoredRequest) => RequestChange<T>): Promise<T | undefined>;

  /**
   * Adds an account; refuses (rejects) one whose email already has an account, also when both
   * are inserted at once: one email, one account. `mails` (a confirmation) go to the mail outbox
   * in the same atomic step.
   */
  insertUser(user: StoredUser, mails?: StoredMail[]): Promise<void>;
  /** Replaces an existing account (same id), with `mails` (a notice of the change) in the same atomic step. */
  updateUser(user: StoredUser, mails?: StoredMail[]): Promise<void>;
  getUser(id: string): Promise<StoredUser | undefined>;
  /**
   * Runs `change` on the current account and stores `next` if it returns one, atomically with
   * respect to every other changeUser of the same account, on every instance (a recovery code
   * is used once, a TOTP step accepted once). Resolves to undefined for an unknown id. `change`
   * may run more than once and must not have side effects. It cannot change the address (that
   * is updateUser's, with the uniqueness rule and the notice): a `next` with another `email`
   * rejects and nothing is written (refuseAddressChange).
   */
  changeUser<T>(id: string, change: (user: StoredUser) => { next?: StoredUser; result: T }): Promise<T | undefined>;
  getUserByEmail(email: string): Promise<StoredUser | undefined>;

  /** Accounts whose email contains `query` (every account when it is empty), by email. */
  listUsers(query: string, offset: number, limit: number): Promise<StoredUser[]>;
  /**
   * Deletes an account with its API tokens, sessions, webhooks (and their deliveries) and secret
   * requests; its pushes stay (the caller expires them first when asked to). False when unknown.
   */
  deleteUser(id: string): Promise<boolean>;
  /** Every push, newest first (the administration's list; callers show metadata only). */
  listAllPushes(offset: number, limit: number): Promise<StoredPush[]>;
  /**
   * Every push's audit entries matching `filter`, read a bounded batch at a time (an export of
   * millions of entries never holds them all), oldest first per push (pushes may interleave).
   */
  streamInstanceAudit(filter: InstanceAuditFilter): AsyncIterable<InstanceAuditEntry>;
  /** Appends to the admin log. There is deliberately no method to change or delete an entry. */
  appendAdminLog(entry: AdminLogEntry): Promise<void>;
  /** The admin log, newest first. */
  listAdminLog(offset: number, limit: number): Promise<AdminLogEntry[]>;
  insertInvite(invite: StoredInvite): Promise<void>;
  /**
   * Marks the invite used at `now` unless it is used already, expired by then, or bound to an
   * address other than `email`, atomically on every instance (an invite makes one account);
   * resolves with it as used, or undefined.
   */
  useInvite(id: string, now: Date, email: string): Promise<StoredInvite | undefined>;
  /** Invites newest first (by createdAt), the first `offset` skipped: the administration's pages. */
  listInvites(limit: number, offset?: number): Promise<StoredInvite[]>;
  /**
   * Revokes an invite not used yet and not expired at `now`: revokedAt and expiresAt become `now`,
   * so useInvite refuses it on every instance from then. Resolves with it revoked, or undefined
   * (unknown, used, expired or revoked already).
   */
  revokeInvite(id: string, now: Date): Promise<StoredInvite | undefined>;

  insertApiToken(token: StoredApiToken): Promise<void>;
  getApiTokenByHash(hash: string): Promise<StoredApiToken | undefined>;
  listApiTokens(userId: string): Promise<StoredApiToken[]>;
  deleteApiToken(id: string): Promise<void>;

  /** Stores a new extension connect code (accounts/extension-connect/). */
  insertConnectCode(code: StoredConnectCode): Promise<void>;
  /**
   * Marks the code with this hash used at `usedAt` for the token `tokenId`, unless it is used
   * already: atomic, so of several exchanges at once, on any instances, exactly one is `first`.
   * Resolves with the code as now stored (for a replay: as the first exchange left it), or
   * undefined when there is no such code.
   */
  redeemConnectCode(hash: string, usedAt: string, tokenId: string): Promise<{ first: boolean; code: StoredConnectCode } | undefined>;
  /** Deletes up to `limit` connect codes that expired before `before`; resolves with how many. */
  deleteExpiredConnectCodes(before: Date, limit: number): Promise<number>;

  /** Records a multipart upload started in object storage (before its first part is sent); again with the same id is a no-op. */
  recordMultipartUpload(upload: StoredMultipartUpload): Promise<void>;
  /** Forgets a multipart upload (completed or aborted); an unknown id is no error. */
  forgetMultipartUpload(uploadId: string): Promise<void>;
  /** Up to `limit` recorded multipart uploads started before `before`, oldest first. */
  listMultipartUploads(before: Date, limit: number): Promise<StoredMultipartUpload[]>;

  insertSession(session: StoredSession): Promise<void>;
  getSession(id: string): Promise<StoredSession | undefined>;
  deleteSession(id: string): Promise<void>;
  /** Deletes every session of an account but `exceptId`; resolves with how many. */
  deleteSessionsOfUser(userId: string, exceptId?: string): Promise<number>;
  /** Deletes up to `limit` sessions that expired at or before `now`; resolves with how many. */
  deleteExpiredSessions(now: Date, limit: number): Promise<number>;

  /**
   * A small value kept beside the data (the key-ring check): `value` is stored unless one is
   * already there, and the stored value is returned, so instances starting together agree.
   */
  settingOrInit(name: string, value: string): Promise<string>;
  /** Replaces a setting (after a key rotation, the check re-sealed under the new key). */
  putSetting(name: string, value: string): Promise<void>;

  /**
   * Resolves when the store can take writes now: reachable, writable, schema current. Cheap
   * enough for a load balancer's probe every few seconds. Rejects with StoreNotReady.
   */
  checkReady(): Promise<void>;

  /** Writes everything out and releases files and connections. */
  close(): Promise<void>;
}

/** Why a store cannot take writes: a category fit to show anyone, and the detail for the log. */
export class StoreNotReady extends Error {
  constructor(
    readonly category: 'the store is unreachable' | 'the store cannot be written' | 'the store schema is not current' | 'the store is closed',
    detail: string,
  ) {
    super(`${category}: ${detail}`);
  }
}

/**
 * Thrown when storage refuses or cannot be reached (a full disk, PostgreSQL down): callers
 * answer 503 with Retry-After and nothing stored is changed.
 */
export class StorageUnavailableError extends Error {
  /**
   * What clients are told to wait (Retry-After): a lost database connection is back within a
   * second or two (measured: < 0.5 s after PostgreSQL is up), a full disk waits for an operator.
   */
  readonly retryAfterSeconds: number;
  constructor(message: string, options?: ErrorOptions & { retryAfterSeconds?: number }) {
    super(message, options);
    this.retryAfterSeconds = options?.retryAfterSeconds ?? 30;
  }
}

/** Thrown at start when the data file cannot be read as ours: it is never overwritten. */
export class CorruptDataError extends Error {}

/**
 * changeUser's guard: an address change there would skip the uniqueness rule and (on PostgreSQL)
 * leave the address column behind the record, so it is refused rather than half done.
 */
export function refuseAddressChange(current: { email: string }, next: { email: string }): void {
  if (next.email !== current.email) throw new Error('changeUser cannot change an account\'s address: updateUser does that');
}
