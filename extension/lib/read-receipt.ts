import type { OwnerPushRecord } from '../../shared/push-schema';
import type { PushApi } from './api-client';
import { t, tn, uiLanguage } from './i18n';

/** An owner's record with its read receipt worded for History (added in the background). */
export type RecordWithReceipt = OwnerPushRecord & { receipt?: string };

/** "2 min. ago" in the UI language, in the largest unit that fits. */
export function timeAgo(iso: string, now = Date.now()): string {
  let n = (Date.parse(iso) - now) / 1000;
  let unit: Intl.RelativeTimeFormatUnit = 'second';
  for (const [next, size] of [['minute', 60], ['hour', 60], ['day', 24]] as const) {
    if (Math.abs(n) < size) break;
    n /= size;
    unit = next;
  }
  return new Intl.RelativeTimeFormat(uiLanguage(), { numeric: 'auto', style: 'short' }).format(Math.round(n), unit);
}

/**
 * The owner's read receipt of a push: "opened 2 min. ago · 1 of 3 views", and wrong passphrases;
 * undefined for records of servers older than read receipts (no `push_id`).
 */
export function receiptText(r: OwnerPushRecord, now = Date.now()): string | undefined {
  if (r.push_id === undefined) return undefined;
  const views = r.expire_after_views;
  const wrong = r.failed_passphrase_attempts;
  return [
    r.first_viewed_at ? t('receipt_opened', timeAgo(r.first_viewed_at, now)) : t('receipt_not_opened'),
    tn('receipt_views', views, Math.max(0, views - r.views_remaining), views),
    ...(wrong ? [tn('receipt_wrong_passphrases', wrong, wrong)] : []),
  ].join(' · ');
}

/**
 * `api` whose push lists carry each record's worded receipt. The background wraps the API the
 * popup's calls are relayed to, so the wording costs the popup nothing (its size budget).
 */
export function withReceipts(api: PushApi): PushApi {
  const worded = (list: OwnerPushRecord[]): RecordWithReceipt[] => list.map((r) => ({ ...r, receipt: receiptText(r) }));
  return { ...api, active: async (page) => worded(await api.active(page)), expired: async (page) => worded(await api.expired(page)) };
}
