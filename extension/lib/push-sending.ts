import type { OwnerPushRecord, PushInput } from '../../shared/push-schema';
import type { PushApi } from './api-client';
import { plainFilePushForm } from './file-push-form';
import { t } from './i18n';
import { rememberLinkKey } from './link-keys';

/**
 * Sends a push, end to end when `endToEnd` says so (push-options.ts: endToEndWanted): text and
 * files are encrypted here and the key is added to the returned link (#…). Runs in the
 * background (for the context menu, and for the popup through relay.ts), so the popup ships no
 * cryptography. A file the popup hands to the file host (file-handoff.ts) is encrypted and
 * uploaded there; only its link is finished here (withKey).
 */
const loadCrypto = () => import('./end-to-end');

/** The link with the key: only here does the key meet the link, never on the server. */
export async function withKey(record: OwnerPushRecord, linkKey: string): Promise<OwnerPushRecord> {
  // A server that ignored the flag stored ciphertext as an ordinary push: say so rather than hand out a dead link.
  if (record.end_to_end !== true) throw new Error(t('e2e_not_taken'));
  // For History's "Copy link"; the push itself succeeded whether or not this is kept.
  await rememberLinkKey(record.url_token, linkKey).catch(() => undefined);
  return { ...record, html_url: `${record.html_url}#${linkKey}` };
}

export async function sendPush(api: PushApi, input: PushInput, endToEnd: boolean): Promise<OwnerPushRecord> {
  if (!endToEnd) return api.create(input);
  const { sealed, linkKey } = await (await loadCrypto()).sealText(input);
  return withKey(await api.create(sealed), linkKey);
}

/** The fallback where the file host is unavailable: the envelope is built as a Blob, held in memory. */
export async function sendFilePush(api: PushApi, input: PushInput, file: File, endToEnd: boolean): Promise<OwnerPushRecord> {
  if (!endToEnd) return api.createWithFiles(plainFilePushForm(input, file));
  const { sealed, linkKey } = await (await loadCrypto()).sealFile(input, file);
  return withKey(await api.createWithFiles(sealed), linkKey);
}
