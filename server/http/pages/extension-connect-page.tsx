/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ConnectRequest } from '../../accounts/extension-connect/connect-service.js';
import { CsrfField } from './components.js';
import { useLanguage } from './i18n/i18n-context.js';

/** The request's fields, carried by the form so the POST checks exactly what was shown. */
function RequestFields({ request }: { request: ConnectRequest }) {
  return (
    <>
      <input type="hidden" name="redirect_uri" value={request.redirect.uri} />
      <input type="hidden" name="code_challenge" value={request.challenge} />
      <input type="hidden" name="code_challenge_method" value="S256" />
      <input type="hidden" name="state" value={request.state} />
    </>
  );
}

/** "Allow the Secret Push extension to push as you?": one form, Allow or Cancel. */
export function ExtensionConnectPage({ request, email, label, csrfToken }: { request: ConnectRequest; email: string; label: string; csrfToken: string }) {
  const { t } = useLanguage();
  return (
    <section class="card narrow">
      <h1>{t('connect.heading')}</h1>
      <p>{t('connect.intro', { browser: request.redirect.browser, email })}</p>
      <p>{t('connect.token', { label })}</p>
      <p class="muted">{t('connect.extensionId', { id: request.redirect.extensionHost })}</p>
      <form method="post" action="/extension/connect" class="stack">
        <CsrfField token={csrfToken} />
        <RequestFields request={request} />
        <p class="actions">
          <button type="submit" name="decision" value="allow" autofocus>
            {t('connect.allow')}
          </button>{' '}
          <button type="submit" name="decision" value="deny" class="secondary">
            {t('connect.deny')}
          </button>
        </p>
      </form>
    </section>
  );
}
