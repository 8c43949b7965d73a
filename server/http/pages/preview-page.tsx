/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import type { PushRecordBase } from '../../../shared/push-schema.js';
import { CopyableValue, CsrfField, EndToEndBadge, Notice } from './components.js';
import { useLanguage } from './i18n/i18n-context.js';
import { qrSvg } from './qr-svg.js';

/**
 * The sender's view of a push (Password Pusher's `/p/<token>/preview`): the secret link with a
 * copy button and a QR code of it. It never shows the payload and counts no view. An end-to-end
 * push's key is not on the server: its link here would open nothing ("missing its key"), so the
 * page offers no link and no QR code for it and says where the full link was.
 */
export function PreviewPage({ push, expireLink, emailLink }: { push: PushRecordBase; expireLink?: string; emailLink?: ComponentChildren }) {
  const { t } = useLanguage();
  const days = t('recipient.secret.days', { count: push.days_remaining });
  const views = t('recipient.secret.moreViews', { count: push.views_remaining });
  return (
    <section class="card">
      <h1>{t('preview.heading')}</h1>
      {push.end_to_end && <EndToEndBadge />}
      {push.expired && <Notice kind="error">{t('preview.expired')}</Notice>}
      {push.end_to_end ? (
        <Notice>{t('preview.endToEnd.keyless')}</Notice>
      ) : (
        <>
          <p>{t('create.ready.send')}</p>
          <CopyableValue id="secret-link" value={push.html_url} copyLabel={t('create.ready.copy')} primary />
          {/* Generated markup of our own (modules of the link, no text of it), never user input. */}
          <div class="qr" dangerouslySetInnerHTML={{ __html: qrSvg(push.html_url, t('preview.qrAlt')) }} />
          <p class="muted">{t('preview.scan')}</p>
        </>
      )}
      {!push.expired && (
        <p class="muted">
          {t('recipient.secret.remaining', { days, views })}
          {push.passphrase ? ` ${t('create.ready.passphraseReminder')}` : ''}
        </p>
      )}
      {/* Its owner's "E-mail the link…" (email-link/email-link-form.tsx), when e-mail is set up. */}
      {emailLink}
      {expireLink && (
        <p>
          <a class="button danger" href={expireLink}>
            {t('expire.button')}
          </a>
        </p>
      )}
      <p>
        <a href="/">{t('create.ready.another')}</a>
      </p>
    </section>
  );
}

/** The owner's confirmation before a push expires now; `done` is where the expiry comes back to. */
export function ExpireConfirmPage({ token, csrfToken, back, done }: { token: string; csrfToken: string; back: string; done: string }) {
  const { t } = useLanguage();
  return (
    <section class="card center">
      <h1>{t('expire.confirm.heading')}</h1>
      <p>{t('expire.confirm.body')}</p>
      <form method="post" action={`/p/${token}/delete`} class="row center-row">
        <CsrfField token={csrfToken} />
        <input type="hidden" name="return_to" value={done} />
        <button type="submit" class="danger" id="expire-confirm">
          {t('expire.button')}
        </button>
        <a href={back}>{t('expire.confirm.cancel')}</a>
      </form>
    </section>
  );
}
