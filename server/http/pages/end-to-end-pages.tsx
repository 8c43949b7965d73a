/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { CopyButton, CsrfField, HideToggle } from './components.js';
import { useLanguage } from './i18n/i18n-context.js';

/**
 * The parts of the pages that end-to-end pushes need. The server never decrypts these pushes:
 * the scripts (pages/browser/) do, and every sentence they may show is rendered here, hidden,
 * in the page's language, for them to reveal.
 */

/** What the script says when the link's key (the fragment) is missing or damaged, or WebCrypto is absent. */
export function KeyProblems() {
  const { t } = useLanguage();
  return (
    <>
      <noscript>
        <p class="notice error">{t('e2e.noScript')}</p>
      </noscript>
      <p class="notice error" data-e2e-problem="missing" role="alert" hidden>
        {t('e2e.keyMissing')}
      </p>
      <p class="notice error" data-e2e-problem="damaged" role="alert" hidden>
        {t('e2e.keyDamaged')}
      </p>
      <p class="notice error" data-e2e-problem="unsupported" role="alert" hidden>
        {t('e2e.unsupported')}
      </p>
    </>
  );
}

export interface EndToEndSecretPageProps {
  token: string;
  csrfToken: string;
  mayDelete: boolean;
  /** The push has a passphrase check: the script asks for the passphrase before it opens the push. */
  passphraseFirst: boolean;
}

/**
 * `/p/<token>` of an end-to-end push. Serving it counts no view: the script checks the key in
 * the fragment first and only then asks `/p/<token>/open` for the envelope (which counts one).
 */
export function EndToEndSecretPage({ token, csrfToken, mayDelete, passphraseFirst }: EndToEndSecretPageProps) {
  const { t } = useLanguage();
  return (
    <section class="card" id="e2e" data-open={`/p/${token}/open`} data-csrf={csrfToken} data-passphrase-first={passphraseFirst ? 'true' : undefined}>
      <h1>{t('recipient.secret.heading')}</h1>
      <KeyProblems />
      <p class="muted" data-e2e-state="working" aria-live="polite" hidden>
        {t('e2e.decrypting')}
      </p>
      <p class="notice error" data-e2e-problem="failed" role="alert" hidden>
        {t('e2e.failed')}
      </p>
      <p class="notice error" data-e2e-problem="fetch" role="alert" hidden>
        {t('e2e.openFailed')}
      </p>
      <div data-e2e-problem="expired" hidden>
        <p class="notice error" role="alert">
          {t('recipient.expired.heading')}
        </p>
        <p>{t('recipient.expired.body')}</p>
      </div>
      <form id="e2e-passphrase" class="stack" hidden>
        <p class="muted">{t('e2e.passphraseHint')}</p>
        <p class="notice error" data-e2e-problem="passphrase" role="alert" hidden>
          {t('e2e.passphraseWrong')}
        </p>
        <p class="notice error" data-e2e-problem="passphrase-limit" role="alert" hidden>
          {t('recipient.passphrase.tooMany')}
        </p>
        <label for="e2e-passphrase-input">{t('e2e.passphraseLabel')}</label>
        <input type="password" id="e2e-passphrase-input" autocomplete="off" required />
        <p>
          <button type="submit">{t('e2e.passphraseButton')}</button>
        </p>
      </form>
      <p class="offscreen" id="e2e-announce" role="status" data-decrypted={t('e2e.decrypted')}></p>
      <div id="e2e-text" hidden>
        <pre class="secret" id="secret" data-secret tabindex={-1}></pre>
        <div class="row">
          <CopyButton target="secret" label={t('recipient.secret.copy')} />
          <HideToggle target="secret" />
          <span class="muted" data-copy-status aria-live="polite"></span>
        </div>
      </div>
      <div id="e2e-files" tabindex={-1} hidden>
        <pre class="secret" id="e2e-message" hidden></pre>
        <ul class="files" id="e2e-file-list" data-download-label={t('e2e.download')}></ul>
        <p class="muted" data-e2e-state="downloading" aria-live="polite" hidden>
          {t('e2e.downloading')}
        </p>
        <p class="notice error" data-e2e-problem="download" role="alert" hidden>
          {t('e2e.downloadFailed')}
        </p>
        <p class="muted">{t('recipient.secret.downloadNow')}</p>
      </div>
      <p class="muted" data-e2e-state="opened" hidden>
        {t('e2e.note')}
      </p>
      <p class="muted" id="e2e-remaining" hidden></p>
      {mayDelete && (
        <form method="post" action={`/p/${token}/delete`} class="delete-form" id="e2e-delete" hidden>
          <CsrfField token={csrfToken} />
          {/* Filled by the script from the opening's answer: proof that this viewer gave the passphrase. */}
          <input type="hidden" name="exp" value="" />
          <input type="hidden" name="ticket" value="" />
          <p>{t('recipient.delete.prompt')}</p>
          <button type="submit" class="danger" id="delete-now">
            {t('recipient.delete.button')}
          </button>
        </form>
      )}
    </section>
  );
}

/** The create page's note, and what its script shows while it encrypts. */
export function EndToEndCreateNote() {
  const { t } = useLanguage();
  return (
    <>
      {/* One line says how this push is encrypted: the server's line without scripts; with them, the script shows the one for the chosen kind. */}
      <p class="muted small" data-encryption-note="server">
        {t('create.serverNote')}
      </p>
      <p class="muted small" data-encryption-note="server-kinds" hidden>
        {t('create.serverNoteKinds')}
      </p>
      <p class="muted small" data-e2e-create-note hidden>
        {t('e2e.create.note')}
      </p>
      <p class="muted" data-e2e-state="encrypting" aria-live="polite" hidden>
        {t('e2e.create.encrypting')}
      </p>
      <p class="notice error" data-e2e-problem="encrypt" role="alert" hidden>
        {t('e2e.create.failed')}
      </p>
      {/* The server's refusal of a sliced upload (its own sentence, as the form's answer would show it). */}
      <p class="notice error" data-e2e-problem="refused" role="alert" hidden></p>
    </>
  );
}

/** On the "link ready" page of an end-to-end push: the script adds the key kept in this tab. */
export function EndToEndLinkNote() {
  const { t } = useLanguage();
  return (
    <>
      <p class="muted" data-e2e-link-note>
        {t('e2e.create.linkNote')}
      </p>
      <p class="notice error" data-e2e-problem="key-lost" role="alert" hidden>
        {t('e2e.create.keyLost')}
      </p>
    </>
  );
}
