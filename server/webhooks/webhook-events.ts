import { randomBytes } from 'node:crypto';
import type { KeyRing } from '../crypto/key-ring.js';
import { viewsRemaining } from '../pushes/expiry.js';
import { openName } from '../pushes/push-name.js';
import type { StoredPush, StoredRequest, WebhookEvent } from '../storage/records.js';

export type WebhookEventType = WebhookEvent['type'];

/** A fresh event id (Standard Webhooks' `msg_` convention); deliveries are named after it. */
export function newEventId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

/**
 * The event for something that happened to an account's push, or nothing for an anonymous push
 * (no account, no webhooks). The body says what happened and to which push (its `push_id`, as
 * in the owner's lists, and the owner's own label), never the payload, passphrase, note, file
 * names or the secret link.
 */
export function pushEvent(keys: KeyRing, type: WebhookEventType, push: StoredPush, at: Date): WebhookEvent | undefined {
  if (!push.ownerId) return undefined;
  return event(keys, type, push.ownerId, at, {
    push_id: push.token,
    name: openName(keys, push.name),
    kind: push.kind,
    created_at: push.createdAt,
    expire_after_views: push.expireAfterViews,
    views_remaining: viewsRemaining(push),
    first_viewed_at: push.firstViewedAt ?? null,
    failed_passphrase_attempts: push.failedPassphraseAttempts ?? 0,
    expired: push.expiredAt !== null,
    expired_on: push.expiredAt,
    deleted: push.deleted,
  });
}

/** A secret request was answered; its answer is the push `pushId` (the owner's push id). */
export function requestAnsweredEvent(keys: KeyRing, request: Pick<StoredRequest, 'ownerId' | 'createdAt'>, pushId: string, at: Date): WebhookEvent {
  return event(keys, 'request.answered', request.ownerId, at, { request_created_at: request.createdAt, answered_at: at.toISOString(), push_id: pushId });
}

/**
 * The Standard Webhooks body, `{type, timestamp, data}`, sealed for the outbox: it carries the
 * push's name, which is sealed at rest like the push itself. The delivery opens it to sign and send.
 */
function event(keys: KeyRing, type: WebhookEventType, userId: string, at: Date, data: Record<string, unknown>): WebhookEvent {
  const timestamp = at.toISOString();
  return { id: newEventId(), type, userId, at: timestamp, body: keys.seal(JSON.stringify({ type, timestamp, data })) };
}

/** The JSON body of an outbox delivery (written before bodies were sealed: as it is). */
export function openOutboxBody(keys: KeyRing, stored: string): string {
  return stored.startsWith('{') ? stored : keys.openText(stored);
}

/** `pushEvent`s that apply, as a PushChange's `events`. */
export function pushEvents(keys: KeyRing, push: StoredPush, at: Date, ...types: WebhookEventType[]): WebhookEvent[] {
  // An anonymous push (every anonymous create and view) has none: no arrays built for that.
  if (!push.ownerId) return [];
  return types.map((t) => pushEvent(keys, t, push, at)).filter((e): e is WebhookEvent => e !== undefined);
}
