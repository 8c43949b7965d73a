import { requestAnswerSchema, requestInputSchema, type OwnerRequest, type PublicRequest } from '../../shared/request-schema.js';
import type { Limits } from '../config.js';
import type { KeyRing } from '../crypto/key-ring.js';
import { safeEqual } from '../crypto/secret-hash.js';
import { secretUrl } from '../pushes/push-json.js';
import { PAGE_SIZE, type Actor, type PushService } from '../pushes/push-service.js';
import type { FileUpload } from '../pushes/file-upload.js';
import type { UrlTokenIds } from '../pushes/url-token-id.js';
import { newUrlToken } from '../pushes/url-token.js';
import { ServiceError } from '../service-error.js';
import type { StoredRequest } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import { pushEvents, requestAnsweredEvent } from '../webhooks/webhook-events.js';
import { requestAnsweredMails } from '../mail/request-receipt.js';

const MAX_TITLE_CHARS = 255;
const MAX_MESSAGE_CHARS = 2000;
const DAY_MS = 86_400_000;
/** Requests deleted per statement by the retention sweep. */
const SWEEP_BATCH = 500;

export interface RequestServiceDeps {
  store: Store;
  /** Requests no longer open are deleted this many days after they closed (0: kept). */
  retentionDays?: number;
  keys: KeyRing;
  ids: UrlTokenIds;
  pushes: PushService;
  limits: Pick<Limits, 'days' | 'views'>;
  clock?: () => Date;
  /** E-mail is set up (SMTP_URL): "e-mail me when it is answered" may be asked for. */
  mailEnabled?: boolean;
  /** What the e-mails are signed with (BRAND_NAME, or Secret Push). */
  productName?: string;
}

/**
 * Secret requests: a signed-in user makes a link (with a title and message they choose to show,
 * and an expiry); whoever opens it may send a text once; the answer becomes a push owned by the
 * requester, with the limits they chose, stored in the same atomic step that closes the request.
 * The link shows nothing about the requester but their title and message; an unknown, expired,
 * answered or closed link all answer the same "not found".
 */
export class RequestService {
  private readonly now: () => Date;

  constructor(private readonly deps: RequestServiceDeps) {
    this.now = deps.clock ?? (() => new Date());
  }

  /** Request ids live in their own namespace of the keyed hash (a push token never names one). */
  private idOf(token: string) {
    return this.deps.ids.of(`request:${token}`);
  }

  async create(actor: Actor, raw: unknown): Promise<OwnerRequest> {
    if (!actor.user) throw new ServiceError('unauthorized', 'You need to sign in or sign up before continuing.');
    const parsed = requestInputSchema.safeParse(raw ?? {});
    const errors: Record<string, string[]> = {};
    const add = (field: string, message: string) => (errors[field] ??= []).push(message);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) add(String(issue.path[0] ?? 'request'), issue.message);
      throw ServiceError.validation(errors);
    }
    const input = parsed.data;
    const { days, views } = this.deps.limits;
    const title = input.title?.trim() || null;
    const message = input.message?.trim() || null;
    if (title && [...title].length > MAX_TITLE_CHARS) add('title', `is too long (maximum is ${MAX_TITLE_CHARS} characters)`);
    if (message && [...message].length > MAX_MESSAGE_CHARS) add('message', `is too long (maximum is ${MAX_MESSAGE_CHARS} characters)`);
    const within = (field: string, value: number | undefined, range: { default: number; min: number; max: number }) => {
      const v = value ?? range.default;
      if (v < range.min || v > range.max) add(field, `must be between ${range.min} and ${range.max}`);
      return v;
    };
    const linkDays = within('expire_after_days', input.expire_after_days, days);
    const answerDays = within('answer_expire_after_days', input.answer_expire_after_days, days);
    const answerViews = within('answer_expire_after_views', input.answer_expire_after_views, views);
    if (Object.keys(errors).length) throw ServiceError.validation(errors);

    const now = this.now();
    const token = newUrlToken();
    const request: StoredRequest = {
      id: this.idOf(token),
      urlToken: this.deps.keys.seal(token),
      ownerId: actor.user.id,
      title: title ? this.deps.keys.seal(title) : null,
      message: message ? this.deps.keys.seal(message) : null,
      expiresAt: new Date(now.getTime() + linkDays * DAY_MS).toISOString(),
      answerExpireAfterDays: answerDays,
      answerExpireAfterViews: answerViews,
      createdAt: now.toISOString(),
      answeredAt: null,
      pushId: null,
      closedAt: null,
    };
    const receipt = this.answerReceiptChoice(actor, input.email_on_answer);
    if (receipt) request.answerReceipt = receipt;
    await this.deps.store.insertRequest(request);
    return this.ownerJson(request, actor.baseUrl);
  }

  /** "E-mail me when it is answered": as asked, else the account's default; only with e-mail set up. */
  private answerReceiptChoice(actor: Actor, raw: boolean | string | undefined): StoredRequest['answerReceipt'] {
    const byDefault = raw === undefined;
    const wanted = byDefault ? Boolean(this.deps.mailEnabled && actor.user?.receiptDefaults?.requestAnswered) : raw === true || raw === 'true' || raw === '1' || raw === 'on';
    if (!wanted || !actor.user) return undefined;
    if (!this.deps.mailEnabled) throw ServiceError.validation({ email_on_answer: ['e-mail is not set up on this server'] });
    // Recorded now, so the mail can say truly whether the request or the account's setting asked for it.
    return { to: this.deps.keys.seal(actor.user.email), locale: actor.locale ?? actor.user.locale ?? 'en', origin: actor.baseUrl, ...(byDefault ? { byDefault: true } : {}) };
  }

  async list(actor: Actor, page = 1): Promise<OwnerRequest[]> {
    if (!actor.user) throw new ServiceError('unauthorized', 'You need to sign in or sign up before continuing.');
    const rows = await this.deps.store.listRequestsByOwner(actor.user.id, (page - 1) * PAGE_SIZE, PAGE_SIZE);
    return Promise.all(rows.map((r) => this.ownerJson(r, actor.baseUrl)));
  }

  private state(r: StoredRequest): OwnerRequest['state'] {
    if (r.answeredAt) return 'answered';
    if (r.closedAt) return 'closed';
    return r.expiresAt <= this.now().toISOString() ? 'expired' : 'open';
  }

  private async ownerJson(r: StoredRequest, baseUrl: string): Promise<OwnerRequest> {
    const open = (v: string | null) => (v ? this.deps.keys.openText(v) : null);
    const token = this.deps.keys.openText(r.urlToken);
    const answer = r.pushId ? await this.deps.store.getPush(r.pushId) : undefined;
    const answerToken = answer?.urlToken ? this.deps.keys.openText(answer.urlToken) : null;
    return {
      url_token: token,
      html_url: `${baseUrl}/req/${token}`,
      title: open(r.title),
      message: open(r.message),
      created_at: r.createdAt,
      expires_at: r.expiresAt,
      state: this.state(r),
      answered_at: r.answeredAt,
      answer_expire_after_days: r.answerExpireAfterDays,
      answer_expire_after_views: r.answerExpireAfterViews,
      push_id: r.pushId,
      email_on_answer: r.answerReceipt !== undefined,
      answer_html_url: answer && answerToken && !answer.expiredAt ? secretUrl(answer, baseUrl, answerToken) : null,
    };
  }

  /** An open request, as whoever holds its link sees it; anything else is not found. */
  async show(token: string): Promise<PublicRequest> {
    const r = await this.openRequest(token);
    return { title: r.title ? this.deps.keys.openText(r.title) : null, message: r.message ? this.deps.keys.openText(r.message) : null, expires_at: r.expiresAt };
  }

  private async openRequest(token: string): Promise<StoredRequest> {
    const r = await this.deps.store.getRequest(this.idOf(token));
    if (!r || this.state(r) !== 'open') throw new ServiceError('not_found', 'not-found');
    return r;
  }

  /**
   * Sends the answer: it becomes a push owned by the requester, and the request closes, in one
   * atomic step, so two answers racing for one request leave exactly one push.
   */
  async answer(sender: Actor, token: string, raw: unknown, upload?: FileUpload): Promise<{ answered: true }> {
    let prepared: Awaited<ReturnType<PushService['prepareSentPush']>>;
    let r: StoredRequest;
    try {
      r = await this.openRequest(token);
      const parsed = requestAnswerSchema.safeParse(raw ?? {});
      if (!parsed.success) throw ServiceError.validation({ payload: parsed.error.issues.map((i) => i.message) });
      const hasFiles = (upload?.files.length ?? 0) > 0;
      prepared = await this.deps.pushes.prepareSentPush(
        sender,
        r.ownerId,
        {
          kind: hasFiles ? 'file' : 'text',
          payload: parsed.data.payload ?? '',
          expire_after_days: r.answerExpireAfterDays,
          expire_after_views: r.answerExpireAfterViews,
          name: r.title ? this.deps.keys.openText(r.title) : undefined,
        },
        upload,
      );
    } catch (e) {
      await upload?.discard();
      throw e;
    }
    let answered: boolean | undefined;
    try {
      answered = await this.deps.store.updateRequest(r.id, (current) => {
        if (this.state(current) !== 'open') return { result: false };
        const at = this.now();
        const next: StoredRequest = { ...current, answeredAt: at.toISOString(), pushId: prepared.push.token };
        return {
          next,
          push: { push: prepared.push, creation: prepared.creation },
          events: [requestAnsweredEvent(this.deps.keys, current, prepared.push.token, at), ...pushEvents(this.deps.keys, prepared.push, at, 'push.created')],
          mails: requestAnsweredMails(this.deps.keys, current, prepared.push.token, at, this.deps.productName ?? 'Secret Push'),
          result: true,
        };
      });
    } catch (e) {
      await prepared.release();
      await upload?.discard();
      throw e;
    }
    if (!answered) {
      await prepared.release();
      await upload?.discard();
      throw new ServiceError('not_found', 'not-found');
    }
    return { answered: true };
  }

  /** Retention: deletes requests closed, answered or expired more than `retentionDays` ago, in batches. */
  async sweep(): Promise<number> {
    const days = this.deps.retentionDays ?? 0;
    if (days <= 0) return 0;
    const before = new Date(this.now().getTime() - days * DAY_MS);
    let total = 0;
    for (let n = SWEEP_BATCH; n === SWEEP_BATCH; total += n) n = await this.deps.store.deleteRequestsBefore(before, SWEEP_BATCH);
    return total;
  }

  /** Closes an open request before it is answered (its owner only). */
  async close(actor: Actor, token: string): Promise<OwnerRequest> {
    if (!actor.user) throw new ServiceError('unauthorized', 'You need to sign in or sign up before continuing.');
    const id = this.idOf(token);
    const userId = actor.user.id;
    const after = await this.deps.store.updateRequest<StoredRequest | 'forbidden'>(id, (r) => {
      if (!safeEqual(r.ownerId, userId)) return { result: 'forbidden' };
      if (r.answeredAt || r.closedAt) return { result: r };
      const next = { ...r, closedAt: this.now().toISOString() };
      return { next, result: next };
    });
    if (after === undefined) throw new ServiceError('not_found', 'not-found');
    if (after === 'forbidden') throw new ServiceError('forbidden', "That request doesn't belong to you.");
    return this.ownerJson(after, actor.baseUrl);
  }
}
