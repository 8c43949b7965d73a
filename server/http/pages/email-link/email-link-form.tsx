/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { MAX_NOTIFY_EMAILS, MAX_NOTIFY_NOTE_CHARS } from '../../../mail/recipient-link.js';
import { CsrfField, FieldErrors, Notice } from '../components.js';
import { useLanguage } from '../i18n/i18n-context.js';

export interface EmailLinkValues {
  notify_emails: string;
  notify_note: string;
}

export const noEmailLinkValues: EmailLinkValues = { notify_emails: '', notify_note: '' };

function invalid(errors: Record<string, string[]> | undefined, field: string, hint?: string) {
  const described = [hint, errors?.[field]?.length ? `${field}-error` : undefined].filter(Boolean).join(' ');
  return { ...(errors?.[field]?.length ? { 'aria-invalid': true as const } : {}), ...(described ? { 'aria-describedby': described } : {}) };
}

/**
 * The addresses and the note, as the create form's `push[…]` fields or the e-mail form's own:
 * the limits shown are the service's constants (server/mail/recipient-link.ts), which also
 * decides. `type="email" multiple` is the browser's comma-separated address list.
 */
export function RecipientFields({ prefix, values, errors }: { prefix?: string; values: EmailLinkValues; errors?: Record<string, string[]> }) {
  const { t } = useLanguage();
  const name = (field: string) => (prefix ? `${prefix}[${field}]` : field);
  return (
    <>
      <label for="notify_emails">{t('mailLink.recipients')}</label>
      <input type="email" multiple id="notify_emails" name={name('notify_emails')} value={values.notify_emails} autocomplete="off" {...invalid(errors, 'notify_emails', 'notify_emails-hint')} />
      <p class="muted small hint" id="notify_emails-hint">
        {t('mailLink.recipientsHint', { max: MAX_NOTIFY_EMAILS })}
      </p>
      <FieldErrors errors={errors} field="notify_emails" />
      <label for="notify_note">{t('mailLink.note')}</label>
      <textarea id="notify_note" name={name('notify_note')} class="short" maxLength={MAX_NOTIFY_NOTE_CHARS} {...invalid(errors, 'notify_note')}>
        {values.notify_note}
      </textarea>
      <FieldErrors errors={errors} field="notify_note" />
    </>
  );
}

/** The create form's part: a signed-in sender with e-mail set up may name recipients of the link. */
export function CreateRecipientFields({ values, errors }: { values: EmailLinkValues; errors?: Record<string, string[]> }) {
  const { t } = useLanguage();
  return (
    <fieldset class="stack" data-notify-fields>
      <legend>{t('mailLink.create.legend')}</legend>
      <RecipientFields prefix="push" values={values} errors={errors} />
      {/* The server sends the mails; for an end-to-end push only once the browser has handed it the key (browser/e2e-create.ts). */}
      <p class="muted small">{t('mailLink.endToEndNote')}</p>
    </fieldset>
  );
}

export interface EmailLinkFormProps {
  urlToken: string;
  csrfToken: string;
  /** The link's key is only in the sender's browser: the script adds it (browser/email-link.ts). */
  endToEnd: boolean;
  values?: EmailLinkValues;
  errors?: Record<string, string[]>;
  /** A refusal of the whole form (too many mails), in the page's language. */
  formError?: string;
  /** The addresses the last send went to. */
  sent?: string[];
  /** Open the form at once (after a send or a refusal). */
  open?: boolean;
}

/**
 * "E-mail the link…" on the page after creating and on the owner's page of a push: posts to
 * /p/<token>/email (email-link-routes.tsx), which calls PushService.emailLink. Works without
 * scripts for a push the server can complete the link of; an end-to-end push's form needs the
 * script, which takes the key from the link shown on the page.
 */
export function EmailLinkForm({ urlToken, csrfToken, endToEnd, values = noEmailLinkValues, errors, formError, sent, open }: EmailLinkFormProps) {
  const { t } = useLanguage();
  return (
    <details class="email-link" data-email-link open={open || Boolean(errors) || Boolean(formError) || undefined}>
      <summary>{t('mailLink.heading')}</summary>
      <div aria-live="polite" data-email-link-status>
        {sent && sent.length > 0 && <Notice kind="ok">{t('mailLink.sent', { count: sent.length, addresses: sent.join(', ') })}</Notice>}
        {formError && <Notice kind="error">{formError}</Notice>}
      </div>
      <form method="post" action={`/p/${urlToken}/email`} class="stack" data-email-link-form data-end-to-end={endToEnd ? 'true' : undefined}>
        <CsrfField token={csrfToken} />
        {endToEnd && <input type="hidden" name="link_key" value="" />}
        <RecipientFields values={values} errors={errors} />
        <FieldErrors errors={errors} field="link_key" />
        <FieldErrors errors={errors} field="url_token" />
        {endToEnd && <p class="muted small">{t('mailLink.endToEndResultNote')}</p>}
        {/* Shown by the script (browser/email-link/send-email-link.ts) when it cannot send from this page. */}
        <p class="notice error" role="alert" data-email-link-problem="key-missing" hidden>
          {t('mailLink.keyMissing')}
        </p>
        <p class="notice error" role="alert" data-email-link-problem="failed" data-template={t('mailLink.failed')} hidden></p>
        <p>
          <button type="submit" data-email-link-submit data-sending={t('mailLink.sending')}>
            {t('mailLink.send')}
          </button>
        </p>
      </form>
    </details>
  );
}

/**
 * The answer to "E-mail the link…" posted from a page opened before the push expired or was
 * deleted: no form any more (its link gives nothing), a refusal saying nothing was sent. The
 * script puts it in the form's place as it does any answer (it has the same data-email-link).
 */
export function EmailLinkClosed() {
  const { t } = useLanguage();
  return (
    <details class="email-link" data-email-link open>
      <summary>{t('mailLink.heading')}</summary>
      <div aria-live="polite" data-email-link-status>
        <Notice kind="error">{t('mailLink.expired')}</Notice>
      </div>
    </details>
  );
}
