import type { KeyRing } from '../crypto/key-ring.js';
import type { StoredMail, StoredRequest } from '../storage/records.js';
import { headerText, outboxMail } from './mail-message.js';
import { composeMail } from './mail-texts.js';
import { receiptCause } from './receipt-cause.js';
import { unsubscribeUrl } from './unsubscribe-link.js';

/**
 * "E-mail me when it is answered": the mail to a request's owner, queued in the same atomic step
 * that records the answer. It names the request by its title only and links to the answer push's
 * audit page by push id (the owner's page finds its link): never the secret or its link. Its id
 * is fixed per request, so it is queued once.
 */
export function requestAnsweredMails(keys: KeyRing, request: StoredRequest, answerPushId: string, at: Date, product: string): StoredMail[] {
  const r = request.answerReceipt;
  if (!r) return [];
  const title = request.title ? headerText(keys.openText(request.title)).slice(0, 100) : '';
  const name = title || keys.openText(request.urlToken).slice(0, 8);
  const link = `${r.origin}/dashboard/push/${encodeURIComponent(answerPushId)}`;
  const stop = unsubscribeUrl(keys, r.origin, request.ownerId, 'requestAnswered');
  const mail = outboxMail(keys, 'request-answered', request.ownerId, composeMail('request-answered', r.locale, keys.openText(r.to), link, product, name, undefined, stop, receiptCause('request', r.byDefault ?? false, r.origin)), at);
  return [{ ...mail, id: `request-answered_${request.id}` }];
}
