/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ReceiptDefaults } from '../../accounts/user.js';
import type { UnsubscribeKind } from '../../mail/unsubscribe-link.js';
import { CsrfField, FieldErrors, Notice } from './components.js';
import { useLanguage } from './i18n/i18n-context.js';

/** The account's e-mail settings: its receipt defaults and changing its address. */
export function MailSettingsPage({
  csrfToken,
  email,
  defaults,
  notice,
  errors,
  newEmail = '',
}: {
  csrfToken: string;
  email: string;
  defaults: ReceiptDefaults;
  notice?: { kind: 'ok' | 'error'; text: string };
  errors?: Record<string, string[]>;
  newEmail?: string;
}) {
  const { t } = useLanguage();
  return (
    <section class="card narrow">
      <h1>{t('title.mailSettings')}</h1>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      <h2>{t('mailSettings.receipts')}</h2>
      <p class="muted">{t('mailSettings.receiptsIntro')}</p>
      <form method="post" action="/users/mail-settings" class="stack">
        <CsrfField token={csrfToken} />
        <label class="choice">
          <input type="checkbox" name="opened" value="true" checked={defaults.opened} />
          {t('mailSettings.opened')}
        </label>
        <label class="choice">
          <input type="checkbox" name="expired_unopened" value="true" checked={defaults.expiredUnopened} />
          {t('mailSettings.expiredUnopened')}
        </label>
        <label class="choice">
          <input type="checkbox" name="request_answered" value="true" checked={defaults.requestAnswered} />
          {t('mailSettings.requestAnswered')}
        </label>
        <p>
          <button type="submit">{t('mailSettings.save')}</button>
        </p>
      </form>
      <h2>{t('mailSettings.changeEmail')}</h2>
      <p class="muted">{t('mailSettings.changeEmailIntro', { email })}</p>
      <form method="post" action="/users/email" class="stack">
        <CsrfField token={csrfToken} />
        <input type="text" name="username" value={email} autocomplete="username" hidden readOnly />
        <label for="new-email">{t('mailSettings.newEmail')}</label>
        <input type="email" id="new-email" name="email" value={newEmail} autocomplete="email" required />
        <FieldErrors errors={errors} field="email" />
        <label for="current-password">{t('mailSettings.currentPassword')}</label>
        <input type="password" id="current-password" name="current_password" autocomplete="current-password" required />
        <FieldErrors errors={errors} field="current_password" />
        <p>
          <button type="submit">{t('mailSettings.sendLink')}</button>
        </p>
      </form>
      <p>
        <a href="/users/token">{t('mails.back')}</a>
      </p>
    </section>
  );
}

/**
 * A List-Unsubscribe link opened in a browser: a button (a POST), not the change itself, since
 * mail scanners open links to look at them. Mail programs use the one-click POST instead.
 */
export function UnsubscribePage({ token, kind, done }: { token: string; kind: UnsubscribeKind; done: boolean }) {
  const { t } = useLanguage();
  return (
    <section class="card narrow">
      <h1>{t('title.unsubscribe')}</h1>
      {done ? (
        <Notice kind="ok">{t('unsubscribe.done', { what: t(`unsubscribe.kind.${kind}`) })}</Notice>
      ) : (
        <form method="post" action={`/mail/unsubscribe/${token}`} class="stack">
          <p>{t('unsubscribe.ask', { what: t(`unsubscribe.kind.${kind}`) })}</p>
          <p>
            <button type="submit">{t('unsubscribe.button')}</button>
          </p>
        </form>
      )}
      <p class="muted">{t('unsubscribe.note')}</p>
    </section>
  );
}
