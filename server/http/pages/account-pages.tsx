/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { MIN_PASSWORD_CHARS, type ApiTokenInfo } from '../../accounts/account-service.js';
import { CopyableValue, CsrfField, FieldErrors, Notice, RowAction } from './components.js';
import { useLanguage } from './i18n/i18n-context.js';

export interface CredentialsFormProps {
  csrfToken: string;
  returnTo: string | null;
  email?: string;
  errors?: Record<string, string[]>;
  error?: string;
  signupEnabled: boolean;
  /** Other ways to sign in, below the password form (a passkey). */
  children?: ComponentChildren;
  /** SIGN_UP=invite: the invite link's secret, carried by the sign-up form. */
  invite?: string;
}

function ReturnTo({ path }: { path: string | null }) {
  return path ? <input type="hidden" name="return_to" value={path} /> : null;
}

export function SignInPage({
  csrfToken,
  returnTo,
  email = '',
  error,
  signupEnabled,
  children,
  forgotLink,
  notice,
  sso,
  passwordsOn = true,
}: CredentialsFormProps & { forgotLink?: boolean; notice?: string; sso?: { name: string; href: string }; passwordsOn?: boolean }) {
  const { t } = useLanguage();
  return (
    <section class="card narrow">
      <h1>{t('account.signIn.heading')}</h1>
      {notice && <Notice kind="ok">{notice}</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
      {sso && (
        <p>
          <a class="button" href={sso.href} id="sign-in-sso">
            {t('account.sso.button', { name: sso.name })}
          </a>
        </p>
      )}
      {sso && passwordsOn && <p class="muted">{t('account.sso.or')}</p>}
      {passwordsOn && <form method="post" action="/users/sign_in" class="stack">
        <CsrfField token={csrfToken} />
        <ReturnTo path={returnTo} />
        <label for="email">{t('account.email')}</label>
        <input type="email" id="email" name="email" value={email} autocomplete="username" required autofocus />
        <label for="password">{t('account.password')}</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required />
        <p>
          <button type="submit">{t('account.signIn.button')}</button>
        </p>
      </form>}
      {forgotLink && passwordsOn && (
        <p class="muted">
          <a href="/users/password/forgot">{t('account.forgot.link')}</a>
        </p>
      )}
      {children}
      {signupEnabled && (
        <p class="muted">
          {t('account.signIn.noAccount')}{' '}
          <a href={`/users/sign_up${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`}>{t('account.signIn.signUpLink')}</a>
        </p>
      )}
    </section>
  );
}

export function SignUpPage({ csrfToken, returnTo, email = '', errors, error, invite, sso }: CredentialsFormProps & { sso?: { name: string; href: string } }) {
  const { t } = useLanguage();
  return (
    <section class="card narrow">
      <h1>{t('account.signUp.heading')}</h1>
      {error && <Notice kind="error">{error}</Notice>}
      {sso && (
        <p>
          <a class="button" href={sso.href} id="sign-up-sso">
            {t('account.sso.button', { name: sso.name })}
          </a>
        </p>
      )}
      <form method="post" action="/users/sign_up" class="stack">
        <CsrfField token={csrfToken} />
        <ReturnTo path={returnTo} />
        {invite && <input type="hidden" name="invite" value={invite} />}
        <FieldErrors errors={errors} field="invite" />
        <label for="email">{t('account.email')}</label>
        <input type="email" id="email" name="email" value={email} autocomplete="username" required autofocus />
        <FieldErrors errors={errors} field="email" />
        <label for="password">{t('account.signUp.passwordRule', { min: MIN_PASSWORD_CHARS })}</label>
        <input type="password" id="password" name="password" autocomplete="new-password" required minLength={MIN_PASSWORD_CHARS} />
        <FieldErrors errors={errors} field="password" />
        <p>
          <button type="submit">{t('account.signUp.button')}</button>
        </p>
      </form>
      <p class="muted">
        {t('account.signUp.haveAccount')} <a href="/users/sign_in">{t('account.signUp.signInLink')}</a>
      </p>
    </section>
  );
}

export function PasswordPage({ csrfToken, notice, errors }: { csrfToken: string; notice?: { kind: 'ok' | 'error'; text: string }; errors?: Record<string, string[]> }) {
  const { t } = useLanguage();
  return (
    <section class="card narrow">
      <h1>{t('account.password.heading')}</h1>
      <p class="muted">{t('account.password.intro')}</p>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      <form method="post" action="/users/password" class="stack">
        <CsrfField token={csrfToken} />
        <label for="current_password">{t('account.password.current')}</label>
        <input type="password" id="current_password" name="current_password" autocomplete="current-password" required />
        <label for="password">{t('account.password.new', { min: MIN_PASSWORD_CHARS })}</label>
        <input type="password" id="password" name="password" autocomplete="new-password" required minLength={MIN_PASSWORD_CHARS} />
        <FieldErrors errors={errors} field="password" />
        <p>
          <button type="submit">{t('account.password.button')}</button>
        </p>
      </form>
      <p>
        <a href="/users/token">{t('account.password.back')}</a>
      </p>
    </section>
  );
}

export function SignUpClosedPage() {
  const { t } = useLanguage();
  return (
    <section class="card center">
      <h1>{t('account.signUpClosed.heading')}</h1>
      <p>{t('account.signUpClosed.body')}</p>
      <p>
        <a href="/users/sign_in">{t('account.signUpClosed.signIn')}</a>
      </p>
    </section>
  );
}

export function TokenPage({ tokens, csrfToken, notice, mailOn }: { tokens: ApiTokenInfo[]; csrfToken: string; notice?: string; mailOn?: boolean }) {
  const { t, date } = useLanguage();
  return (
    <>
      <section class="card">
        <h1>{t('account.tokens.heading')}</h1>
        <p class="muted">{t('account.tokens.intro')}</p>
        {notice && <Notice kind="ok">{notice}</Notice>}
        <p>
          <a href="/users/password">{t('account.tokens.changePassword')}</a> · <a href="/users/webhooks">{t('account.tokens.webhooks')}</a> · <a href="/users/requests">{t('account.tokens.requests')}</a> · <a href="/users/security">{t('mfa.security.link')}</a>
          {mailOn && (
            <>
              {' · '}
              <a href="/users/mail-settings">{t('account.tokens.mailSettings')}</a>
              {' · '}
              <a href="/users/mails">{t('account.tokens.mails')}</a>
            </>
          )}
        </p>
        <form method="post" action="/users/token" class="stack">
          <CsrfField token={csrfToken} />
          <label for="label">{t('account.tokens.label')}</label>
          <div class="row nowrap">
            <input type="text" id="label" name="label" maxLength={100} placeholder={t('account.tokens.labelPlaceholder')} />
            <button type="submit" id="make-token">
              {t('account.tokens.make')}
            </button>
          </div>
        </form>
      </section>
      <section class="card">
        <h2>{t('account.tokens.yours')}</h2>
        {tokens.length === 0 ? (
          <p class="muted">{t('account.tokens.none')}</p>
        ) : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>{t('account.tokens.colLabel')}</th>
                  <th>{t('account.tokens.colMade')}</th>
                  <th>
                    <span class="sr-only">{t('account.tokens.colAction')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => (
                  <tr>
                    <td>{token.label}</td>
                    <td>{date(token.createdAt)}</td>
                    <td>
                      <RowAction action="/users/token/revoke" csrfToken={csrfToken} name="id" value={token.id} label={t('account.tokens.revoke')} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

export function TokenMadePage({ token, info }: { token: string; info: ApiTokenInfo }) {
  const { t } = useLanguage();
  return (
    <section class="card">
      <h1>{t('account.tokenMade.heading')}</h1>
      <Notice kind="info">{t('account.tokenMade.copyNow')}</Notice>
      <p>
        {t('account.tokenMade.label')} <strong>{info.label}</strong>
      </p>
      <CopyableValue id="api-token" value={token} copyLabel={t('account.tokenMade.copy')} />
      <p>
        <a href="/users/token">{t('account.tokenMade.back')}</a>
      </p>
    </section>
  );
}
