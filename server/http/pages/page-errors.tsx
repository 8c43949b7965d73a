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

/** Any error on a page → a readable HTML page with the right status; never a stack trace. */
export function pageErrorResponse(c: Context<AppEnv>, error: unknown, logger?: Pick<Logger, 'error'>): Response {
  if (error instanceof ServiceError) {
    if (error.retryAfter) c.header('Retry-After', String(error.retryAfter));
    const titles: Record<string, string> = {
      bad_request: 'That request could not be understood',
      unauthorized: 'Please sign in',
      forbidden: 'Not allowed',
      not_found: 'Not found',
      validation: 'Please check the form',
      too_many_requests: 'Too many attempts',
      payload_too_large: 'That is too large',
      unavailable: 'Temporarily unavailable',
      insufficient_storage: 'Storage is full',
    };
    if (error.retryAfter) c.header('Retry-After', String(error.retryAfter));
    const message = error.kind === 'not_found' ? 'There is nothing at this address.' : error.message;
    return sendPage(c, error.status as ContentfulStatusCode, titles[error.kind] ?? 'Error', <ErrorPage title={titles[error.kind] ?? 'Error'} message={message} />);
  }
  if (error instanceof StorageUnavailableError) {
    logger?.error('storage unavailable', error);
    c.header('Retry-After', '30');
    return sendPage(
      c,
      503,
      'Temporarily unavailable',
      <ErrorPage title="Temporarily unavailable" message="The server cannot read or store data right now. Please try again in a minute." />,
    );
  }
  if (error instanceof HTTPException && error.status < 500) {
    return sendPage(c, error.status as ContentfulStatusCode, 'Request refused', <ErrorPage title="Request refused" message={error.message || 'The request was refused.'} />);
  }
  if (logger) logger.error(`unexpected error on page ${c.req.method}`, error);
  else console.error(`unexpected error on page ${c.req.method}: ${(error as Error)?.name ?? 'Error'}`);
  return sendPage(
    c,
    500,
    'Something went wrong',
    <ErrorPage title="Something went wrong" message="The server could not complete this request. Nothing was shown or changed; please try again." />,
  );
}

/** The CSRF refusal page: a POST form whose token or origin did not match. */
export function csrfRefused(c: Context<AppEnv>): Response {
  return sendPage(
    c,
    403,
    'Form expired',
    <ErrorPage
      title="This form has expired"
      message="The form could not be verified (it is too old, cookies are blocked, or it was sent from another site). Go back, reload the page and try again."
    />,
  );
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
