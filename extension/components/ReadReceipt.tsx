import type { OwnerPushRecord } from '../../shared/push-schema';
import { t, tn, uiLanguage } from '../lib/i18n';

/** "2 minutes ago", in the UI language, from the largest whole unit that fits. */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const format = new Intl.RelativeTimeFormat(uiLanguage(), { numeric: 'auto', style: 'short' });
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(seconds, 'second');
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86_400), 'day');
}

/**
 * The owner's read receipt of a push: "opened 2 min ago · 1 of 3 views", and wrong passphrases.
 * Servers older than read receipts send no `push_id`: nothing is shown then.
 */
export function ReadReceipt({ record }: { record: OwnerPushRecord }) {
  if (record.push_id === undefined) return null;
  const used = Math.max(0, record.expire_after_views - record.views_remaining);
  const parts = [
    record.first_viewed_at ? t('receipt_opened', timeAgo(record.first_viewed_at)) : t('receipt_not_opened'),
    tn('receipt_views', record.expire_after_views, used, record.expire_after_views),
  ];
  if (record.failed_passphrase_attempts > 0) parts.push(tn('receipt_wrong_passphrases', record.failed_passphrase_attempts, record.failed_passphrase_attempts));
  return (
    <p class="meta receipt" data-receipt>
      {parts.join(' · ')}
    </p>
  );
}
