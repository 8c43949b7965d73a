/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { OwnerPushRecord, PushLimits } from '../../../shared/push-schema.js';
import { CopyableValue, CsrfField, FieldErrors, Notice, OtherErrors } from './components.js';
import { useLanguage } from './i18n/i18n-context.js';
import { EndToEndCreateNote, EndToEndLinkNote } from './end-to-end-pages.js';
import { qrSvg } from './qr-svg.js';
import { ReleaseField } from './release-pages.js';
import type { ComponentChildren } from 'preact';
import { CreateRecipientFields } from './email-link/email-link-form.js';
import { FollowsField, type FollowsValues } from './linked/follows-field.js';
import { OpensAfter } from './linked/opens-after.js';

export type Kind = 'text' | 'url' | 'qr' | 'file';

export interface CreateFormValues extends FollowsValues {
  kind: Kind;
  payload: string;
  expire_after_days: string;
  expire_after_views: string;
  retrieval_step: boolean;
  deletable_by_viewer: boolean;
  /** Empty: the server's default. */
  max_failed_passphrase_attempts: string;
  name: string;
  note: string;
  /** Scheduled release: the form's local date and time (release-pages.tsx), or empty. */
  release_at: string;
  /** Its days count from the release (`expire_from_release`). */
  expire_from_release: boolean;
  /** The link e-mailed to these (comma-separated) addresses, with this note. */
  notify_emails: string;
  notify_note: string;
}

export interface CreateFormProps {
  kinds: Kind[];
  /** Why some kinds are not offered (e.g. files need an account), in the page's language. */
  kindNotes: string[];
  limits: PushLimits;
  values: CreateFormValues;
  errors?: Record<string, string[]>;
  /** A problem with the request as a whole (e.g. files need an account, a file too large). */
  formError?: string;
  csrfToken: string;
  signedIn: boolean;
  maxFiles: number;
  /** E-mail is set up: a signed-in sender may ask for receipts by e-mail. */
  mailReceipts?: boolean;
  /** The account's receipt defaults: the boxes start checked as they say (the e-mail settings page). */
  receiptDefaults?: { opened: boolean; expiredUnopened: boolean };
  /** E-mail is set up: a signed-in sender may have the link e-mailed to recipients. */
  mailLinks?: boolean;
  /** Linked secrets: the signed-in sender's pushes this one may open after (absent: no such field). */
  followChoices?: OwnerPushRecord[];
}


export function defaultValues(limits: PushLimits): CreateFormValues {
  return {
    kind: 'text',
    payload: '',
    expire_after_days: String(limits.days.default),
    expire_after_views: String(limits.views.default),
    retrieval_step: limits.retrieval_step,
    deletable_by_viewer: limits.deletable_by_viewer,
    max_failed_passphrase_attempts: '',
    name: '',
    note: '',
    release_at: '',
    expire_from_release: false,
    notify_emails: '',
    notify_note: '',
    follows: '',
    follows_link: '',
    follows_until_at: '',
  };
}

function describedBy(errors: Record<string, string[]> | undefined, field: string) {
  return errors?.[field]?.length ? { 'aria-invalid': true as const, 'aria-describedby': `${field}-error` } : {};
}

/** The create form: posted as multipart so that files stream to the server like the API's. */
export function CreatePage({ kinds, kindNotes, limits, values, errors, formError, csrfToken, signedIn, maxFiles, mailReceipts, receiptDefaults, mailLinks, followChoices }: CreateFormProps) {
  const { t } = useLanguage();
  const offersRecipients = signedIn && Boolean(mailLinks);
  const shown = ['payload', 'files', 'kind', 'expire_after_days', 'expire_after_views', 'passphrase', 'max_failed_passphrase_attempts', 'name', 'note', 'not_before', ...(followChoices ? ['follows', 'follows_until'] : []), ...(offersRecipients ? ['notify_emails', 'notify_note'] : [])];
  // "More options" is open when one of them was set, differs from the server's default or needs fixing.
  const moreOpen = Boolean(
    values.name || values.note || values.max_failed_passphrase_attempts || values.release_at || values.expire_from_release || errors?.name || errors?.note || errors?.max_failed_passphrase_attempts || errors?.not_before || values.follows || values.follows_link || values.follows_until_at || errors?.follows || errors?.follows_until,
  ) || values.retrieval_step !== limits.retrieval_step || values.deletable_by_viewer !== limits.deletable_by_viewer;
  return (
    <section class="card">
      <h1>{t('create.heading')}</h1>
      <p class="muted">{t('create.introShort')}</p>
      {errors && <Notice kind="error">{t('create.fixFields')}</Notice>}
      {formError && <Notice kind="error">{formError}</Notice>}
      <OtherErrors errors={errors} shown={shown} />
      <form method="post" action="/" enctype="multipart/form-data" class="stack" id="create-form">
        <CsrfField token={csrfToken} />
        <EndToEndCreateNote />
        <fieldset class="kinds">
          <legend>{t('create.kindLegend')}</legend>
          <div class="row">
            {kinds.map((k) => (
              <label class="choice">
                <input type="radio" name="push[kind]" value={k} checked={values.kind === k} data-kind-choice />
                {t(`create.kind.${k}`)}
              </label>
            ))}
          </div>
          <FieldErrors errors={errors} field="kind" />
          {kindNotes.map((n) => (
            <p class="muted small">{n}</p>
          ))}
        </fieldset>

        <div data-kind-panel="text qr url">
          <label for="payload">
            <span data-kind-label="text">{t('create.payload.text')}</span>
            <span data-kind-label="url" hidden>
              {t('create.payload.url')}
            </span>
            <span data-kind-label="qr" hidden>
              {t('create.payload.qr', { max: limits.max_qr_chars })}
            </span>
          </label>
          <textarea id="payload" name="push[payload]" autocomplete="off" spellcheck={false} {...describedBy(errors, 'payload')}>
            {values.payload}
          </textarea>
          <FieldErrors errors={errors} field="payload" />
        </div>

        {kinds.includes('file') && (
          <div data-kind-panel="file">
            <label for="files">{t('create.files', { max: maxFiles })}</label>
            <input type="file" id="files" name="push[files][]" multiple {...describedBy(errors, 'files')} />
            <FieldErrors errors={errors} field="files" />
          </div>
        )}

        <div class="grid2 pair">
          <div>
            <label for="expire_after_days">{t('create.days')}</label>
            <input
              type="number"
              id="expire_after_days"
              name="push[expire_after_days]"
              min={limits.days.min}
              max={limits.days.max}
              value={values.expire_after_days}
              {...describedBy(errors, 'expire_after_days')}
            />
            <FieldErrors errors={errors} field="expire_after_days" />
          </div>
          <div>
            <label for="expire_after_views">{t('create.views')}</label>
            <input
              type="number"
              id="expire_after_views"
              name="push[expire_after_views]"
              min={limits.views.min}
              max={limits.views.max}
              value={values.expire_after_views}
              {...describedBy(errors, 'expire_after_views')}
            />
            <FieldErrors errors={errors} field="expire_after_views" />
          </div>
        </div>

        <label for="passphrase">{t('create.passphrase')}</label>
        <input type="password" id="passphrase" name="push[passphrase]" autocomplete="new-password" {...describedBy(errors, 'passphrase')} />
        <FieldErrors errors={errors} field="passphrase" />
        {/* Text, lifetime and passphrase up front; the rest folded away (open when one of them needs attention or was set). */}
        <details class="more-options" open={moreOpen}>
          <summary>{t('create.moreOptions')}</summary>
          {/* Only meaningful with a passphrase: create.js shows it once one is typed (always shown without scripts). */}
          <div data-needs-passphrase>
          <label for="max_failed_passphrase_attempts">{t('create.burnAfter')}</label>
          <input
            type="number"
            id="max_failed_passphrase_attempts"
            name="push[max_failed_passphrase_attempts]"
            min={0}
            max={1000}
            placeholder={String(limits.max_failed_passphrase_attempts ?? 0)}
            value={values.max_failed_passphrase_attempts}
            {...describedBy(errors, 'max_failed_passphrase_attempts')}
          />
          <FieldErrors errors={errors} field="max_failed_passphrase_attempts" />
          </div>

          <input type="hidden" name="push[retrieval_step]" value="false" />
          <label class="choice">
            <input type="checkbox" name="push[retrieval_step]" value="true" checked={values.retrieval_step} aria-describedby="retrieval-step-hint" />
            {t('create.retrievalStep')}
          </label>
          <p class="muted small hint" id="retrieval-step-hint">
            {t('create.retrievalStepHint')}
          </p>
          <input type="hidden" name="push[deletable_by_viewer]" value="false" />
          <label class="choice">
            <input type="checkbox" name="push[deletable_by_viewer]" value="true" checked={values.deletable_by_viewer} aria-describedby="deletable-hint" />
            {t('create.deletableByViewer')}
          </label>
          <p class="muted small hint" id="deletable-hint">
            {t('create.deletableHint')}
          </p>
          {signedIn && mailReceipts && (
            <>
              <label class="choice">
                <input type="checkbox" name="push[email_on_open]" value="true" checked={receiptDefaults?.opened} />
                {t('create.emailOnOpen')}
              </label>
              <label class="choice">
                <input type="checkbox" name="push[email_on_expired_unopened]" value="true" checked={receiptDefaults?.expiredUnopened} />
                {t('create.emailOnExpiredUnopened')}
              </label>
            </>
          )}

          <ReleaseField value={values.release_at} fromRelease={values.expire_from_release} errors={errors} />
          {followChoices && <FollowsField choices={followChoices} values={values} errors={errors} />}

          <p class="muted small">{t(signedIn ? 'create.nameAndNoteSignedIn' : 'create.nameAndNote')}</p>
          <label for="name">{t('create.name')}</label>
          <input type="text" id="name" name="push[name]" value={values.name} {...describedBy(errors, 'name')} />
          <FieldErrors errors={errors} field="name" />
          <label for="note">{t('create.note')}</label>
          <textarea id="note" name="push[note]" class="short" {...describedBy(errors, 'note')}>
            {values.note}
          </textarea>
          <FieldErrors errors={errors} field="note" />
        </details>

        {offersRecipients && <CreateRecipientFields values={values} errors={errors} />}

        <p>
          <button type="submit" id="create-submit">
            {t('create.submit')}
          </button>
        </p>
      </form>
      {/* Below the form, not above it: on a phone the Create button must stay above the fold (pages-create-form.test.ts). */}
      {signedIn && (
        <p class="small">
          <a href="/batch" id="batch-mode">{t('create.batchLink')}</a>
        </p>
      )}
    </section>
  );
}

export function CreatedPage({ push, emailLink, followed }: { push: OwnerPushRecord; emailLink?: ComponentChildren; followed?: OwnerPushRecord }) {
  const { t } = useLanguage();
  const days = t('create.ready.days', { count: push.expire_after_days });
  const views = t('create.ready.views', { count: push.expire_after_views });
  return (
    <section class="card">
      <h1>{t('create.ready.heading')}</h1>
      <p>{t('create.ready.send')}</p>
      {/* Copying the link is what this page is for: its main button. */}
      <CopyableValue id="secret-link" value={push.html_url} copyLabel={t('create.ready.copy')} primary />
      {push.end_to_end && <EndToEndLinkNote />}
      {/* A QR code only where the server knows the whole link: an end-to-end link's key never reached it. */}
      {push.end_to_end && (
        <details class="qr-details" data-e2e-qr hidden>
          <summary>{t('create.ready.showQr')}</summary>
          <div class="qr" data-e2e-qr-code data-label={t('preview.qrAlt')}></div>
        </details>
      )}
      {!push.end_to_end && (
        <details class="qr-details">
          <summary>{t('create.ready.showQr')}</summary>
          {/* Generated markup of our own (modules of the link, no text of it), never user input. */}
          <div class="qr" dangerouslySetInnerHTML={{ __html: qrSvg(push.html_url, t('preview.qrAlt')) }} />
        </details>
      )}
      <p class="muted">
        {t('create.ready.expires', { days, views })}
        {push.passphrase ? ` ${t('create.ready.passphraseReminder')}` : ''}
      </p>
      <OpensAfter push={push} first={followed} />
      {/* "E-mail the link…" for a signed-in sender when e-mail is set up (email-link/email-link-form.tsx). */}
      {emailLink}
      <p>
        <a href="/">{t('create.ready.another')}</a>
      </p>
    </section>
  );
}

export function SignInToCreate() {
  const { t } = useLanguage();
  return (
    <section class="card center">
      <h1>{t('create.signIn.heading')}</h1>
      <p>{t('create.signIn.body')}</p>
      <p>
        <a class="button" href="/users/sign_in?return_to=%2F">
          {t('create.signIn.button')}
        </a>
      </p>
    </section>
  );
}
