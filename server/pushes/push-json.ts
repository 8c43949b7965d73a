import type { AttachedFile, AuditEntry, OwnerPushRecord, PushRecordBase, ReadReceipt, RetrievedPush } from '../../shared/push-schema.js';
import type { AuditRecord, StoredPush } from '../storage/records.js';
import { daysRemaining, viewsRemaining } from './expiry.js';

/** Stored records → Password Pusher's JSON shapes (key order as the reference writes them). */

export function secretUrl(push: Pick<StoredPush, 'token' | 'retrievalStep'>, baseUrl: string): string {
  return `${baseUrl}/p/${push.token}${push.retrievalStep ? '/r' : ''}`;
}

export function baseRecord(push: StoredPush, now: Date, baseUrl: string): PushRecordBase {
  return {
    expire_after_views: push.expireAfterViews,
    expired: push.expiredAt !== null,
    url_token: push.token,
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
    json_url: `${baseUrl}/p/${push.token}.json`,
    html_url: secretUrl(push, baseUrl),
    ...(push.endToEnd ? { end_to_end: true as const } : {}),
  };
}

/**
 * `storageId` names the push without being its link (push.token here is the URL token);
 * `fileNames`: the opened names of a file push's files (only its owner gets this record).
 */
export function ownerRecord(push: StoredPush, storageId: string, note: string | null, now: Date, baseUrl: string, fileNames?: string[]): OwnerPushRecord {
  const record: OwnerPushRecord = { ...baseRecord(push, now, baseUrl), note, name: push.name, ...readReceipt(push, storageId) };
  if (fileNames && fileNames.length > 0) record.file_names = fileNames;
  return record;
}

export function readReceipt(push: StoredPush, storageId: string): ReadReceipt {
  return {
    push_id: storageId,
    first_viewed_at: push.firstViewedAt ?? null,
    failed_passphrase_attempts: push.failedPassphraseAttempts ?? 0,
    max_failed_passphrase_attempts: push.maxFailedPassphraseAttempts ?? null,
  };
}

export function retrievedRecord(
  push: StoredPush,
  payload: string | null,
  files: AttachedFile[],
  now: Date,
  baseUrl: string,
): RetrievedPush {
  return { ...baseRecord(push, now, baseUrl), payload, files };
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
