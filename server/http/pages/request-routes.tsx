/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { Hono, type Context } from 'hono';
import type { AccountService } from '../../accounts/account-service.js';
import type { Config } from '../../config.js';
import type { RequestService } from '../../requests/request-service.js';
import type { PushService } from '../../pushes/push-service.js';
import { readCreateRequest } from '../rest/push-request-body.js';
import { ServiceError } from '../../service-error.js';
import type { OwnerRequest } from '../../../shared/request-schema.js';
import type { AppEnv } from '../app-env.js';
import { getPageSession, pageActor, pageSession, safeReturnPath, sameOriginRequest, verifyPageCsrf } from '../middleware/session.js';
import { urlToken } from '../rest/api-guards.js';
import { csrfRefused, readSmallForm } from './page-errors.js';
import { sendPage } from './render.js';
import { AnswerPage, AnswerSentPage, defaultRequestValues, RequestClosedPage, RequestsPage, type RequestFormValues } from './request-pages.js';
import { languageOf } from '../middleware/page-language.js';
import { translateServiceMessage } from './i18n/service-messages.js';

/** The requester's page (/users/requests) and the request link's page (/req/:token): adapters over the request service. */
export function requestPageRoutes(config: Config, accounts: AccountService, requests: RequestService, pushes: PushService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const session = pageSession(accounts);
  const signInFirst = (c: Context<AppEnv>) => c.redirect(`/users/sign_in?return_to=${encodeURIComponent(safeReturnPath('/users/requests') ?? '/')}`, 303);

  const listPage = async (c: Context<AppEnv>, status: 200 | 422, values: RequestFormValues, extra: { errors?: Record<string, string[]>; made?: OwnerRequest } = {}) =>
    sendPage(
      c,
      status,
      'title.requests',
      <RequestsPage requests={await requests.list(pageActor(c))} limits={config.limits} values={values} csrfToken={getPageSession(c).csrfToken} mailReceipts={config.mail !== undefined} {...extra} />,
    );

  // The box starts as the account's default says; once shown, the form says yes or no itself.
  const freshValues = (c: Context<AppEnv>) => defaultRequestValues(config.limits, config.mail !== undefined && Boolean(getPageSession(c).user?.receiptDefaults?.requestAnswered));

  app.get('/users/requests', session, async (c) => {
    if (!getPageSession(c).user) return signInFirst(c);
    return listPage(c, 200, freshValues(c));
  });

  app.post('/users/requests', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    if (!getPageSession(c).user) return signInFirst(c);
    const values: RequestFormValues = {
      title: form.get('title') ?? '',
      message: form.get('message') ?? '',
      expire_after_days: form.get('expire_after_days') ?? '',
      answer_expire_after_days: form.get('answer_expire_after_days') ?? '',
      answer_expire_after_views: form.get('answer_expire_after_views') ?? '',
      email_on_answer: form.get('email_on_answer') === 'true',
    };
    try {
      // The box is shown only with e-mail set up: unchecked, not sent, means no (not the account's default).
      const { email_on_answer, ...fields } = values;
      const made = await requests.create(pageActor(c), config.mail !== undefined ? { ...fields, email_on_answer } : fields);
      return listPage(c, 200, freshValues(c), { made });
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'validation') return listPage(c, 422, values, { errors: e.fieldErrors });
      throw e;
    }
  });

  app.post('/users/requests/close', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    if (!getPageSession(c).user) return signInFirst(c);
    await requests.close(pageActor(c), urlToken(form.get('token') ?? ''));
    return c.redirect('/users/requests', 303);
  });

  const maxFiles = config.features.filePushes ? config.limits.maxFilesPerPush : 0;
  const closed = (c: Context<AppEnv>) => sendPage(c, 404, 'title.requestClosed', <RequestClosedPage />);
  const notFound = (e: unknown) => e instanceof ServiceError && e.kind === 'not_found';

  app.get('/req/:token', session, async (c) => {
    const token = c.req.param('token');
    try {
      const request = await requests.show(urlToken(token));
      return sendPage(c, 200, 'title.answerRequest', <AnswerPage token={token} request={request} csrfToken={getPageSession(c).csrfToken} maxFiles={maxFiles} />);
    } catch (e) {
      if (notFound(e)) return closed(c);
      throw e;
    }
  });

  // Multipart (the form may carry files); refused before anything is read when cross-site or closed.
  app.post('/req/:token', session, async (c) => {
    if (!sameOriginRequest(c)) return csrfRefused(c);
    const token = c.req.param('token');
    let payload = '';
    try {
      await requests.show(urlToken(token));
      const actor = pageActor(c);
      const { params, upload } = await readCreateRequest(c, pushes, actor, config.limits.maxFileBytes, {
        maxFieldBytes: config.maxJsonBodyBytes,
        openUpload: () => pushes.openSentFileUpload(),
      });
      if (!verifyPageCsrf(c, accounts, params.csrf_token)) {
        await upload?.discard();
        return csrfRefused(c);
      }
      payload = typeof params.payload === 'string' ? params.payload : '';
      await requests.answer(actor, urlToken(token), { payload }, upload);
      return sendPage(c, 200, 'title.answerSent', <AnswerSentPage />);
    } catch (e) {
      if (notFound(e)) return closed(c);
      if (e instanceof ServiceError && e.kind === 'validation') {
        const request = await requests.show(urlToken(token));
        return sendPage(
          c,
          e.status === 413 ? 413 : 422,
          'title.answerRequest',
          <AnswerPage token={token} request={request} csrfToken={getPageSession(c).csrfToken} errors={e.fieldErrors} payload={payload} maxFiles={maxFiles} />,
        );
      }
      if (e instanceof ServiceError && e.status === 413) {
        const request = await requests.show(urlToken(token));
        return sendPage(c, 413, 'title.answerRequest', <AnswerPage token={token} request={request} csrfToken={getPageSession(c).csrfToken} formError={translateServiceMessage(languageOf(c).t, e.message)} maxFiles={maxFiles} />);
      }
      throw e;
    }
  });

  return app;
}
