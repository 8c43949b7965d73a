/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { neutraliseControls } from '../../../shared/neutralise-controls.js';
import type { PushLimits } from '../../../shared/push-schema.js';
import type { OwnerRequest, PublicRequest } from '../../../shared/request-schema.js';
import { CopyableValue, CsrfField, FieldErrors, Notice, RowAction } from './components.js';
import { useLanguage } from './i18n/i18n-context.js';
import type { MessageKey } from './i18n/messages/en.js';

export interface RequestFormValues {
  title: string;
  message: string;
  expire_after_days: string;
  answer_expire_after_days: string;
  answer_expire_after_views: string;
  /** "E-mail me when it is answered": starts as the account's default (the e-mail settings page). */
  email_on_answer: boolean;
}

export function defaultRequestValues(limits: Pick<PushLimits, 'days' | 'views'>, emailOnAnswer = false): RequestFormValues {
  return {
    email_on_answer: emailOnAnswer,
    title: '',
    message: '',
    expire_after_days: String(limits.days.default),
    answer_expire_after_days: String(limits.days.default),
    answer_expire_after_views: String(limits.views.default),
  };
}

function NumberInput({ field, label, value, range, errors }: { field: string; label: string; value: string; range: { min: number; max: number }; errors?: Record<string, string[]> }) {
  return (
    <div>
      <label for={field}>{label}</label>
      <input type="number" id={field} name={field} min={range.min} max={range.max} value={value} />
      <FieldErrors errors={errors} field={field} />
    </div>
  );
}

/** The requester's page: make a request link, see each one's state and open the answers. */
export function RequestsPage(props: {
  requests: OwnerRequest[];
  limits: Pick<PushLimits, 'days' | 'views'>;
  values: RequestFormValues;
  errors?: Record<string, string[]>;
  made?: OwnerRequest;
  csrfToken: string;
  /** E-mail is set up: the requester may ask to be e-mailed when a request is answered. */
  mailReceipts?: boolean;
}) {
  const { t, date } = useLanguage();
  const { values, errors, limits, csrfToken } = props;
  return (
    <>
      {props.made && (
        <section class="card">
          <h1>{t('requests.made.heading')}</h1>
          <p>{t('requests.made.send')}</p>
          <CopyableValue id="request-link" value={props.made.html_url} copyLabel={t('requests.made.copy')} />
        </section>
      )}
      <section class="card">
        <h1>{t('requests.heading')}</h1>
        <p class="muted">{t('requests.intro')}</p>
        <form method="post" action="/users/requests" class="stack">
          <CsrfField token={csrfToken} />
          <label for="title">{t('requests.title')}</label>
          <input type="text" id="title" name="title" maxLength={255} value={values.title} />
          <FieldErrors errors={errors} field="title" />
          <label for="message">{t('requests.message')}</label>
          <textarea id="message" name="message" rows={3} maxLength={2000}>
            {values.message}
          </textarea>
          <FieldErrors errors={errors} field="message" />
          <div class="grid2">
            <NumberInput field="expire_after_days" label={t('requests.linkDays')} value={values.expire_after_days} range={limits.days} errors={errors} />
            <NumberInput field="answer_expire_after_days" label={t('requests.answerDays')} value={values.answer_expire_after_days} range={limits.days} errors={errors} />
            <NumberInput field="answer_expire_after_views" label={t('requests.answerViews')} value={values.answer_expire_after_views} range={limits.views} errors={errors} />
          </div>
          {props.mailReceipts && (
            <label class="choice">
              <input type="checkbox" name="email_on_answer" value="true" checked={values.email_on_answer} />
              {t('requests.emailOnAnswer')}
            </label>
          )}
          <button type="submit" id="make-request" class="primary">
            {t('requests.make')}
          </button>
        </form>
      </section>
      <section class="card">
        <h2>{t('requests.yours')}</h2>
        {props.requests.length === 0 ? (
          <p class="muted">{t('requests.none')}</p>
        ) : (
          props.requests.map((r) => (
            <article class="push-card" data-request={r.url_token}>
              <header class="row spread">
                <h3>{r.title ? neutraliseControls(r.title) : t('requests.untitled')}</h3>
                <span class={`badge ${r.state === 'open' ? 'active' : 'expired'}`}>{t(`requests.state.${r.state}` as MessageKey)}</span>
              </header>
              <p class="muted small">
                {[t('requests.created', { date: date(r.created_at) }), r.answered_at ? t('requests.answeredOn', { date: date(r.answered_at) }) : t('requests.expiresOn', { date: date(r.expires_at) })].join(' · ')}
              </p>
              {r.state === 'open' && (
                <>
                  <p class="link-box">
                    <code>{r.html_url}</code>
                  </p>
                  <RowAction action="/users/requests/close" csrfToken={csrfToken} name="token" value={r.url_token} label={t('requests.close')} />
                </>
              )}
              {r.answer_html_url && (
                <p>
                  <a href={r.answer_html_url}>{t('requests.openAnswer')}</a>
                </p>
              )}
            </article>
          ))
        )}
      </section>
    </>
  );
}

/** What whoever opens a request link sees: the requester's title and message, and a form. */
export function AnswerPage(props: {
  token: string;
  request: PublicRequest;
  csrfToken: string;
  errors?: Record<string, string[]>;
  payload?: string;
  /** Files the answer may carry (0: file pushes are off). */
  maxFiles: number;
  formError?: string;
}) {
  const { token, request, csrfToken, errors, payload, maxFiles } = props;
  const { t, date } = useLanguage();
  return (
    <section class="card">
      <h1>{t('answer.heading')}</h1>
      {/* Written by the requester, read by whoever has the link: no controls that disguise text. */}
      {request.title && <h2>{neutraliseControls(request.title)}</h2>}
      {request.message && <p class="note">{neutraliseControls(request.message)}</p>}
      <p class="muted">{t('answer.intro', { date: date(request.expires_at) })}</p>
      {props.formError && <Notice kind="error">{props.formError}</Notice>}
      <form method="post" action={`/req/${token}`} enctype="multipart/form-data" class="stack">
        <CsrfField token={csrfToken} />
        <label for="payload">{t('answer.payload')}</label>
        <textarea id="payload" name="payload" rows={6}>
          {payload ?? ''}
        </textarea>
        <FieldErrors errors={errors} field="payload" />
        {maxFiles > 0 && (
          <>
            <label for="files">{t('answer.files', { max: maxFiles })}</label>
            <input type="file" id="files" name="files" multiple />
            <FieldErrors errors={errors} field="files" />
          </>
        )}
        {/* On a line of its own, not beside the file picker (inline elements would share its line). */}
        <p>
          <button type="submit" id="send-answer" class="primary">
            {t('answer.send')}
          </button>
        </p>
      </form>
    </section>
  );
}

export function AnswerSentPage() {
  const { t } = useLanguage();
  return (
    <section class="card center">
      <h1>{t('answer.sent.heading')}</h1>
      <Notice kind="ok">{t('answer.sent.body')}</Notice>
    </section>
  );
}

export function RequestClosedPage() {
  const { t } = useLanguage();
  return (
    <section class="card center">
      <h1>{t('answer.closed.heading')}</h1>
      <p>{t('answer.closed.body')}</p>
    </section>
  );
}
