/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_BATCH_ROWS } from '../../../../shared/batch-schema.js';
import type { AccountService } from '../../../accounts/account-service.js';
import type { Config } from '../../../config.js';
import { batchCsv } from '../../../pushes/batch/batch-csv.js';
import type { BatchService } from '../../../pushes/batch/batch-service.js';
import type { PushService } from '../../../pushes/push-service.js';
import { ServiceError } from '../../../service-error.js';
import type { AppEnv } from '../../app-env.js';
import { languageOf } from '../../middleware/page-language.js';
import { getPageSession, pageActor, pageSession, sameOriginRequest, verifyPageCsrf } from '../../middleware/session.js';
import { translateServiceMessage } from '../i18n/service-messages.js';
import { csrfRefused, pageErrorResponse } from '../page-errors.js';
import { sendPage } from '../render.js';
import { BatchPage, BatchResultPage, defaultBatchValues, type BatchFormValues } from './batch-page.js';
import { BATCH_ROWS_PAGE_SIZE, BatchRowsPage } from './batch-rows-page.js';

/**
 * The create page's "one link per recipient" mode (issue 35 item 1): GET /batch, the form; POST
 * /batch, a thin adapter over the batch service (the API's own), answering the result page with
 * the CSV of links; GET /dashboard/batch/:id, all rows of one of the sender's batches. For
 * signed-in senders only, as the API.
 */
export function batchPageRoutes(config: Config, batches: BatchService, pushes: PushService, accounts: AccountService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const session = pageSession(accounts);
  app.onError((error, c) => pageErrorResponse(c, error));

  const signInFirst = (c: Context<AppEnv>) => c.redirect('/users/sign_in?return_to=%2Fbatch', 303);

  const form = (c: Context<AppEnv>, status: 200 | 400 | 401 | 413 | 422 | 429 | 507, values: BatchFormValues, errors?: Record<string, string[]>, formError?: string) =>
    sendPage(
      c,
      status,
      'title.batch',
      <BatchPage limits={pushes.pushLimits()} values={values} errors={errors} formError={formError} csrfToken={getPageSession(c).csrfToken} mail={config.mail !== undefined} maxRows={MAX_BATCH_ROWS} />,
      { scripts: ['local-time.js'] },
    );

  app.get('/batch', session, (c) => {
    if (!getPageSession(c).user) return signInFirst(c);
    return form(c, 200, defaultBatchValues(pushes.pushLimits()));
  });

  // All rows of one of the caller's batches, page by page (the dashboard card lists the first ones).
  app.get('/dashboard/batch/:batchId', session, async (c) => {
    if (!getPageSession(c).user) return c.redirect(`/users/sign_in?return_to=${encodeURIComponent(c.req.path)}`, 303);
    const rows = await pushes.listBatch(pageActor(c), c.req.param('batchId'));
    // Someone else's batch lists nothing: the same answer as a batch that does not exist.
    if (!rows.length) throw new ServiceError('not_found', 'not-found');
    const page = pushes.parsePage(c.req.query('page'), Math.ceil(MAX_BATCH_ROWS / BATCH_ROWS_PAGE_SIZE));
    return sendPage(c, 200, 'title.batch', <BatchRowsPage rows={rows} page={page} />);
  });

  app.post(
    '/batch',
    bodyLimit({
      maxSize: config.maxJsonBodyBytes,
      onError: (c) => form(c, 413, defaultBatchValues(pushes.pushLimits()), undefined, languageOf(c).t('batch.fixRows')),
    }),
    session,
    async (c) => {
      if (!sameOriginRequest(c)) return csrfRefused(c);
      if (!getPageSession(c).user) return signInFirst(c);
      const body = await c.req.parseBody({ all: true });
      const last = (v: unknown) => (Array.isArray(v) ? v.at(-1) : v);
      const text = (k: string) => {
        const v = last(body[k]);
        return typeof v === 'string' ? v : '';
      };
      if (!verifyPageCsrf(c, accounts, text('csrf_token'))) return csrfRefused(c);
      const options: Record<string, string> = {};
      for (const [key, value] of Object.entries(body)) {
        const m = /^push\[(\w+)\]$/.exec(key);
        const v = last(value);
        if (m && typeof v === 'string' && v !== '') options[m[1]!] = v;
      }
      // The release without scripts: the form's date and time as UTC (as on the create page).
      if (!options.not_before && text('release_at').trim()) options.not_before = `${text('release_at').trim()}Z`;
      const file = last(body.recipients_file);
      const fromFile = file instanceof File && file.size > 0 ? await file.text() : '';
      const values: BatchFormValues = {
        recipients_text: text('recipients_text'),
        expire_after_days: options.expire_after_days ?? '',
        expire_after_views: options.expire_after_views ?? '',
        retrieval_step: options.retrieval_step === 'true',
        deletable_by_viewer: options.deletable_by_viewer === 'true',
        generate: text('generate') === 'true',
        email_links: text('email_links') === 'true',
        release_at: text('release_at'),
      };
      try {
        const result = await batches.create(pageActor(c), {
          push: options,
          recipients_csv: fromFile || values.recipients_text,
          generate: values.generate,
          email_links: values.email_links,
        });
        // The links are in this answer only.
        c.header('Cache-Control', 'no-store');
        return sendPage(c, 200, 'title.batch', <BatchResultPage result={result} csv={batchCsv(result)} />);
      } catch (e) {
        if (e instanceof ServiceError && e.kind === 'validation') return form(c, 422, values, e.fieldErrors);
        if (e instanceof ServiceError && e.retryAfter) c.header('Retry-After', String(e.retryAfter));
        if (e instanceof ServiceError && e.kind !== 'unavailable') {
          const status = e.status === 401 || e.status === 413 || e.status === 429 || e.status === 507 ? e.status : 400;
          return form(c, status, values, undefined, translateServiceMessage(languageOf(c).t, e.message));
        }
        throw e;
      }
    },
  );
  return app;
}
