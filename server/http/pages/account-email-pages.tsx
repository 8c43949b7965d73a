/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { MIN_PASSWORD_CHARS } from '../../accounts/account-service.js';
import { CsrfField, FieldErrors, Notice } from './components.js';
import { useLanguage } from './i18n/i18n-context.js';

export function ForgotPasswordPage({ csrfToken, email = '', sentTo, error, errors }: { csrfToken: string; email?: string; sentTo?: string; error?: string; errors?: Record<string, string[]> }) {
  const { t } = useLanguage();
  return (
    <section class="card narrow">
      <h1>{t('title.forgotPassword')}</h1>
      {sentTo !== undefined && <Notice kind="ok">{t('account.forgot.sent', { email: sentTo })}</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
      <p class="muted">{t('account.forgot.body')}</p>
      <form method="post" action="/users/password/forgot" class="stack">
        <CsrfField token={csrfToken} />
        <label for="email">{t('account.email')}</label>
        <input type="email" id="email" name="email" value={email} autocomplete="username" required autofocus />
        <FieldErrors errors={errors} field="email" />
        <p>
          <button type="submit">{t('account.forgot.button')}</button>
        </p>
      </form>
    </section>
  );
}

export function ResetPasswordPage({ csrfToken, token, email, errors }: { csrfToken: string; token: string; email: string; errors?: Record<string, string[]> }) {
  const { t } = useLanguage();
  return (
    <section class="card narrow">
      <h1>{t('title.resetPassword')}</h1>
      <p class="muted">{t('account.reset.body', { email })}</p>
      <form method="post" action={`/users/password/reset/${token}`} class="stack">
        <CsrfField token={csrfToken} />
        <input type="text" name="username" value={email} autocomplete="username" hidden readOnly />
        <label for="password">{t('account.password.new', { min: MIN_PASSWORD_CHARS })}</label>
        <input type="password" id="password" name="password" autocomplete="new-password" required minLength={MIN_PASSWORD_CHARS} autofocus />
        <FieldErrors errors={errors} field="password" />
        <p>
          <button type="submit">{t('account.reset.button')}</button>
        </p>
      </form>
    </section>
  );
}
