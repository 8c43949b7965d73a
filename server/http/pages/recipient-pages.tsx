/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { RetrievedPush } from '../../../shared/push-schema.js';
import type { DeleteTicket } from '../../pushes/push-service.js';
import { neutraliseControls } from '../../../shared/neutralise-controls.js';
import { CopyButton, CsrfField, HideToggle, Notice } from './components.js';
import { useLanguage } from './i18n/i18n-context.js';
import type { Translate } from './i18n/translator.js';
import { qrDataUri } from './qr-svg.js';
import { KeyProblems } from './end-to-end-pages.js';

/** Retrieval step: nothing is counted here, so link previewers cannot burn a view. */
export function RetrievalStepPage({ token, endToEnd = false }: { token: string; endToEnd?: boolean }) {
  const { t } = useLanguage();
  return (
    <section class="card center" id={endToEnd ? 'e2e-step' : undefined}>
      {endToEnd && <KeyProblems />}
      <h1>{t('recipient.step.heading')}</h1>
      <p>{t('recipient.step.body')}</p>
      <p>
        {/* A link (it works without scripts, and the end-to-end script adds the key to it) that acts as the button it looks like: pages.js makes Space press it. */}
        <a class="button big" id="reveal" href={`/p/${token}`} rel="nofollow noopener" role="button">
          {t('recipient.step.reveal')}
        </a>
      </p>
    </section>
  );
}

export function PassphrasePage({ token, csrfToken, error }: { token: string; csrfToken: string; error?: string }) {
  const { t } = useLanguage();
  return (
    <section class="card">
      <h1>{t('recipient.passphrase.heading')}</h1>
      <p class="muted">{t('recipient.passphrase.hint')}</p>
      {error && <Notice kind="error">{error}</Notice>}
      <form method="post" action={`/p/${token}`} class="stack">
        <CsrfField token={csrfToken} />
        <label for="passphrase">{t('recipient.passphrase.label')}</label>
        <input
          type="password"
          id="passphrase"
          name="passphrase"
          autocomplete="off"
          required
          autofocus
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'passphrase-error' : undefined}
        />
        <p>
          <button type="submit">{t('recipient.passphrase.unlock')}</button>
        </p>
      </form>
    </section>
  );
}

/** What is left of a push after this view, in words (also sent to the end-to-end page's script). */
export function remainingText(t: Translate, push: Pick<RetrievedPush, 'views_remaining' | 'days_remaining'>): string {
  if (push.views_remaining <= 0) return t('recipient.secret.lastView');
  const days = t('recipient.secret.days', { count: push.days_remaining });
  const views = t('recipient.secret.moreViews', { count: push.views_remaining });
  return t('recipient.secret.remaining', { days, views });
}

function Remaining({ push }: { push: RetrievedPush }) {
  const { t } = useLanguage();
  return <p class="muted">{remainingText(t, push)}</p>;
}

export interface SecretPageProps {
  push: RetrievedPush;
  token: string;
  kind: 'text' | 'qr' | 'file' | 'url';
  mayDelete: boolean;
  csrfToken: string;
  /** Proof that this viewer gave the passphrase (a push with one is deleted only with it). */
  deleteTicket?: DeleteTicket | null;
}

export function SecretPage({ push, token, kind, mayDelete, csrfToken, deleteTicket }: SecretPageProps) {
  const { t } = useLanguage();
  const payload = push.payload ?? '';
  return (
    <section class="card">
      <h1>{t('recipient.secret.heading')}</h1>
      {kind === 'qr' && (
        <div class="qr">
          <img id="qr-image" src={qrDataUri(payload)} alt={t('recipient.secret.qrAlt')} width={240} height={240} />
        </div>
      )}
      {(kind === 'text' || kind === 'qr' || kind === 'url') && payload !== '' && (
        <>
          <pre class="secret" id="secret" data-secret>
            {payload}
          </pre>
          <div class="row">
            <CopyButton target="secret" label={t('recipient.secret.copy')} />
            <HideToggle target="secret" />
            <span class="muted" data-copy-status aria-live="polite"></span>
          </div>
        </>
      )}
      {kind === 'file' && (
        <>
          {payload !== '' && (
            <pre class="secret" id="secret" data-secret>
              {payload}
            </pre>
          )}
          {push.files.length > 0 ? (
            <ul class="files">
              {push.files.map((f) => (
                <li>
                  <a href={f.url} download={neutraliseControls(f.filename, '_')}>
                    {neutraliseControls(f.filename)}
                  </a>{' '}
                  <span class="muted">({f.content_type})</span>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">{t('recipient.secret.noFiles')}</p>
          )}
          <p class="muted">{t('recipient.secret.downloadNow')}</p>
        </>
      )}
      <Remaining push={push} />
      {mayDelete && push.views_remaining > 0 && (
        <form method="post" action={`/p/${token}/delete`} class="delete-form">
          <CsrfField token={csrfToken} />
          {deleteTicket && <input type="hidden" name="exp" value={deleteTicket.exp} />}
          {deleteTicket && <input type="hidden" name="ticket" value={deleteTicket.ticket} />}
          <p>{t('recipient.delete.prompt')}</p>
          <button type="submit" class="danger" id="delete-now">
            {t('recipient.delete.button')}
          </button>
        </form>
      )}
    </section>
  );
}

/** The same page for unknown and expired links: existence is not revealed. */
export function ExpiredPage() {
  const { t } = useLanguage();
  return (
    <section class="card center">
      <h1>{t('recipient.expired.heading')}</h1>
      <p>{t('recipient.expired.body')}</p>
      <p>
        <a href="/">{t('common.sendYourOwn')}</a>
      </p>
    </section>
  );
}

export function DeletedPage() {
  const { t } = useLanguage();
  return (
    <section class="card center">
      <h1>{t('recipient.deleted.heading')}</h1>
      <p>{t('recipient.deleted.body')}</p>
      <p>
        <a href="/">{t('common.sendYourOwn')}</a>
      </p>
    </section>
  );
}
