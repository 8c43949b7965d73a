/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { BatchResult } from '../../../../shared/batch-schema.js';
import type { PushLimits } from '../../../../shared/push-schema.js';
import { CsrfField, FieldErrors, Notice } from '../components.js';
import { useLanguage } from '../i18n/i18n-context.js';
import { ReleaseField } from '../release-pages.js';

export interface BatchFormValues {
  recipients_text: string;
  expire_after_days: string;
  expire_after_views: string;
  retrieval_step: boolean;
  deletable_by_viewer: boolean;
  generate: boolean;
  email_links: boolean;
  release_at: string;
}

export function defaultBatchValues(limits: PushLimits): BatchFormValues {
  return {
    recipients_text: '',
    expire_after_days: String(limits.days.default),
    expire_after_views: String(limits.views.default),
    retrieval_step: limits.retrieval_step,
    deletable_by_viewer: limits.deletable_by_viewer,
    generate: false,
    email_links: false,
    release_at: '',
  };
}

/**
 * The create page's "one link per recipient" mode (signed-in senders): a CSV file or pasted rows,
 * and the options every row's push gets, as for a single push. Posted as multipart to /batch.
 */
export function BatchPage({ limits, values, errors, formError, csrfToken, mail, maxRows }: { limits: PushLimits; values: BatchFormValues; errors?: Record<string, string[]>; formError?: string; csrfToken: string; mail: boolean; maxRows: number }) {
  const { t } = useLanguage();
  // Row problems (`row 3: …`) and the rest, each under the form.
  const rowProblems = [...(errors?.recipients ?? []), ...(errors?.recipients_csv ?? [])];
  const otherProblems = Object.entries(errors ?? {}).filter(([k]) => !['recipients', 'recipients_csv', 'expire_after_days', 'expire_after_views', 'not_before'].includes(k));
  return (
    <section class="card">
      <h1>{t('batch.heading')}</h1>
      <p class="muted">{t('batch.intro', { max: maxRows })}</p>
      {formError && <Notice kind="error">{formError}</Notice>}
      {(rowProblems.length > 0 || otherProblems.length > 0) && (
        <div class="notice error" role="alert" id="batch-errors">
          <p>{t('batch.fixRows')}</p>
          <ul>
            {rowProblems.map((p) => (
              <li data-row-problem>{p}</li>
            ))}
            {otherProblems.flatMap(([field, messages]) => messages.map((m) => <li>{`${field}: ${m}`}</li>))}
          </ul>
        </div>
      )}
      <form method="post" action="/batch" enctype="multipart/form-data" class="stack" id="batch-form">
        <CsrfField token={csrfToken} />
        <label for="recipients_file">{t('batch.file')}</label>
        <input type="file" id="recipients_file" name="recipients_file" accept=".csv,text/csv" aria-describedby="batch-list-hint" />
        <label for="recipients_text">{t('batch.paste')}</label>
        <textarea id="recipients_text" name="recipients_text" autocomplete="off" spellcheck={false} aria-describedby="batch-list-hint">
          {values.recipients_text}
        </textarea>
        <p class="muted small hint" id="batch-list-hint">
          {t('batch.listHint')}
        </p>
        <label class="choice">
          <input type="checkbox" name="generate" value="true" checked={values.generate} />
          {t('batch.generate')}
        </label>
        {mail && (
          <label class="choice">
            <input type="checkbox" name="email_links" value="true" checked={values.email_links} />
            {t('batch.emailLinks')}
          </label>
        )}
        <div class="grid2 pair">
          <div>
            <label for="expire_after_days">{t('create.days')}</label>
            <input type="number" id="expire_after_days" name="push[expire_after_days]" min={limits.days.min} max={limits.days.max} value={values.expire_after_days} />
            <FieldErrors errors={errors} field="expire_after_days" />
          </div>
          <div>
            <label for="expire_after_views">{t('create.views')}</label>
            <input type="number" id="expire_after_views" name="push[expire_after_views]" min={limits.views.min} max={limits.views.max} value={values.expire_after_views} />
            <FieldErrors errors={errors} field="expire_after_views" />
          </div>
        </div>
        <label for="passphrase">{t('create.passphrase')}</label>
        <input type="password" id="passphrase" name="push[passphrase]" autocomplete="new-password" />
        <details class="more-options" open={Boolean(values.release_at || errors?.not_before)}>
          <summary>{t('create.moreOptions')}</summary>
          <input type="hidden" name="push[retrieval_step]" value="false" />
          <label class="choice">
            <input type="checkbox" name="push[retrieval_step]" value="true" checked={values.retrieval_step} />
            {t('create.retrievalStep')}
          </label>
          <input type="hidden" name="push[deletable_by_viewer]" value="false" />
          <label class="choice">
            <input type="checkbox" name="push[deletable_by_viewer]" value="true" checked={values.deletable_by_viewer} />
            {t('create.deletableByViewer')}
          </label>
          <ReleaseField value={values.release_at} fromRelease={false} errors={errors} />
        </details>
        <p>
          <button type="submit" id="batch-submit">
            {t('batch.submit')}
          </button>
        </p>
      </form>
    </section>
  );
}

/**
 * The batch's answer: the CSV of links to download (the sender's one copy: it is in this page
 * only, as a data: link, and the server keeps no list), and each row's outcome; a batch stopped
 * half-way says at which row and why, and which rows exist.
 */
export function BatchResultPage({ result, csv }: { result: BatchResult; csv: string }) {
  const { t } = useLanguage();
  const failed = result.rows.find((r) => r.status === 'failed');
  return (
    <section class="card">
      <h1>{t('batch.result.heading')}</h1>
      <p id="batch-summary">{t('batch.result.summary', { created: result.created, total: result.rows.length })}</p>
      {failed && (
        <Notice kind="error">
          <span id="batch-stopped">{t('batch.result.stopped', { row: failed.row, error: failed.error ?? '' })}</span>
        </Notice>
      )}
      <Notice>{t('batch.result.once')}</Notice>
      <p>
        <a class="button" id="batch-download" download={`secret-links-${result.batch_id}.csv`} href={`data:text/csv;charset=utf-8,${encodeURIComponent(csv)}`}>
          {t('batch.result.download')}
        </a>
      </p>
      <div class="table-wrap">
        <table class="audit" id="batch-rows">
          <thead>
            <tr>
              <th>{t('batch.col.row')}</th>
              <th>{t('batch.col.name')}</th>
              <th>{t('batch.col.status')}</th>
            </tr>
          </thead>
          <tbody>
            {result.rows.map((r) => (
              <tr data-status={r.status}>
                <td>{r.row}</td>
                <td>{r.name}</td>
                <td>
                  {t(r.emailed ? 'batch.status.emailed' : `batch.status.${r.status}`)}
                  {r.status === 'failed' && r.error ? ` (${r.error})` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
