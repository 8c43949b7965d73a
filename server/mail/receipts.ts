import type { KeyRing } from '../crypto/key-ring.js';
import { openName } from '../pushes/push-name.js';
import type { StoredMail, StoredPush } from '../storage/records.js';
import { headerText, outboxMail } from './mail-message.js';
import { composeMail } from './mail-texts.js';
import { receiptCause } from './receipt-cause.js';
import { unsubscribeUrl } from './unsubscribe-link.js';

/**
 * A push's receipts by e-mail, chosen when it is made: to whom (the owner's address then,
 * sealed), in which language, where its audit page is. Kept on the push so that the change that
 * records the first view (or the expiry) can queue the mail in the same atomic step without
 * another read.
 */
export type PushReceipts = NonNullable<StoredPush['receipts']>;

/**
 * The receipt a change of `before` into `after` calls for, if any: "first opened" when a view is
 * counted for the first time, "expired unopened" when it expires with no view. The mail names the
 * push by its label only and links to its audit page: never the secret, its link or passphrase.
 * Its id is fixed per push and kind, so it is queued once however often the change runs.
 */
export function receiptMails(keys: KeyRing, before: StoredPush, after: StoredPush, at: Date, product: string): StoredMail[] {
  const r = before.receipts;
  if (!r || !before.ownerId) return [];
  const kind = r.opened && !before.firstViewedAt && after.firstViewedAt ? 'receipt-opened' : r.expiredUnopened && !before.expiredAt && after.expiredAt && after.views === 0 ? 'receipt-expired-unopened' : undefined;
  if (!kind) return [];
  const name = headerText(openName(keys, before.name) ?? '').slice(0, 100) || before.token.slice(0, 8);
  // By push id (the owner's page finds its link): the secret link itself is never in a receipt.
  const link = `${r.origin}/dashboard/push/${encodeURIComponent(before.token)}`;
  // Optional mail: List-Unsubscribe turns this kind off in the owner's defaults (server/mail/unsubscribe-link.ts).
  const which = kind === 'receipt-opened' ? 'opened' : 'expiredUnopened';
  const stop = unsubscribeUrl(keys, r.origin, before.ownerId, which);
  const why = receiptCause('push', r.byDefault?.[which] ?? false, r.origin);
  const mail = outboxMail(keys, kind, before.ownerId, composeMail(kind, r.locale, keys.openText(r.to), link, product, name, undefined, stop, why), at);
  return [{ ...mail, id: `${kind}_${before.token}` }];
}
