import { randomBytes } from 'node:crypto';
import { webhookEventTypes, webhookInputSchema, type CreatedWebhook, type Webhook, type WebhookDelivery } from '../../shared/webhook-schema.js';
import type { WebhookSettings } from '../config.js';
import type { KeyRing } from '../crypto/key-ring.js';
import type { Actor } from '../pushes/push-service.js';
import { ServiceError } from '../service-error.js';
import type { StoredDelivery, StoredWebhook } from '../storage/records.js';
import { isStorableText } from '../storage/storable-text.js';
import type { Store } from '../storage/store.js';
import { assertPublicHost, ForbiddenTargetError } from './ssrf-guard.js';
import { newSigningSecret } from './webhook-signature.js';

/** Endpoints one account may register. */
export const MAX_WEBHOOKS_PER_ACCOUNT = 10;
/** Deliveries read to find each endpoint's latest (the account page's "last status"). */
const RECENT_DELIVERIES = 200;

export interface WebhookServiceDeps {
  store: Store;
  keys: KeyRing;
  settings: Pick<WebhookSettings, 'allowPrivate'>;
  clock?: () => Date;
}

/**
 * An account's webhook endpoints: registering (URL checked against server-side request forgery,
 * the signing secret sealed at rest), listing with each one's last delivery, removing. The
 * deliveries themselves are the DeliveryWorker's.
 */
export class WebhookService {
  private readonly now: () => Date;

  constructor(private readonly deps: WebhookServiceDeps) {
    this.now = deps.clock ?? (() => new Date());
  }

  private requireAccount(actor: Actor): string {
    if (!actor.user) throw new ServiceError('unauthorized', 'You need to sign in or sign up before continuing.');
    return actor.user.id;
  }

  async create(actor: Actor, raw: unknown): Promise<CreatedWebhook> {
    const userId = this.requireAccount(actor);
    const parsed = webhookInputSchema.safeParse(raw ?? {});
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? 'webhook')] ??= []).push(issue.message);
      throw ServiceError.validation(errors);
    }
    const input = parsed.data;
    const url = await this.checkTarget(input.url);
    if (input.events && input.events.length === 0) throw ServiceError.validation({ events: ['choose at least one event'] });
    const events = input.events ? [...new Set(input.events)] : [...webhookEventTypes];
    const secret = input.secret ?? newSigningSecret();
    const stored: StoredWebhook = {
      id: `wh_${randomBytes(12).toString('base64url')}`,
      userId,
      url,
      secret: this.deps.keys.seal(secret),
      events,
      createdAt: this.now().toISOString(),
    };
    if (!(await this.deps.store.insertWebhook(stored, MAX_WEBHOOKS_PER_ACCOUNT))) {
      throw ServiceError.validation({ url: [`an account may have at most ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks; remove one first`] });
    }
    return { ...webhookJson(stored, null), secret };
  }

  /** A URL a webhook may be sent to: http(s), no credentials, and a public address unless allowed. */
  private async checkTarget(raw: string): Promise<string> {
    let u: URL;
    try {
      u = new URL(raw.trim());
    } catch {
      throw ServiceError.validation({ url: ['must be an http or https URL'] });
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw ServiceError.validation({ url: ['must be an http or https URL'] });
    if (u.username || u.password) throw ServiceError.validation({ url: ['must not contain a user name or password (the signature authenticates us)'] });
    if (!this.deps.settings.allowPrivate) {
      try {
        await assertPublicHost(u.hostname);
      } catch (e) {
        if (e instanceof ForbiddenTargetError) throw ServiceError.validation({ url: [`is not allowed: ${e.message}`] });
        throw ServiceError.validation({ url: [`cannot be resolved (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`] });
      }
    }
    return u.toString();
  }

  async list(actor: Actor): Promise<Webhook[]> {
    const userId = this.requireAccount(actor);
    const [hooks, recent] = await Promise.all([this.deps.store.listWebhooks(userId), this.deps.store.listDeliveries(userId, RECENT_DELIVERIES)]);
    return hooks.map((h) => webhookJson(h, recent.find((d) => d.webhookId === h.id) ?? null));
  }

  async remove(actor: Actor, id: string): Promise<void> {
    const userId = this.requireAccount(actor);
    // An id with a NUL or a lone surrogate names no webhook (storable-text.ts), on either store.
    if (!isStorableText(id) || !(await this.deps.store.deleteWebhook(userId, id))) throw new ServiceError('not_found', 'No such webhook.');
  }

  /** The account's most recent deliveries, newest first. */
  async deliveries(actor: Actor, limit = 50): Promise<WebhookDelivery[]> {
    const userId = this.requireAccount(actor);
    return (await this.deps.store.listDeliveries(userId, limit)).map(deliveryJson);
  }
}

function webhookJson(h: StoredWebhook, last: StoredDelivery | null): Webhook {
  return { id: h.id, url: h.url, events: h.events, created_at: h.createdAt, last_delivery: last ? deliveryJson(last) : null };
}

function deliveryJson(d: StoredDelivery): WebhookDelivery {
  return {
    id: d.id,
    type: d.type,
    state: d.state,
    attempts: d.attempts,
    last_status: d.lastStatus,
    last_error: d.lastError,
    last_attempt_at: d.lastAttemptAt,
    next_attempt_at: d.state === 'pending' ? d.nextAttemptAt : null,
    created_at: d.createdAt,
  };
}
