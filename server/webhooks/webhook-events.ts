import { randomBytes } from 'node:crypto';
import type { StoredPush, StoredRequest, WebhookEvent } from '../storage/records.js';
import { viewsRemaining } from '../pushes/expiry.js';

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
export function pushEvent(type: WebhookEventType, push: StoredPush, at: Date): WebhookEvent | undefined {
  if (!push.ownerId) return undefined;
  return event(type, push.ownerId, at, {
    push_id: push.token,
    name: push.name,
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
export function requestAnsweredEvent(request: Pick<StoredRequest, 'ownerId' | 'createdAt'>, pushId: string, at: Date): WebhookEvent {
  return event('request.answered', request.ownerId, at, { request_created_at: request.createdAt, answered_at: at.toISOString(), push_id: pushId });
}

/** The Standard Webhooks body: `{type, timestamp, data}`. */
function event(type: WebhookEventType, userId: string, at: Date, data: Record<string, unknown>): WebhookEvent {
  const timestamp = at.toISOString();
  return { id: newEventId(), type, userId, at: timestamp, body: JSON.stringify({ type, timestamp, data }) };
}

/** `pushEvent`s that apply, as a PushChange's `events`. */
export function pushEvents(push: StoredPush, at: Date, ...types: WebhookEventType[]): WebhookEvent[] {
  return types.map((t) => pushEvent(t, push, at)).filter((e): e is WebhookEvent => e !== undefined);
}
