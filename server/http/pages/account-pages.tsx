/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ApiTokenInfo } from '../../accounts/account-service.js';
import { CopyButton, CsrfField, FieldErrors, formatDate, Notice } from './components.js';

export interface CredentialsFormProps {
  csrfToken: string;
  returnTo: string | null;
  email?: string;
  errors?: Record<string, string[]>;
  error?: string;
  signupEnabled: boolean;
}

function ReturnTo({ path }: { path: string | null }) {
  return path ? <input type="hidden" name="return_to" value={path} /> : null;
}

export function SignInPage({ csrfToken, returnTo, email = '', error, signupEnabled }: CredentialsFormProps) {
  return (
    <section class="card narrow">
      <h1>Sign in</h1>
      {error && <Notice kind="error">{error}</Notice>}
      <form method="post" action="/users/sign_in" class="stack">
        <CsrfField token={csrfToken} />
        <ReturnTo path={returnTo} />
        <label for="email">Email</label>
        <input type="email" id="email" name="email" value={email} autocomplete="username" required autofocus />
        <label for="password">Password</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required />
        <p>
          <button type="submit">Sign in</button>
        </p>
      </form>
      {signupEnabled && (
        <p class="muted">
          No account yet? <a href={`/users/sign_up${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`}>Sign up</a>
        </p>
      )}
    </section>
  );
}

export function SignUpPage({ csrfToken, returnTo, email = '', errors, error }: CredentialsFormProps) {
  return (
    <section class="card narrow">
      <h1>Create an account</h1>
      {error && <Notice kind="error">{error}</Notice>}
      <form method="post" action="/users/sign_up" class="stack">
        <CsrfField token={csrfToken} />
        <ReturnTo path={returnTo} />
        <label for="email">Email</label>
        <input type="email" id="email" name="email" value={email} autocomplete="username" required autofocus />
        <FieldErrors errors={errors} field="email" />
        <label for="password">Password (at least 12 characters, not a common one)</label>
        <input type="password" id="password" name="password" autocomplete="new-password" required minLength={12} />
        <FieldErrors errors={errors} field="password" />
        <p>
          <button type="submit">Create the account</button>
        </p>
      </form>
      <p class="muted">
        Already have an account? <a href="/users/sign_in">Sign in</a>
      </p>
    </section>
  );
}

export function PasswordPage({ csrfToken, notice, errors }: { csrfToken: string; notice?: { kind: 'ok' | 'error'; text: string }; errors?: Record<string, string[]> }) {
  return (
    <section class="card narrow">
      <h1>Change your password</h1>
      <p class="muted">Every other browser signed in to this account is signed out. API tokens keep working.</p>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      <form method="post" action="/users/password" class="stack">
        <CsrfField token={csrfToken} />
        <label for="current_password">Current password</label>
        <input type="password" id="current_password" name="current_password" autocomplete="current-password" required />
        <label for="password">New password (at least 12 characters, not a common one)</label>
        <input type="password" id="password" name="password" autocomplete="new-password" required minLength={12} />
        <FieldErrors errors={errors} field="password" />
        <p>
          <button type="submit">Change the password</button>
        </p>
      </form>
      <p>
        <a href="/users/token">Back to your tokens</a>
      </p>
    </section>
  );
}

export function SignUpClosedPage() {
  return (
    <section class="card center">
      <h1>Sign-up is turned off</h1>
      <p>This server does not accept new accounts. Ask its administrator to create one for you.</p>
      <p>
        <a href="/users/sign_in">Sign in with an existing account</a>
      </p>
    </section>
  );
}

export function TokenPage({ tokens, csrfToken, notice }: { tokens: ApiTokenInfo[]; csrfToken: string; notice?: string }) {
  return (
    <>
      <section class="card">
        <h1>API tokens</h1>
        <p class="muted">
          Tools such as the browser extension or command-line clients use a token to act as you. A token is shown only once,
          when it is made; revoke it when a device is lost.
        </p>
        {notice && <Notice kind="ok">{notice}</Notice>}
        <p>
          <a href="/users/password">Change your password</a>
        </p>
        <form method="post" action="/users/token" class="stack">
          <CsrfField token={csrfToken} />
          <label for="label">Label (where you will use it)</label>
          <div class="row nowrap">
            <input type="text" id="label" name="label" maxLength={100} placeholder="e.g. Laptop extension" />
            <button type="submit" id="make-token">
              Make a token
            </button>
          </div>
        </form>
      </section>
      <section class="card">
        <h2>Your tokens</h2>
        {tokens.length === 0 ? (
          <p class="muted">You have no API tokens.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Label</th>
                  <th>Made</th>
                  <th>
                    <span class="sr-only">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((t) => (
                  <tr>
                    <td>{t.label}</td>
                    <td>{formatDate(t.createdAt)}</td>
                    <td>
                      <form method="post" action="/users/token/revoke" class="inline">
                        <CsrfField token={csrfToken} />
                        <input type="hidden" name="id" value={t.id} />
                        <button type="submit" class="danger small">
                          Revoke
                        </button>
                      </form>
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
  return (
    <section class="card">
      <h1>Your new API token</h1>
      <Notice kind="info">Copy it now: it is shown only this once and cannot be displayed again.</Notice>
      <p>
        Label: <strong>{info.label}</strong>
      </p>
      <p class="link-box">
        <code id="api-token">{token}</code>
      </p>
      <div class="row">
        <CopyButton target="api-token" label="Copy the token" />
        <span class="muted" data-copy-status aria-live="polite"></span>
      </div>
      <p>
        <a href="/users/token">Back to your tokens</a>
      </p>
    </section>
  );
}
