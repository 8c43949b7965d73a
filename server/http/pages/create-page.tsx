/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { OwnerPushRecord, PushLimits } from '../../../shared/push-schema.js';
import { CopyButton, CsrfField, FieldErrors, Notice, OtherErrors, plural } from './components.js';

export type Kind = 'text' | 'url' | 'qr' | 'file';

export interface CreateFormValues {
  kind: Kind;
  payload: string;
  expire_after_days: string;
  expire_after_views: string;
  retrieval_step: boolean;
  deletable_by_viewer: boolean;
  name: string;
  note: string;
}

export interface CreateFormProps {
  kinds: Kind[];
  /** Why some kinds are not offered (e.g. files need an account). */
  kindNotes: string[];
  limits: PushLimits;
  values: CreateFormValues;
  errors?: Record<string, string[]>;
  /** A problem with the request as a whole (e.g. files need an account, a file too large). */
  formError?: string;
  csrfToken: string;
  signedIn: boolean;
  maxFiles: number;
}

const KIND_LABELS: Record<Kind, string> = { text: 'Text', url: 'URL', qr: 'QR code', file: 'Files' };

export function defaultValues(limits: PushLimits): CreateFormValues {
  return {
    kind: 'text',
    payload: '',
    expire_after_days: String(limits.days.default),
    expire_after_views: String(limits.views.default),
    retrieval_step: limits.retrieval_step,
    deletable_by_viewer: limits.deletable_by_viewer,
    name: '',
    note: '',
  };
}

function describedBy(errors: Record<string, string[]> | undefined, field: string) {
  return errors?.[field]?.length ? { 'aria-invalid': true as const, 'aria-describedby': `${field}-error` } : {};
}

/** The create form: posted as multipart so that files stream to the server like the API's. */
export function CreatePage({ kinds, kindNotes, limits, values, errors, formError, csrfToken, signedIn, maxFiles }: CreateFormProps) {
  const shown = ['payload', 'files', 'kind', 'expire_after_days', 'expire_after_views', 'passphrase', 'name', 'note'];
  return (
    <section class="card">
      <h1>Send a secret</h1>
      <p class="muted">
        The secret is encrypted on the server and deleted after the views or days you choose. Send the link, and send
        any passphrase by another channel.
      </p>
      {errors && <Notice kind="error">Please correct the fields marked below.</Notice>}
      {formError && <Notice kind="error">{formError}</Notice>}
      <OtherErrors errors={errors} shown={shown} />
      <form method="post" action="/" enctype="multipart/form-data" class="stack" id="create-form">
        <CsrfField token={csrfToken} />
        <fieldset class="kinds">
          <legend>What do you want to send?</legend>
          <div class="row">
            {kinds.map((k) => (
              <label class="choice">
                <input type="radio" name="push[kind]" value={k} checked={values.kind === k} data-kind-choice />
                {KIND_LABELS[k]}
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
            <span data-kind-label="text">Secret text</span>
            <span data-kind-label="url" hidden>
              URL (http or https)
            </span>
            <span data-kind-label="qr" hidden>
              Text for the QR code (at most {limits.max_qr_chars} characters)
            </span>
          </label>
          <textarea id="payload" name="push[payload]" autocomplete="off" spellcheck={false} {...describedBy(errors, 'payload')}>
            {values.payload}
          </textarea>
          <FieldErrors errors={errors} field="payload" />
        </div>

        {kinds.includes('file') && (
          <div data-kind-panel="file">
            <label for="files">Files (at most {maxFiles})</label>
            <input type="file" id="files" name="push[files][]" multiple {...describedBy(errors, 'files')} />
            <FieldErrors errors={errors} field="files" />
          </div>
        )}

        <div class="grid2">
          <div>
            <label for="expire_after_days">Expire after days</label>
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
            <label for="expire_after_views">Expire after views</label>
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

        <label for="passphrase">Passphrase (optional)</label>
        <input type="password" id="passphrase" name="push[passphrase]" autocomplete="new-password" {...describedBy(errors, 'passphrase')} />
        <FieldErrors errors={errors} field="passphrase" />

        <input type="hidden" name="push[retrieval_step]" value="false" />
        <label class="choice">
          <input type="checkbox" name="push[retrieval_step]" value="true" checked={values.retrieval_step} />
          Ask the recipient to click before revealing (protects against link previewers)
        </label>
        <input type="hidden" name="push[deletable_by_viewer]" value="false" />
        <label class="choice">
          <input type="checkbox" name="push[deletable_by_viewer]" value="true" checked={values.deletable_by_viewer} />
          Let the recipient delete it after viewing
        </label>

        <details open={Boolean(values.name || values.note || errors?.name || errors?.note)}>
          <summary>Name and note (only you see these{signedIn ? ', on your dashboard' : ''})</summary>
          <label for="name">Name</label>
          <input type="text" id="name" name="push[name]" value={values.name} {...describedBy(errors, 'name')} />
          <FieldErrors errors={errors} field="name" />
          <label for="note">Note</label>
          <textarea id="note" name="push[note]" class="short" {...describedBy(errors, 'note')}>
            {values.note}
          </textarea>
          <FieldErrors errors={errors} field="note" />
        </details>

        <p>
          <button type="submit" id="create-submit">
            Create the secret link
          </button>
        </p>
      </form>
    </section>
  );
}

export function CreatedPage({ push }: { push: OwnerPushRecord }) {
  return (
    <section class="card">
      <h1>Your secret link is ready</h1>
      <p>Send this link to the recipient:</p>
      <p class="link-box">
        <code id="secret-link">{push.html_url}</code>
      </p>
      <div class="row">
        <CopyButton target="secret-link" label="Copy the link" />
        <span class="muted" data-copy-status aria-live="polite"></span>
      </div>
      <p class="muted">
        It expires after {plural(push.expire_after_days, 'day')} or {plural(push.expire_after_views, 'view')}, whichever comes first.
        {push.passphrase ? ' Remember to send the passphrase by another channel.' : ''}
      </p>
      <p>
        <a href="/">Send another secret</a>
      </p>
    </section>
  );
}

export function SignInToCreate() {
  return (
    <section class="card center">
      <h1>Sign in to send a secret</h1>
      <p>This server only lets people with an account create secret links.</p>
      <p>
        <a class="button" href="/users/sign_in?return_to=%2F">
          Sign in
        </a>
      </p>
    </section>
  );
}
