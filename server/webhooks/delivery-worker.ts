import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { WebhookSettings } from '../config.js';
import type { KeyRing } from '../crypto/key-ring.js';
import type { Logger } from '../logger.js';
import type { DeliveryOutcome, StoredDelivery } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import { assertPublicHost, guardedLookup } from './ssrf-guard.js';
import { signatureHeaders } from './webhook-signature.js';

/** Deliveries claimed (and attempted at once) per round. */
const BATCH = 20;
/** The longest wait between two attempts of one delivery, however many failed. */
const MAX_BACKOFF_MS = 6 * 3_600_000;
/** Delivered and given-up deliveries are kept this long for the account page, then deleted. */
export const FINISHED_DELIVERY_RETENTION_MS = 30 * 86_400_000;
/** How often that clean-up runs, and how much it deletes per statement. */
const CLEANUP_EVERY_MS = 3_600_000;
const CLEANUP_BATCH = 500;
/** What of a receiver's error answer is kept for the account page. */
const ERROR_CHARS = 200;

export interface DeliveryWorkerDeps {
  store: Store;
  keys: KeyRing;
  settings: WebhookSettings;
  logger: Logger;
  clock?: () => Date;
}

/** The wait before attempt `attempts + 1`, after `attempts` failed: base × 2^(attempts − 1), capped. */
export function backoffMs(baseMs: number, attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Sends the outbox: every poll it claims due deliveries (leased, so that with several instances
 * each is attempted by one at a time, and one whose instance died is taken up again when its
 * lease runs out), posts each signed as Standard Webhooks asks, and records the outcome. A 2xx
 * answer delivers; anything else is retried with exponential back-off until the delivery is
 * `retryForMs` old, then given up. At least once: a receiver de-duplicates by `webhook-id`.
 */
export class DeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private lastCleanup = 0;
  private readonly now: () => Date;

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.now = deps.clock ?? (() => new Date());
  }

  start(): this {
    this.schedule();
    return this;
  }

  private schedule() {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round()
        .then(() => undefined)
        .catch((e) => this.deps.logger.error('webhook deliveries: a round failed (retried at the next poll)', e))
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.deps.settings.pollMs);
    this.timer.unref();
  }

  /** One round: claims what is due and attempts it; resolves with how many were attempted. */
  async round(): Promise<number> {
    const now = this.now();
    // The lease outlasts an attempt (the request's timeout) with room to record its outcome.
    const lease = new Date(now.getTime() + this.deps.settings.timeoutMs * 2 + 5_000);
    const due = await this.deps.store.claimDeliveries(now, lease, BATCH);
    await Promise.all(due.map((d) => this.attempt(d)));
    if (now.getTime() - this.lastCleanup >= CLEANUP_EVERY_MS) {
      this.lastCleanup = now.getTime();
      const before = new Date(now.getTime() - FINISHED_DELIVERY_RETENTION_MS);
      while ((await this.deps.store.deleteFinishedDeliveries(before, CLEANUP_BATCH)) === CLEANUP_BATCH);
    }
    return due.length;
  }

  private async attempt(d: StoredDelivery): Promise<void> {
    const at = this.now();
    const hook = (await this.deps.store.listWebhooks(d.userId)).find((w) => w.id === d.webhookId);
    if (!hook) return; // removed meanwhile, with its deliveries
    let status: number | null = null;
    let error: string | null = null;
    try {
      const headers = signatureHeaders(this.deps.keys.openText(hook.secret), d.id, at, d.body);
      status = await this.post(hook.url, headers, d.body);
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (e) {
      error = ((e as Error).message || String(e)).slice(0, ERROR_CHARS);
    }
    const attempts = d.attempts + 1;
    const outcome: DeliveryOutcome = { attempts, lastStatus: status, lastError: error, lastAttemptAt: at.toISOString(), state: 'delivered', nextAttemptAt: null };
    if (error !== null) {
      const next = at.getTime() + backoffMs(this.deps.settings.retryBaseMs, attempts);
      const givenUp = next > Date.parse(d.createdAt) + this.deps.settings.retryForMs;
      outcome.state = givenUp ? 'failed' : 'pending';
      outcome.nextAttemptAt = givenUp ? null : new Date(next).toISOString();
      if (givenUp) this.deps.logger.info(`webhook delivery ${d.id} given up after ${attempts} attempts`);
    }
    await this.deps.store.finishDelivery(d.id, outcome);
  }

  /** POSTs the body; resolves with the status. Private addresses are refused again here (DNS may have changed). */
  private async post(url: string, signature: Record<string, string>, body: string): Promise<number> {
    const u = new URL(url);
    const guard = !this.deps.settings.allowPrivate;
    // An IP literal connects without a lookup, so the guard checks it here; names, in the lookup.
    const literal = u.hostname.replace(/^\[|\]$/g, '');
    if (guard && isIP(literal)) await assertPublicHost(literal);
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        u,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'SecretPush-Webhooks/1', ...signature },
          timeout: this.deps.settings.timeoutMs,
          ...(guard ? { lookup: guardedLookup } : {}),
        },
        (res) => {
          // Only the status matters; the body is drained so the socket is freed.
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.deps.settings.timeoutMs / 1000} s`)));
      req.on('error', reject);
      req.end(body);
    });
  }

  /** Stops polling and waits for a round in flight (its outcomes are recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
