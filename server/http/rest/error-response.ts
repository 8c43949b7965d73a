import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from '../../logger.js';
import { ServiceError } from '../../service-error.js';
import { StorageUnavailableError } from '../../storage/store.js';

/** What every adapter says of an unexpected failure; its details go to the log only. */
export const INTERNAL_ERROR_MESSAGE = 'Internal error. The request was not completed.';

/** Any error → the JSON response a Password Pusher client expects; never a stack trace. */
export function errorResponse(c: Context, error: unknown, logger: Logger): Response {
  if (error instanceof ServiceError) {
    if (error.retryAfter) c.header('Retry-After', String(error.retryAfter));
    return c.json(error.body, error.status as ContentfulStatusCode);
  }
  if (error instanceof StorageUnavailableError) {
    logger.error('storage unavailable', error);
    c.header('Retry-After', String(error.retryAfterSeconds));
    return c.json({ error: `The server cannot store data right now: ${error.message}. Try again later.` }, 503);
  }
  logger.error(`unexpected error on ${c.req.method}`, error);
  return c.json({ error: INTERNAL_ERROR_MESSAGE }, 500);
}
