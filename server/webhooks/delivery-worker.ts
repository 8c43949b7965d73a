import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { WebhookSettings } from '../config.js';
import type { KeyRing } from '../crypto/key-ring.js';
import type { Logger } from '../logger.js';
import type { DeliveryOutcome, StoredDelivery } from '../storage/records.js';
import type { Store } from '../storage/store.js';
import { assertPublicHost, guardedLookup } from './ssrf-guard.js';
import { openOutboxBody } from './webhook-events.js';
import { signatureHeaders } from './webhook-signature.js';

/** Deliveries in flight at once, all endpoints together. */
const MAX_IN_FLIGHT = 64;
/** Deliveries to one endpoint (webhook) at once. */
const PER_ENDPOINT = 4;
/** The longest wait between two attempts of one delivery, however many failed. */
const MAX_BACKOFF_MS = 6 * 3_600_000;
/** Delivered and given-up deliveries are kept this long for the account page, then deleted. */
export const FINISHED_DELIVERY_RETENTION_MS = 30 * 86_400_000;
/** How often that clean-up runs, and how much it deletes per statement. */
const CLEANUP_EVERY_MS = 3_600_000;
const CLEANUP_BATCH = 500;
/** What of a receiver's error answer is kept for the account page. */
const ERROR_CHARS = 200;
/** What the account page shows for an attempt the server's shutdown cut short. */
export const ABANDONED_AT_SHUTDOWN = 'abandoned: the server stopped during the attempt (sent again)';

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

class Abandoned extends Error {}

/**
 * Sends the outbox: every poll it claims due deliveries (leased, so that with several instances
 * each is attempted by one at a time, and one whose instance died is taken up again when its
 * lease runs out), posts each signed as Standard Webhooks asks, and records the outcome. A 2xx
 * answer delivers; anything else is retried with exponential back-off until the delivery is
 * `retryForMs` old, then given up. At least once: a receiver de-duplicates by `webhook-id`.
 *
 * Endpoints are independent: a poll starts its attempts and does not wait for them, and claims
 * nothing for an endpoint still busy with earlier ones (at most PER_ENDPOINT each), so a slow or
 * dead endpoint holds up only its own deliveries. Each attempt has one deadline for the whole
 * exchange (`timeoutMs`: connecting, the request, the answer's status), whatever arrives meanwhile.
 */
export class DeliveryWorker {
  private readonly now: () => Date;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private sleeping: { timer: NodeJS.Timeout; wake: () => void } | undefined;
  private pollAgain = false;
  private lastCleanup = 0;
  /** Attempts in flight, by webhook id. */
  private readonly inFlight = new Map<string, Set<Promise<void>>>();
  /** Webhooks whose last claim took their full share: more may be due once they are free. */
  private readonly backlogged = new Set<string>();
  /** Aborted by stop(): attempts in flight end at once and are recorded as due again. */
  private readonly shutdown = new AbortController();

  constructor(private readonly deps: DeliveryWorkerDeps) {
    this.now = deps.clock ?? (() => new Date());
  }

  start(): this {
    this.loop ??= this.run();
    return this;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      await this.sleep(this.deps.settings.pollMs);
      if (this.stopped) break;
      this.pollAgain = false;
      try {
        await this.poll();
      } catch (e) {
        this.deps.logger.error('webhook deliveries: a poll failed (tried again at the next one)', e);
      }
    }
  }

  /** Waits `ms`, or less when an endpoint's backlog may be claimed at once, or when stopping. */
  private sleep(ms: number): Promise<void> {
    if (this.pollAgain || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => wake(), ms);
      timer.unref();
      const wake = () => {
        clearTimeout(timer);
        this.sleeping = undefined;
        resolve();
      };
      this.sleeping = { timer, wake };
    });
  }

  private wakeUp() {
    this.pollAgain = true;
    this.sleeping?.wake();
  }

  private get attemptsInFlight(): number {
    let n = 0;
    for (const set of this.inFlight.values()) n += set.size;
    return n;
  }

  /** One poll: claims what is due for the endpoints that are free and starts it; resolves with how many it started. */
  async poll(): Promise<number> {
    const now = this.now();
    const room = MAX_IN_FLIGHT - this.attemptsInFlight;
    let started = 0;
    if (room > 0) {
      // The lease outlasts an attempt (its deadline) with room to record its outcome.
      const lease = new Date(now.getTime() + this.deps.settings.timeoutMs * 2 + 5_000);
      const due = await this.deps.store.claimDeliveries(now, lease, room, { perWebhook: PER_ENDPOINT, skip: [...this.inFlight.keys()] });
      const perWebhook = new Map<string, number>();
      for (const d of due) perWebhook.set(d.webhookId, (perWebhook.get(d.webhookId) ?? 0) + 1);
      for (const [id, n] of perWebhook) if (n >= PER_ENDPOINT) this.backlogged.add(id);
      for (const d of due) this.begin(d);
      started = due.length;
    }
    if (now.getTime() - this.lastCleanup >= CLEANUP_EVERY_MS) {
      this.lastCleanup = now.getTime();
      const before = new Date(now.getTime() - FINISHED_DELIVERY_RETENTION_MS);
      while ((await this.deps.store.deleteFinishedDeliveries(before, CLEANUP_BATCH)) === CLEANUP_BATCH);
    }
    return started;
  }

  /** Starts an attempt; when its endpoint's last one ends, a backlog there is claimed at once. */
  private begin(d: StoredDelivery) {
    const set = this.inFlight.get(d.webhookId) ?? new Set<Promise<void>>();
    this.inFlight.set(d.webhookId, set);
    const attempt: Promise<void> = this.attempt(d)
      .catch((e) => this.deps.logger.error(`webhook delivery ${d.id}: its outcome could not be recorded (its lease runs out, then it is sent again)`, e))
      .finally(() => {
        set.delete(attempt);
        if (set.size > 0) return;
        this.inFlight.delete(d.webhookId);
        if (this.backlogged.delete(d.webhookId) && !this.stopped) this.wakeUp();
      });
    set.add(attempt);
  }

  private async attempt(d: StoredDelivery): Promise<void> {
    const at = this.now();
    const hook = (await this.deps.store.listWebhooks(d.userId)).find((w) => w.id === d.webhookId);
    if (!hook) return; // removed meanwhile, with its deliveries
    let status: number | null = null;
    let error: string | null = null;
    try {
      const body = openOutboxBody(this.deps.keys, d.body);
      const headers = signatureHeaders(this.deps.keys.openText(hook.secret), d.id, at, body);
      status = await this.post(hook.url, headers, body);
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (e) {
      if (e instanceof Abandoned || this.shutdown.signal.aborted) {
        // Not the receiver's failure: due again at once, on the next start or another instance,
        // with the same webhook-id (a receiver that got it de-duplicates).
        await this.deps.store.finishDelivery(d.id, { attempts: d.attempts, state: 'pending', nextAttemptAt: at.toISOString(), lastStatus: null, lastError: ABANDONED_AT_SHUTDOWN, lastAttemptAt: at.toISOString() });
        return;
      }
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

  /**
   * POSTs the body; resolves with the answer's status as soon as it arrives (the receiver's
   * verdict; its body is read only to free the connection, within the same deadline). Private
   * addresses are refused again here (DNS may have changed).
   */
  private async post(url: string, signature: Record<string, string>, body: string): Promise<number> {
    if (this.shutdown.signal.aborted) throw new Abandoned();
    const u = new URL(url);
    const guard = !this.deps.settings.allowPrivate;
    // An IP literal connects without a lookup, so the guard checks it here; names, in the lookup.
    const literal = u.hostname.replace(/^\[|\]$/g, '');
    if (guard && isIP(literal)) await assertPublicHost(literal);
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    const seconds = this.deps.settings.timeoutMs / 1000;
    const deadline = AbortSignal.timeout(this.deps.settings.timeoutMs);
    const signal = AbortSignal.any([deadline, this.shutdown.signal]);
    return new Promise((resolve, reject) => {
      const fail = (e: Error) => reject(this.shutdown.signal.aborted ? new Abandoned() : deadline.aborted ? new Error(`no answer within ${seconds} s`) : e);
      const req = send(
        u,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'SecretPush-Webhooks/1', ...signature },
          signal,
          ...(guard ? { lookup: guardedLookup } : {}),
        },
        (res) => {
          resolve(res.statusCode ?? 0);
          res.on('error', () => undefined);
          res.resume();
        },
      );
      req.on('error', fail);
      req.end(body);
    });
  }

  /**
   * Stops polling and abandons the attempts in flight: each ends at once and is recorded as due
   * again (sent with the same webhook-id on the next start, or by another instance). Resolves
   * once those records are written.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.shutdown.abort();
    this.sleeping?.wake();
    await this.loop;
    await Promise.all([...this.inFlight.values()].flatMap((set) => [...set]));
  }
}
