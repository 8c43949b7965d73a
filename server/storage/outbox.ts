import type { StoredDelivery, StoredWebhook, WebhookEvent } from './records.js';

/**
 * The outbox rule both stores apply in the step that records an event: one pending delivery per
 * webhook of the event's account that asked for its type, due at once.
 */
export function deliveriesFor(event: WebhookEvent, webhooks: readonly StoredWebhook[]): StoredDelivery[] {
  return webhooks
    .filter((w) => w.userId === event.userId && w.events.includes(event.type))
    .map((w) => ({
      id: deliveryId(event, w.id),
      webhookId: w.id,
      userId: w.userId,
      type: event.type,
      body: event.body,
      createdAt: event.at,
      attempts: 0,
      nextAttemptAt: event.at,
      leaseUntil: null,
      state: 'pending',
      lastStatus: null,
      lastError: null,
      lastAttemptAt: null,
    }));
}

/** The `webhook-id` of an event's delivery to one endpoint: stable across attempts. */
export function deliveryId(event: Pick<WebhookEvent, 'id'>, webhookId: string): string {
  return `${event.id}_${webhookId}`;
}

/** PushChange's audit field as a list. */
export function auditList<T>(audit: T | T[] | undefined): T[] {
  return audit === undefined ? [] : Array.isArray(audit) ? audit : [audit];
}
