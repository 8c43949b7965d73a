import type { AttachedFile, AuditEntry, OwnerPushRecord, PushRecordBase, ReadReceipt, RetrievedPush } from '../../shared/push-schema.js';
import type { AuditRecord, StoredPush } from '../storage/records.js';
import { daysRemaining, viewsRemaining } from './expiry.js';

/** Stored records → Password Pusher's JSON shapes (key order as the reference writes them). */

/** A push's link: its URL token is passed beside it, never read from `push.token` (the id it is stored under). */
export function secretUrl(push: Pick<StoredPush, 'retrievalStep'>, baseUrl: string, urlToken: string): string {
  return `${baseUrl}/p/${urlToken}${push.retrievalStep ? '/r' : ''}`;
}

/**
 * `urlToken`: the token of the push's link, which the record shows in place of `push.token` (the
 * id it is stored under). Passed beside the push rather than as a copy of it with the token
 * changed: that copy of every field was made on each create and view only to be read here.
 */
export function baseRecord(push: StoredPush, urlToken: string, now: Date, baseUrl: string): PushRecordBase {
  // Built property by property, never as `{ ...a, ...b }`: an object spread together from
  // several others is made in V8's slow dictionary mode (≈12 µs for a record; a create spent
  // ≈5 % of its CPU here).
  const record: PushRecordBase = {
    expire_after_views: push.expireAfterViews,
    expired: push.expiredAt !== null,
    url_token: urlToken,
    deletable_by_viewer: push.kind === 'url' ? null : push.deletableByViewer,
    retrieval_step: push.retrievalStep,
    expired_on: push.expiredAt,
    // Deviation from the reference: never echo a passphrase, only say whether one is set.
    passphrase: push.hasPassphrase ? '[FILTERED]' : '',
    created_at: push.createdAt,
    updated_at: push.updatedAt,
    expire_after_days: push.expireAfterDays,
    // Computed for every record, expired ones included, as Password Pusher does.
    days_remaining: daysRemaining(push, now),
    views_remaining: viewsRemaining(push),
    deleted: push.deleted,
    // Deviation: the reference's `/p/<token>/r.json` does not exist; this address works.
    json_url: `${baseUrl}/p/${urlToken}.json`,
    html_url: secretUrl(push, baseUrl, urlToken),
  };
  if (push.endToEnd) record.end_to_end = true;
  if (push.notBefore) record.not_before = push.notBefore;
  return record;
}

/**
 * `storageId` names the push without being its link (`urlToken`, see baseRecord);
 * `labels`: its note and name, opened; `fileNames`: the opened names of a file push's files
 * (only its owner gets this record).
 */
export function ownerRecord(push: StoredPush, urlToken: string, storageId: string, labels: { note: string | null; name: string | null }, now: Date, baseUrl: string, fileNames?: string[]): OwnerPushRecord {
  const record = baseRecord(push, urlToken, now, baseUrl) as OwnerPushRecord;
  record.note = labels.note;
  record.name = labels.name;
  addReadReceipt(record, push, storageId);
  if (fileNames && fileNames.length > 0) record.file_names = fileNames;
  if (push.batchId) record.batch_id = push.batchId;
  if (push.follows) {
    record.follows = push.follows.id;
    if (push.follows.until) record.follows_until = push.follows.until;
  }
  return record;
}

/** Adds the read receipt's fields (ReadReceipt, in its key order) to an owner's record. */
export function addReadReceipt<T extends object>(record: T, push: StoredPush, storageId: string): T & ReadReceipt {
  const withReceipt = record as T & ReadReceipt;
  withReceipt.push_id = storageId;
  withReceipt.first_viewed_at = push.firstViewedAt ?? null;
  withReceipt.failed_passphrase_attempts = push.failedPassphraseAttempts ?? 0;
  withReceipt.max_failed_passphrase_attempts = push.maxFailedPassphraseAttempts ?? null;
  return withReceipt;
}

export function retrievedRecord(
  push: StoredPush,
  urlToken: string,
  payload: string | null,
  files: AttachedFile[],
  now: Date,
  baseUrl: string,
): RetrievedPush {
  const record = baseRecord(push, urlToken, now, baseUrl) as RetrievedPush;
  record.payload = payload;
  record.files = files;
  return record;
}

export function auditJson(entry: AuditRecord): AuditEntry {
  return {
    ip: entry.ip,
    user_agent: entry.userAgent,
    referrer: entry.referrer,
    kind: entry.kind,
    created_at: entry.at,
    updated_at: entry.at,
  };
}
