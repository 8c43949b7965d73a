import { createHmac } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AttachedFile, OwnerPushRecord, PushLimits, PushRecordBase, RetrievedPush, VersionDocument } from '../../shared/push-schema.js';
import { emailLinkInputSchema } from '../../shared/email-link-schema.js';
import type { Config } from '../config.js';
import { DecryptionError, type KeyRing } from '../crypto/key-ring.js';
import { HashingQueue } from '../crypto/hashing-queue.js';
import { digest, safeEqual } from '../crypto/secret-hash.js';
import type { RequestContext } from '../http/request-context.js';
import type { Logger } from '../logger.js';
import { ServiceError } from '../service-error.js';
import { receiptMails } from '../mail/receipts.js';
import { productName } from '../branding/brand.js';
import { NOTIFY_PER_ACCOUNT_PER_DAY, NOTIFY_PER_ADDRESS_PER_DAY, parseNotifyEmails, parseNotifyNote, recipientMails } from '../mail/recipient-link.js';
import type { FileVault } from '../storage/file-vault.js';
import type { AuditRecord, StoredMail, StoredPush } from '../storage/records.js';
import type { DueWork, PushChange, Store } from '../storage/store.js';
import { expired, expiresAt, isDueByTime, viewsRemaining } from './expiry.js';
import { opensAt, secondsUntil } from './release.js';
import { OpenedProofs } from './linked/opened-proof.js';
import { MAX_BATCH_ROWS } from '../../shared/batch-schema.js';
import { FileUpload } from './file-upload.js';
import { GuessLimit } from '../security/guess-limit.js';
import { validatePushInput, type NewPushFields } from './push-input.js';
import { addReadReceipt, auditJson, baseRecord, ownerRecord, retrievedRecord, secretUrl } from './push-json.js';
import { openName, sealName } from './push-name.js';
import { pushEvents } from '../webhooks/webhook-events.js';
import { newUrlToken } from './url-token.js';
import type { UrlTokenIds } from './url-token-id.js';
import type { StorageQuota } from '../security/storage-quota.js';
import { PASSWORD_PUSHER_COMPATIBLE_VERSION, SECRET_PUSH_VERSION } from '../version.js';

export const PAGE_SIZE = 50;
const BATCH_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** 50 million entries: more than any push can gather before retention deletes it. */
const AUDIT_MAX_PAGE = 1_000_000;
const FIELD_MAX = 255;
/** How long a file download link handed out by a view stays valid. */
const DOWNLOAD_TICKET_MS = 15 * 60_000;

/** The caller as the push rules see it; adapters build it from the request. */
export const CREATE_REQUIRES_ACCOUNT_MESSAGE = 'Sign in to create a push: this instance does not allow anonymous creation.';

export type Actor = Pick<RequestContext, 'user' | 'client' | 'baseUrl'> & {
  /** The page language of the request, for e-mails it causes (absent: English). */
  locale?: string;
  /** Linked secrets: proofs of pushes this recipient opened (cookies, a header, tRPC's input). */
  openedProofs?: readonly string[];
};

export interface PushServiceDeps {
  store: Store;
  keys: KeyRing;
  vault: FileVault;
  config: Pick<Config, 'features' | 'limits' | 'purgeExpiredAfterDays'> & Partial<Pick<Config, 'brand'>>;
  logger: Logger;
  clock?: () => Date;
  /** Files of a push whose last view was just used stay this long for that viewer. */
  filesGraceMs?: number;
  /** Bounds concurrent scrypt work (shared with the account service). */
  hashing?: HashingQueue;
  /** Storage ids of URL tokens (the store never sees a token). */
  ids: UrlTokenIds;
  /** Storage quotas (default: none). */
  quota?: StorageQuota;
  /** E-mail is set up (SMTP_URL): receipts by e-mail may be asked for. */
  mailEnabled?: boolean;
}

/** Proof, handed to the recipient page, that its viewer gave the push's passphrase. */
export interface DeleteTicket {
  exp: string;
  ticket: string;
}

export interface FileDownload {
  filename: string;
  contentType: string;
  size: number;
  stream: Readable;
  /** The bytes `stream` holds when a range of the file was asked for and given (end exclusive). */
  range?: { start: number; end: number };
}

/** A range of bytes asked for (`Range: bytes=start-end`; `end` inclusive, as HTTP writes it, or open). */
export interface ByteRangeRequest {
  start: number;
  end?: number;
}

/**
 * Every rule about pushes: creation limits, who may see or delete what, view counting,
 * passphrases, expiry and purging, audit entries. REST v2/v1, tRPC and the HTML pages are
 * thin adapters over this class.
 */
export class PushService {
  private readonly store: Store;
  private readonly keys: KeyRing;
  private readonly now: () => Date;
  /** Passphrase guessing, per push and per client address. */
  private readonly passphraseGuesses: GuessLimit;
  private readonly ticketKey: Buffer;
  private readonly filesGraceMs: number;
  private readonly hashing: HashingQueue;
  private readonly openedProofs: OpenedProofs;

  constructor(private readonly deps: PushServiceDeps) {
    this.hashing = deps.hashing ?? new HashingQueue();
    this.store = deps.store;
    this.keys = deps.keys;
    this.now = deps.clock ?? (() => new Date());
    this.passphraseGuesses = new GuessLimit(
      deps.store.counters,
      'passphrase',
      {
        perTargetPerMinute: deps.config.limits.passphraseAttemptsPerMinute,
        perIpPerMinute: deps.config.limits.passphraseAttemptsPerIpPerMinute,
        // The per-push limit already holds every address to a few guesses a minute.
        freePerIpAndTarget: deps.config.limits.passphraseAttemptsPerMinute,
        backoffBaseSeconds: 60,
        backoffMaxSeconds: 3600,
      },
      'Too many passphrase attempts. Please try again in a minute.',
      () => this.now().getTime(),
    );
    this.ticketKey = deps.keys.deriveKey('file-download-tickets');
    this.filesGraceMs = deps.filesGraceMs ?? DOWNLOAD_TICKET_MS;
    this.openedProofs = new OpenedProofs(deps.keys.deriveKey('linked-secret-opened-proofs'));
  }

  get features() {
    return this.deps.config.features;
  }

  versionDocument(): VersionDocument {
    const f = this.features;
    return {
      application_version: PASSWORD_PUSHER_COMPATIBLE_VERSION,
      api_version: '2.1',
      edition: 'oss',
      features: {
        anonymous_access: f.anonymousAccess,
        api_token_authentication: true,
        accounts: { enabled: false },
        pushes: {
          enabled: true,
          email_auto_dispatch: false,
          file_attachments: { enabled: f.filePushes, requires_authentication: f.filesRequireAuth },
          url_pushes: { enabled: f.urlPushes },
          qr_code_pushes: { enabled: f.qrPushes },
        },
        requests: { enabled: false },
      },
      secret_push_version: SECRET_PUSH_VERSION,
      ...(this.deps.config.brand?.name ? { secret_push_name: this.deps.config.brand.name } : {}),
    };
  }

  pushLimits(): PushLimits {
    const l = this.deps.config.limits;
    return {
      days: l.days,
      views: l.views,
      retrieval_step: l.retrievalStep,
      deletable_by_viewer: l.deletableByViewer,
      max_payload_chars: l.maxPayloadChars,
      max_qr_chars: l.maxQrChars,
      max_failed_passphrase_attempts: l.maxFailedPassphraseAttempts,
      max_file_bytes: l.maxFileBytes,
      end_to_end: true,
      scheduled_release: true,
      email_links: Boolean(this.deps.mailEnabled),
    };
  }

  /** With anonymous access off, every API endpoint but version needs an account. */
  assertApiAccess(actor: Actor) {
    if (!this.features.anonymousAccess && !actor.user) {
      throw new ServiceError('unauthorized', 'Authentication required: this instance does not allow anonymous access.');
    }
  }

  /** What only an account may do (lists, audit logs, Password Pusher's legacy `/r.json` create). */
  requireAccount(actor: Actor, message = 'You need to sign in or sign up before continuing.'): asserts actor is Actor & { user: NonNullable<Actor['user']> } {
    if (!actor.user) throw new ServiceError('unauthorized', message);
  }

  /** Parses a `page` query value of a push list: an integer in 1..200, default 1. */
  parsePage(raw: unknown, maxPage = 200): number {
    if (raw === undefined || raw === null || raw === '') return 1;
    const text = String(raw);
    const n = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isInteger(n) || n < 1 || n > maxPage) throw new ServiceError('bad_request', 'Invalid page parameter');
    return n;
  }

  /**
   * Parses the `page` of an audit log. The whole trail is kept (no entry is dropped, however many
   * views and failed attempts a push sees), so every page of it can be asked for.
   */
  parseAuditPage(raw: unknown): number {
    return this.parsePage(raw, AUDIT_MAX_PAGE);
  }

  /** Refuses (507) when the store is at its size cap: called before a create request's body is read. */
  async assertStorageRoom(): Promise<void> {
    await this.deps.quota?.assertRoom();
  }

  /** Checks that the caller may attach files, before any byte of them is read. */
  openFileUpload(actor: Actor): FileUpload {
    this.assertMayAttachFiles(actor);
    return this.newUpload();
  }

  /**
   * The upload of a sliced upload's finish: its files are already stored, as segments, under
   * `token` (the URL token its start chose). A refused create keeps them, so the finish can be
   * asked again (after a quota's window) or the upload given up.
   */
  openSlicedFileUpload(actor: Actor, token: string): FileUpload {
    this.assertMayAttachFiles(actor);
    return new FileUpload(token, this.deps.ids.of(token), this.deps.vault, this.keys, this.deps.config.limits.maxFilesPerPush, { keepOnRefusal: true });
  }

  private newUpload(): FileUpload {
    const token = newUrlToken();
    return new FileUpload(token, this.deps.ids.of(token), this.deps.vault, this.keys, this.deps.config.limits.maxFilesPerPush);
  }

  /**
   * An upload for a push someone sends to an account holder (a secret request's answer): the
   * push will have an owner, so the sender needs no account of their own; files must be on.
   */
  openSentFileUpload(): FileUpload {
    if (!this.features.filePushes) throw ServiceError.validation({ files: ['File pushes are disabled.'] });
    return this.newUpload();
  }

  /** CREATE_REQUIRES_ACCOUNT: anonymous creation is off (retrieval is not affected). */
  assertMayCreate(actor: Actor) {
    if (this.features.createRequiresAccount && !actor.user) {
      throw new ServiceError('unauthorized', CREATE_REQUIRES_ACCOUNT_MESSAGE);
    }
  }

  assertMayAttachFiles(actor: Actor) {
    if (this.features.filesRequireAuth && !actor.user) {
      throw new ServiceError('unauthorized', 'You must be signed in to attach files.');
    }
  }

  /**
   * `options.reservedBytes`: bytes of this push already counted against the caller's quotas (a
   * sliced upload counts its files when it starts); only the rest is counted here.
   */
  async create(actor: Actor, rawInput: unknown, upload?: FileUpload, options: { fileFieldPresent?: boolean; reservedBytes?: number; batchId?: string } = {}): Promise<OwnerPushRecord> {
    try {
      // Any `files` key (even empty) or kind file needs an account when files do, whatever the
      // encoding: multipart sends an empty file input as a plain field, tRPC as a JSON key.
      const input = rawInput !== null && typeof rawInput === 'object' ? (rawInput as { kind?: unknown }) : null;
      const wantsFiles = Boolean(upload) || Boolean(options.fileFieldPresent) || input?.kind === 'file' || (input !== null && Object.hasOwn(input, 'files'));
      if (wantsFiles) this.assertMayAttachFiles(actor);
      this.assertApiAccess(actor);
      this.assertMayCreate(actor);

      const now = this.now();
      const fields = validatePushInput(rawInput, {
        limits: this.deps.config.limits,
        features: this.features,
        hasFiles: (upload?.files.length ?? 0) > 0,
        files: upload?.fileFacts,
        now,
      });
      const token = upload?.token ?? newUrlToken();
      const push = await this.newStoredPush(fields, token, actor.user?.id ?? null, now, upload?.files ?? []);
      const receipts = this.receiptChoice(actor, rawInput);
      if (receipts) push.receipts = receipts;
      if (options.batchId) push.batchId = options.batchId;
      const followed = fields.follows ? await this.followedPush(actor, fields.follows.token) : null;
      if (followed) {
        push.follows = { id: followed.token, until: fields.follows!.until };
        // Marked before the new push exists, so that it can never be waiting on a push that hands out no proofs.
        await this.store.updatePush(followed.token, (p) => ({ next: p.followed ? undefined : { ...p, followed: true }, result: undefined }));
      }
      const notify = await this.recipientMailsFor(actor, rawInput, push, token, now);
      // Stored bytes count against the quotas before anything is written (files already streamed
      // in are discarded below when this refuses).
      const storer = { userId: actor.user?.id ?? null, ip: actor.client.ip };
      const quota = this.deps.quota?.counts(storer) ? this.deps.quota : undefined;
      const uncounted = quota ? storedSize(push) - (options.reservedBytes ?? 0) : 0;
      const reservation = uncounted > 0 ? await quota?.reserve(storer, uncounted) : undefined;
      try {
        // Both pushes' audit trails show the link, written with the insert (issue 35 item 6).
        const link = followed ? { follows: followed.token, entry: this.auditRecord('linked', actor, now) } : undefined;
        await this.store.insertPush(push, this.auditRecord('creation', actor, now), pushEvents(this.keys, push, now, 'push.created'), notify.mails, link);
      } catch (e) {
        await reservation?.release();
        await this.store.counters.forgive(notify.claims);
        throw e;
      }
      return ownerRecord(push, token, push.token, { note: fields.note, name: fields.name }, now, actor.baseUrl, this.fileNames(push));
    } catch (e) {
      await upload?.discard();
      throw e;
    }
  }

  /**
   * Linked secrets: the push a new one follows, which must be the caller's own. One answer (422)
   * for a push that does not exist and for someone else's, so that `follows` tells nobody which
   * links exist.
   */
  private async followedPush(actor: Actor, token: string): Promise<StoredPush> {
    const refused = () => ServiceError.validation({ follows: ['must be the link of one of your own pushes'] });
    if (!actor.user) throw ServiceError.validation({ follows: ['needs an account: only a push of your own can be followed'] });
    const first = await this.store.getPush(this.storageId(token));
    if (!first || !this.isOwner(first, actor)) throw refused();
    return first;
  }

  /**
   * Checks a create request's fields as create would, storing nothing (a batch checks all its
   * rows before making any push): throws the same 422.
   */
  checkInput(rawInput: unknown): void {
    validatePushInput(rawInput, { limits: this.deps.config.limits, features: this.features, hasFiles: false, now: this.now() });
  }

  /**
   * The receipts by e-mail asked for in the input (`email_on_open`, `email_on_expired_unopened`),
   * or the account's default; only for an account, and only when e-mail is set up.
   */
  private receiptChoice(actor: Actor, rawInput: unknown): StoredPush['receipts'] {
    const input = (rawInput !== null && typeof rawInput === 'object' ? rawInput : {}) as Record<string, unknown>;
    const flag = (v: unknown) => v === true || v === 'true' || v === '1' || v === 'on';
    // A field the push leaves out takes the account's default (only where e-mail is set up).
    const defaults = this.deps.mailEnabled ? actor.user?.receiptDefaults : undefined;
    const given = (v: unknown) => v !== undefined && v !== null && v !== '';
    const openedByDefault = !given(input.email_on_open) && Boolean(defaults?.opened);
    const expiredByDefault = !given(input.email_on_expired_unopened) && Boolean(defaults?.expiredUnopened);
    const opened = openedByDefault || flag(input.email_on_open);
    const expiredUnopened = expiredByDefault || flag(input.email_on_expired_unopened);
    if (!opened && !expiredUnopened) return undefined;
    if (!actor.user) throw ServiceError.validation({ email_on_open: ['needs an account: sign in to get receipts by e-mail'] });
    if (!this.deps.mailEnabled) throw ServiceError.validation({ email_on_open: ['e-mail is not set up on this server'] });
    // The page's language when made on a page; through the API, the one the account last used on the pages.
    const receipts: NonNullable<StoredPush['receipts']> = { opened, expiredUnopened, to: this.keys.seal(actor.user.email), locale: actor.locale ?? actor.user.locale ?? 'en', origin: actor.baseUrl };
    // Recorded now, so the mail can say truly whether this push or the account's setting asked for it.
    if (openedByDefault || expiredByDefault) receipts.byDefault = { opened: openedByDefault, expiredUnopened: expiredByDefault };
    return receipts;
  }

  /**
   * The e-mails of `notify_emails` (the link to each recipient, with `notify_note`), stored with
   * the push. Only for an account, with e-mail set up, not for end-to-end pushes (the server does
   * not have their key). Counted per account and per recipient address per day; past either, 429.
   */
  private async recipientMailsFor(actor: Actor, rawInput: unknown, push: StoredPush, token: string, now: Date): Promise<{ mails: StoredMail[]; claims: string[] }> {
    const input = (rawInput !== null && typeof rawInput === 'object' ? rawInput : {}) as Record<string, unknown>;
    const to = parseNotifyEmails(input.notify_emails);
    const note = parseNotifyNote(input.notify_note);
    if (!to.length) return { mails: [], claims: [] };
    if (!actor.user) throw ServiceError.validation({ notify_emails: ['needs an account: anonymous pushes cannot be e-mailed'] });
    if (!this.deps.mailEnabled) throw ServiceError.validation({ notify_emails: ['e-mail is not set up on this server'] });
    if (push.endToEnd) throw ServiceError.validation({ notify_emails: ['cannot be used with an end-to-end push: the server does not have its key'] });
    return this.linkMails(actor.user, actor, push, token, to, note, now);
  }

  /** The recipients' mails of one push's link, counted against the daily limits (429 past them). */
  private async linkMails(user: NonNullable<Actor['user']>, actor: Actor, push: StoredPush, token: string, to: string[], note: string | undefined, now: Date, linkKey?: string): Promise<{ mails: StoredMail[]; claims: string[] }> {
    const day = 86_400_000;
    const claim = await this.store.counters.claim(
      [
        { key: `notify:account:${user.id}`, limit: NOTIFY_PER_ACCOUNT_PER_DAY, windowMs: day },
        ...to.map((a) => ({ key: `notify:address:${digest(a)}`, limit: NOTIFY_PER_ADDRESS_PER_DAY, windowMs: day })),
      ],
      now.getTime(),
      to.length,
    );
    if (!claim.allowed) {
      throw new ServiceError('too_many_requests', `Too many secret links were e-mailed (at most ${NOTIFY_PER_ACCOUNT_PER_DAY} recipients per account and ${NOTIFY_PER_ADDRESS_PER_DAY} links per address a day). Please try again later.`, undefined, claim.retryAfterSeconds);
    }
    const link = secretUrl(push, actor.baseUrl, token) + (linkKey ? `#${linkKey}` : '');
    return { mails: recipientMails(this.keys, user, to, link, note, actor.locale, now, productName(this.deps.config.brand)), claims: claim.ids };
  }

  /**
   * E-mails the link of one of the actor's active pushes to up to 5 addresses (the extension's
   * result view): the same mails and limits as a create's `notify_emails`. An end-to-end push
   * needs `link_key`, the key only the sender's browser has; the mail then carries it.
   */
  async emailLink(actor: Actor, raw: unknown): Promise<{ sent: number }> {
    this.requireAccount(actor);
    const parsed = emailLinkInputSchema.safeParse(raw ?? {});
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? 'push')] ??= []).push(issue.message);
      throw ServiceError.validation(errors);
    }
    const input = parsed.data;
    const to = parseNotifyEmails(input.notify_emails);
    const note = parseNotifyNote(input.notify_note);
    if (!to.length) throw ServiceError.validation({ notify_emails: ['at least one e-mail address is needed'] });
    if (!this.deps.mailEnabled) throw ServiceError.validation({ notify_emails: ['e-mail is not set up on this server'] });
    const push = await this.expireIfDue(await this.find(input.url_token));
    // Another account's push is "not found", as everywhere: no oracle for links one does not own.
    if (!this.isOwner(push, actor)) throw new ServiceError('not_found', 'not-found');
    if (push.expiredAt) throw ServiceError.validation({ url_token: ['this push has expired'] });
    if (push.endToEnd && !input.link_key) throw ServiceError.validation({ link_key: ['an end-to-end push needs the key of its link'] });
    if (!push.endToEnd && input.link_key) throw ServiceError.validation({ link_key: ['only for end-to-end pushes'] });
    const now = this.now();
    const { mails, claims } = await this.linkMails(actor.user, actor, push, input.url_token, to, note, now, input.link_key);
    try {
      await this.store.insertMails(mails);
    } catch (e) {
      await this.store.counters.forgive(claims);
      throw e;
    }
    return { sent: mails.length };
  }

  /** The path of a push's audit page, for its owner, by push id (the receipts' link: it holds no secret link). */
  async auditPathById(actor: Actor, pushId: string): Promise<string> {
    this.requireAccount(actor);
    const push = await this.store.getPush(pushId);
    if (!push || !push.urlToken || !this.isOwner(push, actor)) throw new ServiceError('not_found', 'not-found');
    return `/dashboard/audit/${this.keys.openText(push.urlToken)}`;
  }

  /** A new push's record from validated fields (sealed), not yet stored. */
  private async newStoredPush(fields: NewPushFields, token: string, ownerId: string | null, now: Date, files: StoredPush['files']): Promise<StoredPush> {
    const iso = now.toISOString();
    return {
      token: this.deps.ids.of(token),
      urlToken: ownerId ? this.keys.seal(token) : null,
      kind: fields.kind,
      ownerId,
      name: sealName(this.keys, fields.name),
      payload: fields.payload !== null && fields.payload !== '' ? this.keys.seal(fields.payload) : null,
      note: fields.note !== null ? this.keys.seal(fields.note) : null,
      passphrase: fields.passphrase !== null ? this.keys.seal(await this.hashing.hash(fields.passphrase)) : null,
      hasPassphrase: fields.passphrase !== null,
      files,
      filesPurgeAt: null,
      expireAfterDays: fields.expireAfterDays,
      expireAfterViews: fields.expireAfterViews,
      expiresAt: expiresAt(fields.lifetimeFrom, fields.lifetimeMinutes),
      deletableByViewer: fields.deletableByViewer,
      retrievalStep: fields.retrievalStep,
      views: 0,
      firstViewedAt: null,
      failedPassphraseAttempts: 0,
      maxFailedPassphraseAttempts: fields.maxFailedPassphraseAttempts,
      createdAt: iso,
      updatedAt: iso,
      expiredAt: null,
      deleted: false,
      ...(fields.endToEnd ? { endToEnd: true } : {}),
      ...(fields.notBefore ? { notBefore: fields.notBefore } : {}),
      ...(fields.lifetimeFrom.getTime() !== now.getTime() ? { lifetimeFrom: fields.lifetimeFrom.toISOString() } : {}),
    };
  }

  /**
   * A push for `ownerId` that someone else sends them (a secret request's answer), checked
   * by the same rules as any create and counted against the owner's storage quota, returned for
   * the caller to store atomically with its own change. `release` undoes the quota reservation
   * when that store fails or refuses.
   */
  async prepareSentPush(
    sender: Actor,
    ownerId: string,
    rawInput: unknown,
    upload?: FileUpload,
  ): Promise<{ push: StoredPush; token: string; creation: AuditRecord; release: () => Promise<void> }> {
    const files = upload?.files ?? [];
    const now = this.now();
    const fields = validatePushInput(rawInput, { limits: this.deps.config.limits, features: this.features, hasFiles: files.length > 0, now });
    const token = upload?.token ?? newUrlToken();
    const push = await this.newStoredPush(fields, token, ownerId, now, files);
    const storer = { userId: ownerId, ip: sender.client.ip };
    const reservation = this.deps.quota?.counts(storer) ? await this.deps.quota.reserve(storer, storedSize(push)) : undefined;
    return { push, token, creation: this.auditRecord('creation', sender, now), release: async () => void (await reservation?.release()) };
  }

  private auditRecord(kind: AuditRecord['kind'], actor: Actor, now: Date): AuditRecord {
    return {
      kind,
      ip: actor.client.ip.slice(0, FIELD_MAX),
      userAgent: actor.client.userAgent.slice(0, FIELD_MAX),
      referrer: actor.client.referrer.slice(0, FIELD_MAX),
      at: now.toISOString(),
    };
  }

  private isOwner(push: StoredPush, actor: Actor) {
    return actor.user !== null && push.ownerId !== null && safeEqual(push.ownerId, actor.user.id);
  }

  /** The id a push is stored under, from its URL token (for tools and tests that read the store). */
  storageId(token: string): string {
    return this.deps.ids.of(token);
  }

  private async find(token: string): Promise<StoredPush> {
    const push = await this.store.getPush(this.storageId(token));
    if (!push) throw new ServiceError('not_found', 'not-found');
    return push;
  }

  /** Expires a push whose time is up (checked on every access, and by the sweeper). */
  private async expireIfDue(push: StoredPush): Promise<StoredPush> {
    const now = this.now();
    if (push.expiredAt || !isDueByTime(push, now)) return push;
    const next = await this.store.updatePush(push.token, this.expiryByTime(now), push);
    await this.deps.vault.removeAll(push.token);
    return next ?? push;
  }

  /** The change that expires a push whose time is up (on access, or by the sweep): once only. */
  private expiryByTime(now: Date) {
    return (p: StoredPush): PushChange<StoredPush> => {
      if (p.expiredAt) return { result: p };
      const e = expired(p, now);
      return { next: e, audit: this.auditRecord('expire', SYSTEM_ACTOR, now), events: pushEvents(this.keys, e, now, 'push.expired'), mails: receiptMails(this.keys, p, e, now, productName(this.deps.config.brand)), result: e };
    };
  }

  /** Whether a viewer who knows the link may see details before revealing (no view counted). */
  async peek(token: string): Promise<StoredPush | undefined> {
    const push = await this.store.getPush(this.storageId(token));
    return push ? this.expireIfDue(push) : undefined;
  }

  /**
   * Retrieval: checks the passphrase, counts a view (not the owner's), delivers the payload,
   * and expires the push on the view that uses up the last one, which still gets the payload.
   */
  async retrieve(actor: Actor, token: string, passphrase: string | undefined): Promise<RetrievedPush> {
    return (await this.retrieveWithDeleteTicket(actor, token, passphrase)).push;
  }

  /**
   * Retrieval for API clients: also the proof of having opened it, when another push follows
   * this one (linked secrets; the REST API sends it as the Secret-Push-Opened header).
   */
  async retrieveWithProof(actor: Actor, token: string, passphrase: string | undefined): Promise<{ push: RetrievedPush; openedProof: string | null }> {
    const { push, openedProof } = await this.retrieveWithDeleteTicket(actor, token, passphrase);
    return { push, openedProof };
  }

  /**
   * Retrieval for the recipient page: also a ticket for its "delete now" form when the push
   * has a passphrase, which proves that this viewer gave it (the page never holds the passphrase).
   */
  async retrieveWithDeleteTicket(actor: Actor, token: string, passphrase: string | undefined): Promise<{ push: RetrievedPush; deleteTicket: DeleteTicket | null; openedProof: string | null }> {
    const { record: push, openedProof } = await this.decrypting(() => this.retrieveReadable(actor, token, passphrase));
    if (!push.passphrase || push.expired) return { push, deleteTicket: null, openedProof };
    const exp = this.now().getTime() + DOWNLOAD_TICKET_MS;
    return { push, deleteTicket: { exp: String(exp), ticket: this.ticket(token, 'delete', exp) }, openedProof };
  }

  private async retrieveReadable(actor: Actor, token: string, passphrase: string | undefined): Promise<{ record: RetrievedPush; openedProof: string | null }> {
    const push = await this.expireIfDue(await this.find(token));
    const now = () => this.now();
    if (push.expiredAt) {
      const after = await this.store.updatePush(push.token, (p) => this.failedView(p, actor, now()), push);
      return { record: retrievedRecord(after ?? push, token, null, [], now(), actor.baseUrl), openedProof: null };
    }
    const owner = this.isOwner(push, actor);
    // Before its release nobody but the owner opens it: no view, no passphrase guess, no audit.
    if (!owner) this.assertReleased(push);
    // Nor before the push it follows was opened by this recipient (linked secrets).
    if (!owner) this.assertFollowedOpened(push, actor);
    if (push.passphrase && !owner) await this.checkPassphrase(push, actor, passphrase);

    type Opened = { payload: string | null; files: AttachedFile[] };
    const outcome = await this.store.updatePush<{ push: StoredPush; delivered: StoredPush | null; opened: Opened | null }>(push.token, (p) => {
      const at = now();
      if (p.expiredAt) {
        const failed = this.failedView(p, actor, at);
        return { ...failed, result: { push: failed.result, delivered: null, opened: null } };
      }
      // Decrypt before the view is committed: a push the server cannot read (a wrong MASTER_KEY)
      // must not lose a view, let alone its payload, to a request that then fails.
      const opened: Opened = {
        payload: p.payload ? this.keys.openText(p.payload) : p.kind === 'file' ? '' : null,
        files: this.fileLinks(p, token, actor.baseUrl),
      };
      if (owner) return { audit: this.auditRecord('owner_view', actor, at), result: { push: p, delivered: p, opened } };
      const counted: StoredPush = { ...p, views: p.views + 1, firstViewedAt: p.firstViewedAt ?? at.toISOString(), updatedAt: at.toISOString() };
      const next = viewsRemaining(counted) === 0 ? expired(counted, at, { filesGraceMs: this.filesGraceMs }) : counted;
      const events = next.expiredAt ? pushEvents(this.keys, next, at, 'push.viewed', 'push.expired') : pushEvents(this.keys, next, at, 'push.viewed');
      // The last view still shows what it used up: the record before the purge, with 0 views left.
      return { next, audit: this.auditRecord('view', actor, at), events, mails: receiptMails(this.keys, p, next, at, productName(this.deps.config.brand)), result: { push: next, delivered: counted, opened } };
    }, push);
    if (!outcome) throw new ServiceError('not_found', 'not-found');
    const { push: after, delivered, opened } = outcome;
    if (!delivered || !opened) return { record: retrievedRecord(after, token, null, [], now(), actor.baseUrl), openedProof: null };
    const shown = after.expiredAt ? { ...delivered, expiredAt: null } : after;
    const record = retrievedRecord(shown, token, opened.payload, opened.files, now(), actor.baseUrl);
    // A recipient who opened a push that others follow gets the proof that opens them.
    const openedProof = !owner && delivered.followed ? this.openedProofs.of(push.token) : null;
    // The owner's own look also shows the read receipt (who else opened it, and how often).
    return { record: owner ? addReadReceipt(record, after, push.token) : record, openedProof };
  }

  /**
   * Linked secrets: refuses (425) a push that follows another which this recipient has not
   * opened (no proof among theirs), until its `until` time if it has one.
   */
  assertFollowedOpened(push: StoredPush, actor: Actor): void {
    const waiting = this.waitsForFirst(push, actor);
    if (waiting) throw ServiceError.opensAfterAnother(waiting.until, waiting.retryAfterSeconds);
  }

  /** Whether `actor` must open the push this one follows first (null: they may open it). */
  waitsForFirst(push: StoredPush, actor: Actor): { until: string | null; retryAfterSeconds: number | undefined } | null {
    const f = push.follows;
    if (!f || this.isOwner(push, actor)) return null;
    const now = this.now();
    if (f.until && Date.parse(f.until) <= now.getTime()) return null;
    if (this.openedProofs.holds(f.id, actor.openedProofs)) return null;
    return { until: f.until, retryAfterSeconds: f.until ? secondsUntil(f.until, now) : undefined };
  }

  /** Scheduled release: refuses (425, with when it opens) a push that does not open yet. */
  assertReleased(push: StoredPush): void {
    const now = this.now();
    const at = opensAt(push, now);
    if (at) throw ServiceError.tooEarly(at, secondsUntil(at, now));
  }

  /** When the push opens to `actor` and in how many seconds, if not yet (its owner may always open it); else null. */
  opensLaterFor(push: StoredPush, actor: Actor): { opensAt: string; retryAfterSeconds: number } | null {
    const now = this.now();
    const at = this.isOwner(push, actor) ? null : opensAt(push, now);
    return at ? { opensAt: at, retryAfterSeconds: secondsUntil(at, now) } : null;
  }

  /**
   * A retrieval of an expired push: a `failed_view` entry, and a counted view, since Password
   * Pusher's `views_remaining` counts views and failed views alike (clients show that figure).
   */
  private failedView(p: StoredPush, actor: Actor, at: Date): PushChange<StoredPush> {
    const next = { ...p, views: p.views + 1 };
    return { next, audit: this.auditRecord('failed_view', actor, at), result: next };
  }

  /** Stored data the key ring cannot open (a wrong MASTER_KEY): say so, instead of a bare 500. */
  private async decrypting<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (!(e instanceof DecryptionError)) throw e;
      this.deps.logger.error('Stored data cannot be decrypted: is MASTER_KEY (or MASTER_KEY_OLD) the key it was stored under?', e);
      throw new ServiceError('unavailable', "This push cannot be decrypted with the server's key. The administrator must restore the MASTER_KEY it was stored under.");
    }
  }

  /**
   * Judges a passphrase: resolves when it is right, or when the push expired before this guess
   * was judged (a burst of guesses in flight when another one burnt it): such a guess is not
   * counted and the caller answers it as it answers any request for an expired push, right or
   * wrong, so the answer says nothing about the guess. A wrong guess on a live push is counted
   * (and may burn it) and refused with 401.
   */
  private async checkPassphrase(push: StoredPush, actor: Actor, given: string | undefined): Promise<void> {
    if (given === undefined || given === '') {
      // Asked without one (a client's first try, a link checker): no guess. 401 with the
      // reference's failed_passphrase entry, but never counted toward burn on guessing, the read
      // receipt's wrong passphrases or the guess limits, or a link fetched twice would burn a push.
      const expiredMeanwhile = await this.store.updatePush(push.token, (p) => (p.expiredAt ? { result: true } : { audit: this.auditRecord('failed_passphrase', actor, this.now()), result: false }), push);
      if (expiredMeanwhile) return;
      throw ServiceError.wrongPassphrase();
    }
    const stored = this.keys.openText(push.passphrase!);
    const ok = await this.passphraseGuesses.attempt(push.token, actor.client.ip, async () => this.hashing.verify(given, stored));
    if (ok) return;
    const verdict = await this.store.updatePush(push.token, (p) => this.wrongPassphrase(p, actor, this.now()), push);
    if (verdict === 'expired') return;
    if (verdict === 'burnt') await this.deps.vault.removeAll(push.token);
    throw ServiceError.wrongPassphrase();
  }

  /**
   * A wrong passphrase: counted on the push (the owner's read receipt) and, with burn on
   * guessing, the one that reaches the push's limit expires it. Under the push's lock, so any
   * number of concurrent wrong guesses expire it once, and the ones judged after that are not
   * counted, audited or sent as events (`expired`).
   */
  private wrongPassphrase(p: StoredPush, actor: Actor, at: Date): PushChange<'counted' | 'burnt' | 'expired'> {
    if (p.expiredAt) return { result: 'expired' };
    const counted: StoredPush = { ...p, failedPassphraseAttempts: (p.failedPassphraseAttempts ?? 0) + 1 };
    const failed = this.auditRecord('failed_passphrase', actor, at);
    const limit = p.maxFailedPassphraseAttempts ?? null;
    if (limit === null || counted.failedPassphraseAttempts! < limit) {
      return { next: counted, audit: failed, events: pushEvents(this.keys, counted, at, 'push.passphrase_failed'), result: 'counted' };
    }
    const burnt = expired(counted, at);
    return {
      next: burnt,
      audit: [failed, this.auditRecord('expire', actor, at)],
      events: pushEvents(this.keys, burnt, at, 'push.passphrase_failed', 'push.expired'),
      result: 'burnt',
    };
  }

  /** A ticket this service handed out for `purpose` (a file id, or "delete"), not yet expired. */
  private validTicket(token: string, purpose: string, exp: unknown, ticket: unknown): boolean {
    const expMs = Number(exp);
    return typeof ticket === 'string' && Number.isSafeInteger(expMs) && expMs >= this.now().getTime() && safeEqual(ticket, this.ticket(token, purpose, expMs));
  }

  private ticket(token: string, fileId: string, exp: number) {
    return createHmac('sha256', this.ticketKey).update(`${token}.${fileId}.${exp}`).digest('base64url');
  }

  private fileLinks(push: StoredPush, token: string, baseUrl: string): AttachedFile[] {
    const exp = this.now().getTime() + DOWNLOAD_TICKET_MS;
    return push.files.map((f) => ({
      filename: this.keys.openText(f.name),
      content_type: f.contentType,
      url: `${baseUrl}/p/${token}/files/${f.id}?exp=${exp}&ticket=${this.ticket(token, f.id, exp)}`,
    }));
  }

  /**
   * A file download: needs the ticket a view handed out (so knowing the link is not enough to
   * skip the passphrase or the view count) and a push that still holds its files. An end-to-end
   * file may be asked for in ranges (its records are authenticated by the recipient, so no
   * whole-file check is skipped); a range it cannot satisfy, or any range of another file, is
   * answered with the whole file, as HTTP allows.
   */
  async downloadFile(token: string, fileId: string, exp: unknown, ticket: unknown, asked?: ByteRangeRequest): Promise<FileDownload> {
    // The ticket is checked before the push is looked up: without one, an unknown token and a
    // real one get the same answer, so this address does not tell which tokens exist.
    if (!this.validTicket(token, fileId, exp, ticket)) throw new ServiceError('forbidden', 'This download link is invalid or has expired. Open the secret link again.');
    const push = await this.expireIfDue(await this.find(token));
    const file = push.files.find((f) => f.id === fileId);
    const purged = push.expiredAt && (!push.filesPurgeAt || push.filesPurgeAt <= this.now().toISOString());
    if (!file || purged) throw new ServiceError('not_found', 'not-found');
    if (push.endToEnd && asked && asked.start < file.size) {
      const range = { start: asked.start, end: Math.min(file.size, (asked.end ?? file.size - 1) + 1) };
      if (range.end > range.start) {
        const stream = await this.openingFile(() => this.deps.vault.readFileRange(push.token, file, range.start, range.end));
        return { filename: this.keys.openText(file.name), contentType: file.contentType, size: file.size, stream, range };
      }
    }
    return {
      filename: this.keys.openText(file.name),
      contentType: file.contentType,
      size: file.size,
      stream: await this.openingFile(() => this.deps.vault.readFile(push.token, file, { verifyFirst: !push.endToEnd })),
    };
  }

  /** Opens a stored file; one removed meanwhile (its push deleted or expired beside this download) is not found, not a failure. */
  private async openingFile(open: () => Promise<Readable>): Promise<Readable> {
    try {
      return await this.decrypting(open);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new ServiceError('not_found', 'not-found');
      throw e;
    }
  }

  /**
   * A push as its sender sees it before sharing (the secret link, what remains), without the
   * payload and without counting a view: the JSON preview and the `/p/<token>/preview` page.
   */
  async previewRecord(actor: Actor, token: string): Promise<PushRecordBase> {
    this.assertApiAccess(actor);
    const push = await this.expireIfDue(await this.find(token));
    return baseRecord(push, token, this.now(), actor.baseUrl);
  }

  async preview(actor: Actor, token: string): Promise<{ url: string }> {
    return { url: (await this.previewRecord(actor, token)).html_url };
  }

  async auditLog(actor: Actor, token: string, page: number) {
    const push = await this.find(token);
    this.requireAccount(actor);
    if (!this.isOwner(push, actor)) throw new ServiceError('forbidden', "That push doesn't belong to you.");
    const entries = await this.store.listAudit(push.token, (page - 1) * PAGE_SIZE, PAGE_SIZE);
    return { logs: entries.map(auditJson) };
  }

  /** Whether this caller owns the push (the pages offer its owner "Expire now", which `expire` then checks). */
  async ownedBy(actor: Actor, token: string): Promise<boolean> {
    return this.isOwner(await this.find(token), actor);
  }

  /** Whether this caller may expire the push now (owner, or anyone when deletable by viewers). */
  mayDelete(push: StoredPush, actor: Actor): boolean {
    return this.isOwner(push, actor) || push.deletableByViewer === true;
  }

  /**
   * Expires a push now. A viewer who is not the owner may delete a push with a passphrase only
   * after giving it: the passphrase itself (API, checked under the guess limits) or the ticket a
   * retrieval with the passphrase handed to the recipient page.
   */
  async expire(actor: Actor, token: string, proof: { passphrase?: string; ticket?: DeleteTicket } = {}): Promise<PushRecordBase> {
    const push = await this.find(token);
    if (!this.mayDelete(push, actor)) {
      this.requireAccount(actor);
      throw new ServiceError('forbidden', "That push doesn't belong to you.");
    }
    // A recipient deletes what they could open: before the release, not even their passphrase is judged.
    if (!push.expiredAt && !this.isOwner(push, actor)) {
      this.assertReleased(push);
      this.assertFollowedOpened(push, actor);
    }
    if (push.passphrase && !push.expiredAt && !this.isOwner(push, actor) && !this.validTicket(token, 'delete', proof.ticket?.exp, proof.ticket?.ticket)) {
      if (proof.passphrase === undefined || proof.passphrase === '') {
        throw new ServiceError('unauthorized', 'This push has a passphrase: give it (passphrase=…) to delete the push.');
      }
      await this.checkPassphrase(push, actor, proof.passphrase);
    }
    const after = await this.store.updatePush(push.token, (p) => {
      const at = this.now();
      if (p.expiredAt && p.deleted) return { result: p };
      const e = expired(p, at, { deleted: true });
      return { next: e, audit: this.auditRecord('expire', actor, at), events: p.expiredAt ? [] : pushEvents(this.keys, e, at, 'push.expired'), result: e };
    });
    await this.deps.vault.removeAll(push.token);
    return baseRecord(after ?? push, token, this.now(), actor.baseUrl);
  }

  /**
   * An administrator expires any push, named by its storage id (the admin's list has no URL
   * tokens): the same change and audit entry as an owner's Expire now, files removed alike.
   */
  async expireAsAdministrator(actor: Actor, storageId: string): Promise<StoredPush> {
    if (!actor.user?.admin) throw new ServiceError('forbidden', 'Administrators only.');
    const push = await this.store.getPush(storageId);
    if (!push) throw new ServiceError('not_found', 'not-found');
    const after = await this.store.updatePush(push.token, (p) => {
      const at = this.now();
      if (p.expiredAt && p.deleted) return { result: p };
      const e = expired(p, at, { deleted: true });
      return { next: e, audit: this.auditRecord('expire', actor, at), events: p.expiredAt ? [] : pushEvents(this.keys, e, at, 'push.expired'), result: e };
    });
    await this.deps.vault.removeAll(push.token);
    return after ?? push;
  }

  async list(actor: Actor, state: 'active' | 'expired', page: number): Promise<OwnerPushRecord[]> {
    this.requireAccount(actor);
    const listed = await this.store.listPushesByOwner(actor.user.id, state === 'expired', (page - 1) * PAGE_SIZE, PAGE_SIZE);
    // Time expiry applies on every access, lists included: a push past its days is not "active"
    // just because the sweeper has not come round yet.
    const pushes = state === 'active' ? (await Promise.all(listed.map((p) => this.expireIfDue(p)))).filter((p) => !p.expiredAt) : listed;
    const now = this.now();
    return this.decrypting(async () => pushes.map((p) => this.creatorView(p, p.urlToken ? this.keys.openText(p.urlToken) : '', now, actor.baseUrl)));
  }

  /**
   * Linked secrets on the create page: the pushes a new one may follow, the caller's latest
   * active ones (one dashboard page, most recent first). Only a choice to make it easy: create
   * checks `follows` itself (followedPush), whatever was posted.
   */
  async followChoices(actor: Actor): Promise<OwnerPushRecord[]> {
    return actor.user ? this.list(actor, 'active', 1) : [];
  }

  /**
   * The pushes that these records follow (by push_id), as their owner sees them: for "opens
   * after <name>" on the owner's pages. A followed push that is gone or not the caller's is left
   * out (the page then names it by its id alone).
   */
  async followedRecords(actor: Actor, records: OwnerPushRecord[]): Promise<Map<string, OwnerPushRecord>> {
    const found = new Map<string, OwnerPushRecord>();
    if (!actor.user) return found;
    const ids = [...new Set(records.map((r) => r.follows).filter((id): id is string => Boolean(id)))];
    const now = this.now();
    for (const id of ids) {
      const first = await this.store.getPush(id);
      if (!first || !this.isOwner(first, actor) || !first.urlToken) continue;
      found.set(id, await this.decrypting(async () => this.creatorView(first, this.keys.openText(first.urlToken!), now, actor.baseUrl)));
    }
    return found;
  }

  /**
   * Every push of one of the caller's batches (one link per recipient), in row order, as owner
   * records: the dashboard groups them and shows whose has been opened (each row's name is opened
   * here, for its owner only). Someone else's batch id lists nothing.
   */
  async listBatch(actor: Actor, batchId: string): Promise<OwnerPushRecord[]> {
    this.requireAccount(actor);
    // Batch ids are UUIDs (BatchService): anything else names no batch, on every store alike (a
    // NUL, which PostgreSQL refuses in text, included).
    if (!BATCH_ID.test(batchId)) return [];
    const listed = await this.store.listPushesOfBatch(actor.user.id, batchId, MAX_BATCH_ROWS);
    const pushes = await Promise.all(listed.map((p) => this.expireIfDue(p)));
    const now = this.now();
    return this.decrypting(async () => pushes.map((p) => this.creatorView(p, p.urlToken ? this.keys.openText(p.urlToken) : '', now, actor.baseUrl)));
  }

  /**
   * The push of `token` as its create answered it, as it stands now: for a sliced upload's
   * finish asked again after its answer was lost. The token is the capability (as for a view);
   * a push made with an account is that account's alone.
   */
  async creatorRecord(actor: Actor, token: string): Promise<OwnerPushRecord> {
    const push = await this.expireIfDue(await this.find(token));
    if (push.ownerId !== null && !this.isOwner(push, actor)) throw new ServiceError('not_found', 'not-found');
    return this.decrypting(async () => this.creatorView(push, token, this.now(), actor.baseUrl));
  }

  private creatorView(push: StoredPush, token: string, now: Date, baseUrl: string): OwnerPushRecord {
    return ownerRecord(push, token, push.token, { note: push.note ? this.keys.openText(push.note) : null, name: openName(this.keys, push.name) }, now, baseUrl, this.fileNames(push));
  }

  /** The names of a push's files, opened (sealed at rest like the files): for its owner's records. */
  private fileNames(push: StoredPush): string[] {
    return push.files.map((f) => this.keys.openText(f.name));
  }

  /**
   * Background work, safe with several instances sweeping at once (each claims its own rows):
   * expires what is due by time, purges files past their grace window, and deletes expired
   * pushes' records after the retention period. Works in bounded batches.
   */
  async sweep(): Promise<{ expired: number; filesPurged: number; deleted: number }> {
    const now = this.now();
    const expiredCount = await this.sweepDue('expiry', now, this.expiryByTime(now));
    const filesPurged = await this.sweepDue('file-purge', now, (p) => ({ next: { ...p, files: [], filesPurgeAt: null }, result: p }));
    let deleted = 0;
    const retentionDays = this.deps.config.purgeExpiredAfterDays;
    if (retentionDays > 0) {
      const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
      let n: number;
      do {
        n = await this.store.deleteExpiredBefore(cutoff, SWEEP_BATCH);
        deleted += n;
      } while (n === SWEEP_BATCH);
    }
    // Files of uploads whose push was never created (the process died in between); a day is far
    // longer than any upload may take (REQUEST_TIMEOUT_SECONDS).
    await this.store.blobs.removeOrphans(new Date(now.getTime() - 86_400_000), SWEEP_BATCH);
    await this.passphraseGuesses.prune();
    return { expired: expiredCount, filesPurged, deleted };
  }

  /** Claims what is due a batch at a time, changes it, erases its files; returns how many. */
  private async sweepDue(due: DueWork, now: Date, change: (p: StoredPush) => PushChange<StoredPush>): Promise<number> {
    let total = 0;
    for (let claimed = SWEEP_BATCH; claimed === SWEEP_BATCH; ) {
      const pushes = await this.store.updateDuePushes(due, now, SWEEP_BATCH, change);
      for (const p of pushes) await this.deps.vault.removeAll(p.token);
      claimed = pushes.length;
      total += claimed;
    }
    return total;
  }
}

/** What a new push costs in storage: its record as stored, and its files. */
function storedSize(push: StoredPush): number {
  return Buffer.byteLength(JSON.stringify(push)) + push.files.reduce((sum, f) => sum + f.size, 0);
}

/** Pushes handled per statement by the sweep: bounded work per step, however much is due. */
const SWEEP_BATCH = 500;

const SYSTEM_ACTOR: Actor = { user: null, client: { ip: '', userAgent: 'expiry', referrer: '' }, baseUrl: '' };
