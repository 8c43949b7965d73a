import { useEffect, useRef, useState } from 'preact/hooks';
import type { OwnerPushRecord } from '../../shared/push-schema';
import type { PopupEnv } from '../lib/popup-env';
import { t, type MessageKey } from '../lib/i18n';
import { describeRemaining } from '../lib/push-options';
import type { EmailLinkInput } from '../../shared/email-link-schema';
import { EmailLink } from './EmailLink';
import { QrCode } from './QrCode';

interface Props {
  env: Pick<PopupEnv, 'copy' | 'qrPath'>;
  record: Pick<OwnerPushRecord, 'html_url' | 'url_token' | 'days_remaining' | 'views_remaining' | 'passphrase' | 'end_to_end'> & { name?: string | null };
  kind: string;
  copied: boolean;
  /** Given when the server e-mails links (limits.email_links) and the user is signed in. */
  emailLink?(input: EmailLinkInput): Promise<{ sent: number }>;
  onAnother?(): void;
}

const pushedKeys: Record<string, MessageKey> = { text: 'result_text', url: 'result_url', qr: 'result_qr', file: 'push_label_file' };

/** The secret link of a new push: copied already, with a button to copy again and a QR code. */
export function PushResult({ env, record, kind, copied: copiedAtOnce, emailLink, onAnother }: Props) {
  const [copied, setCopied] = useState<boolean | null>(copiedAtOnce);
  const link = useRef<HTMLInputElement>(null);
  // The result takes the focus: the keyboard user is on the link, a screen reader reads it.
  useEffect(() => link.current?.focus(), []);
  const copy = async () => setCopied(await env.copy(record.html_url));
  return (
    <section class="result" aria-labelledby="result-title">
      <h2 id="result-title">{record.name?.trim() ? t('result_named', record.name.trim()) : t(pushedKeys[kind] ?? 'result_other')}</h2>
      <label for="secret-link">{t('secret_link')}</label>
      <div class="copy-row">
        <input id="secret-link" ref={link} type="text" readOnly value={record.html_url} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={copy}>
          {t('copy')}
        </button>
      </div>
      <p class={copied ? 'success' : 'field-error'} role="status">
        {copied ? t('copied_clipboard') : t('copy_failed_auto')}
      </p>
      <p>{describeRemaining(record.days_remaining, record.views_remaining)}</p>
      {record.passphrase && record.passphrase !== '' ? <p>{t('needs_passphrase')}</p> : null}
      {record.end_to_end ? <p>{t('end_to_end_note')}</p> : null}
      {emailLink && <EmailLink link={record.html_url} urlToken={record.url_token} send={emailLink} />}
      <figure class="qr-figure">
        <QrCode text={record.html_url} label={t('qr_label')} draw={env.qrPath} />
        <figcaption>{t('qr_caption')}</figcaption>
      </figure>
      {onAnother && (
        <button type="button" class="primary" onClick={onAnother}>
          {t('push_another')}
        </button>
      )}
    </section>
  );
}
