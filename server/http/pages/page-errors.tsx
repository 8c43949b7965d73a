/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from '../../logger.js';
import { ServiceError } from '../../service-error.js';
import { StorageUnavailableError } from '../../storage/store.js';
import type { AppEnv } from '../app-env.js';
import { readBodyText } from '../request-body.js';
import { ErrorPage, sendPage } from './render.js';
import { languageOf } from '../middleware/page-language.js';
import type { MessageKey } from './i18n/messages/en.js';
import { translateServiceMessage } from './i18n/service-messages.js';

/** Any error on a page → a readable HTML page with the right status; never a stack trace. */
export function pageErrorResponse(c: Context<AppEnv>, error: unknown, logger?: Pick<Logger, 'error'>): Response {
  const { t } = languageOf(c);
  if (error instanceof ServiceError) {
    if (error.retryAfter) c.header('Retry-After', String(error.retryAfter));
    const title: MessageKey = error.kind in ERROR_TITLES ? ERROR_TITLES[error.kind as keyof typeof ERROR_TITLES] : 'error.title.other';
    // The service's own sentence is English (it is the API's message too): a known one is shown in the page's language.
    const message = error.kind === 'not_found' ? t('error.notFound') : translateServiceMessage(t, error.message);
    return sendPage(c, error.status as ContentfulStatusCode, title, <ErrorPage title={t(title)} message={message} />);
  }
  if (error instanceof StorageUnavailableError) {
    logger?.error('storage unavailable', error);
    c.header('Retry-After', String(error.retryAfterSeconds));
    return sendPage(c, 503, 'error.title.unavailable', <ErrorPage title={t('error.title.unavailable')} message={t('error.unavailable')} />);
  }
  if (error instanceof HTTPException && error.status < 500) {
    return sendPage(
      c,
      error.status as ContentfulStatusCode,
      'error.refused.title',
      <ErrorPage title={t('error.refused.title')} message={error.message ? translateServiceMessage(t, error.message) : t('error.refused.body')} />,
    );
  }
  if (logger) logger.error(`unexpected error on page ${c.req.method}`, error);
  else console.error(`unexpected error on page ${c.req.method}: ${(error as Error)?.name ?? 'Error'}`);
  return sendPage(c, 500, 'error.unexpected.title', <ErrorPage title={t('error.unexpected.title')} message={t('error.unexpected.body')} />);
}

const ERROR_TITLES = {
  bad_request: 'error.title.bad_request',
  unauthorized: 'error.title.unauthorized',
  forbidden: 'error.title.forbidden',
  not_found: 'error.title.not_found',
  validation: 'error.title.validation',
  too_many_requests: 'error.title.too_many_requests',
  payload_too_large: 'error.title.payload_too_large',
  unavailable: 'error.title.unavailable',
} as const satisfies Record<string, MessageKey>;

/** The CSRF refusal page: a POST form whose token or origin did not match. */
export function csrfRefused(c: Context<AppEnv>): Response {
  const { t } = languageOf(c);
  return sendPage(c, 403, 'title.formExpired', <ErrorPage title={t('error.csrf.title')} message={t('error.csrf.body')} />);
}

/** Reads a small form-encoded POST body; other encodings are refused (they are never ours). */
/** Sign-in, token and delete forms are a few short fields. */
const SMALL_FORM_BYTES = 64 * 1024;

export async function readSmallForm(c: Context<AppEnv>): Promise<URLSearchParams> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new ServiceError('bad_request', 'This form must be sent as application/x-www-form-urlencoded.');
  }
  return new URLSearchParams(await readBodyText(c, SMALL_FORM_BYTES));
}
