/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { PasskeyInfo } from '../../../accounts/passkeys/passkey-service.js';
import type { SecondFactorStatus } from '../../../accounts/second-factor/second-factor-service.js';
import { CopyButton, CsrfField, FieldErrors, Notice, RowAction } from '../components.js';
import { useLanguage } from '../i18n/i18n-context.js';
import { qrSvg } from '../qr-svg.js';

/** What the passkey script (browser/passkeys.ts) needs: the WebAuthn options and the signed ticket. */
export interface PasskeyChallenge {
  options: unknown;
  ticket: string;
}

/**
 * A form the passkey script drives: on submit it asks the browser for the passkey with
 * `data-options`, puts the answer in `response` and sends the form. Hidden until the script
 * finds WebAuthn in the browser (without it there is nothing to press).
 */
function PasskeyForm({ action, csrfToken, challenge, mode, button, returnTo, children }: { action: string; csrfToken: string; challenge: PasskeyChallenge; mode: 'register' | 'sign-in'; button: string; returnTo?: string | null; children?: preact.ComponentChildren }) {
  const { t } = useLanguage();
  return (
    <form method="post" action={action} class="stack" data-passkey={mode} data-options={JSON.stringify(challenge.options)} data-failed={t('mfa.passkey.failed')} hidden>
      <CsrfField token={csrfToken} />
      <input type="hidden" name="ticket" value={challenge.ticket} />
      <input type="hidden" name="response" value="" />
      {returnTo ? <input type="hidden" name="return_to" value={returnTo} /> : null}
      {children}
      <p>
        <button type="submit" class="secondary">
          {button}
        </button>
      </p>
      <p class="error" role="alert" data-passkey-error hidden />
    </form>
  );
}

/** On the sign-in page, below the password form. */
export function PasskeySignIn({ csrfToken, challenge, returnTo }: { csrfToken: string; challenge: PasskeyChallenge; returnTo: string | null }) {
  const { t } = useLanguage();
  return <PasskeyForm action="/users/passkeys/sign_in" csrfToken={csrfToken} challenge={challenge} mode="sign-in" button={t('mfa.passkey.signIn')} returnTo={returnTo} />;
}

/** The second step: a code from the app or a recovery code (and a passkey, if the account has one). */
export function SecondStepPage({ csrfToken, totp, passkey, error }: { csrfToken: string; totp: boolean; passkey?: PasskeyChallenge; error?: string }) {
  const { t } = useLanguage();
  return (
    <section class="card narrow">
      <h1>{t('mfa.verify.heading')}</h1>
      {error && <Notice kind="error">{error}</Notice>}
      {totp && (
        <form method="post" action="/users/two_factor" class="stack">
          <p class="muted">{t('mfa.verify.intro')}</p>
          <CsrfField token={csrfToken} />
          <label for="code">{t('mfa.verify.code')}</label>
          <input type="text" id="code" name="code" inputMode="text" autocomplete="one-time-code" autocapitalize="characters" spellcheck={false} maxLength={40} required autofocus />
          <p>
            <button type="submit">{t('mfa.verify.button')}</button>
          </p>
        </form>
      )}
      {passkey && <PasskeyForm action="/users/passkeys/sign_in" csrfToken={csrfToken} challenge={passkey} mode="sign-in" button={t('mfa.passkey.signIn')} />}
      {/* A passkey is this account's only second factor: say what it takes where it cannot be used (the script hides this where it can). */}
      {passkey && !totp && (
        <p class="notice error" data-passkey-unavailable>
          {t('mfa.passkey.unavailable')}
        </p>
      )}
      <p>
        <a href="/users/sign_in">{t('mfa.verify.startOver')}</a>
      </p>
    </section>
  );
}

/** Setting up an authenticator app: the QR code, the key for typing, and the confirming code. */
export function TotpSetupPage({ csrfToken, uri, secret, required, error }: { csrfToken: string; uri: string; secret: string; required: boolean; error?: string }) {
  const { t } = useLanguage();
  return (
    <section class="card narrow">
      <h1>{t('mfa.setup.heading')}</h1>
      {required && <Notice kind="info">{t('mfa.setup.required')}</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
      <p>{t('mfa.setup.scan')}</p>
      <div class="qr" dangerouslySetInnerHTML={{ __html: qrSvg(uri, t('mfa.setup.qrLabel')) }} />
      <p class="muted">
        {t('mfa.setup.manual')} <code id="totp-secret">{secret.match(/.{1,4}/g)!.join(' ')}</code>
      </p>
      <form method="post" action="/users/two_factor/setup" class="stack">
        <CsrfField token={csrfToken} />
        <label for="code">{t('mfa.setup.code')}</label>
        <input type="text" id="code" name="code" inputMode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxLength={7} required autofocus />
        <p>
          <button type="submit">{t('mfa.setup.button')}</button>
        </p>
      </form>
    </section>
  );
}

/** The recovery codes, shown once. */
export function RecoveryCodesPage({ codes, next }: { codes: string[]; next: string }) {
  const { t } = useLanguage();
  return (
    <section class="card narrow">
      <h1>{t('mfa.codes.heading')}</h1>
      <Notice kind="info">{t('mfa.codes.intro')}</Notice>
      <pre id="recovery-codes" class="secret">{codes.join('\n')}</pre>
      <div class="row">
        <CopyButton target="recovery-codes" label={t('mfa.codes.copy')} />
        <span class="muted" data-copy-status aria-live="polite" />
      </div>
      <p>
        <a href={next} role="button" class="button">
          {t('mfa.codes.continue')}
        </a>
      </p>
    </section>
  );
}

export interface SecurityPageProps {
  csrfToken: string;
  status: SecondFactorStatus;
  passkeys: PasskeyInfo[];
  register?: PasskeyChallenge;
  requireMfa: boolean;
  notice?: { kind: 'ok' | 'error'; text: string };
  errors?: Record<string, string[]>;
}

/** The account's sign-in security: the authenticator app and its recovery codes, and passkeys. */
export function SecurityPage({ csrfToken, status, passkeys, register, requireMfa, notice, errors }: SecurityPageProps) {
  const { t, date } = useLanguage();
  return (
    <>
      <section class="card">
        <h1>{t('mfa.security.heading')}</h1>
        {requireMfa && <p class="muted">{t('mfa.security.required')}</p>}
        {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
        <h2>{t('mfa.security.totpHeading')}</h2>
        {status.totp ? (
          <>
            <p id="totp-status">{t('mfa.security.totpOn', { count: status.recoveryCodesLeft })}</p>
            <form method="post" action="/users/security/totp" class="stack">
              <CsrfField token={csrfToken} />
              <label for="change-code">{t('mfa.security.codeForChange')}</label>
              <input type="text" id="change-code" name="code" autocomplete="one-time-code" maxLength={40} required />
              <div class="row">
                <button type="submit" name="action" value="renew-codes" class="secondary">
                  {t('mfa.security.renew')}
                </button>
                <button type="submit" name="action" value="turn-off" class="danger">
                  {t('mfa.security.turnOff')}
                </button>
              </div>
            </form>
          </>
        ) : (
          <>
            <p id="totp-status">{t('mfa.security.totpOff')}</p>
            <p>
              <a href="/users/two_factor/setup" role="button" class="button">
                {t('mfa.security.setUp')}
              </a>
            </p>
          </>
        )}
      </section>
      <section class="card">
        <h2>{t('mfa.security.passkeysHeading')}</h2>
        <p class="muted">{t('mfa.security.passkeysIntro')}</p>
        {passkeys.length === 0 ? (
          <p class="muted" id="no-passkeys">
            {t('mfa.security.noPasskeys')}
          </p>
        ) : (
          <div class="table-wrap">
            <table id="passkeys">
              <thead>
                <tr>
                  <th>{t('mfa.security.colName')}</th>
                  <th>{t('mfa.security.colAdded')}</th>
                  <th>{t('mfa.security.colLastUsed')}</th>
                  <th>
                    <span class="sr-only">{t('account.tokens.colAction')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {passkeys.map((p) => (
                  <tr>
                    <td>
                      <form method="post" action="/users/security/passkeys/rename" class="row nowrap">
                        <CsrfField token={csrfToken} />
                        <input type="hidden" name="id" value={p.id} />
                        <input type="text" name="name" value={p.name} maxLength={60} aria-label={t('mfa.security.passkeyName')} required />
                        <button type="submit" class="secondary small">
                          {t('mfa.security.rename')}
                        </button>
                      </form>
                    </td>
                    <td>{date(p.createdAt)}</td>
                    <td>{p.lastUsedAt ? date(p.lastUsedAt) : <span class="muted">{t('mfa.security.never')}</span>}</td>
                    <td>
                      <RowAction action="/users/security/passkeys/remove" csrfToken={csrfToken} name="id" value={p.id} label={t('mfa.security.remove')} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {register && (
          <PasskeyForm action="/users/security/passkeys" csrfToken={csrfToken} challenge={register} mode="register" button={t('mfa.security.addPasskey')}>
            <label for="passkey-name">{t('mfa.security.passkeyName')}</label>
            <input type="text" id="passkey-name" name="name" maxLength={60} placeholder={t('mfa.security.passkeyNamePlaceholder')} />
            <FieldErrors errors={errors} field="name" />
          </PasskeyForm>
        )}
      </section>
    </>
  );
}
