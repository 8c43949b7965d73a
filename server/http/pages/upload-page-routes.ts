import { Hono, type MiddlewareHandler } from 'hono';
import type { AccountService } from '../../accounts/account-service.js';
import { createLogger, type Logger } from '../../logger.js';
import type { SlicedUploads } from '../../pushes/sliced-upload.js';
import { ServiceError } from '../../service-error.js';
import type { AppEnv } from '../app-env.js';
import { pageActor, pageSession, verifyPageCsrf } from '../middleware/session.js';
import { errorResponse } from '../rest/error-response.js';
import { uploadRoutes } from '../rest/upload-routes.js';

/** The header the create page's script sends its form's CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';

/**
 * Sliced uploads for the create page (browser/e2e-create.ts) at /uploads: the API's routes with
 * the page's session in place of API credentials, and its CSRF token in a header. The script
 * fetches them (it never shows their answers), so errors are JSON, as the API's; the push is
 * then created by the create form itself (create-routes.tsx, `push[sliced_upload]`).
 */
export function uploadPageRoutes(uploads: SlicedUploads, accounts: AccountService, maxFieldBytes: number, logger: Logger = createLogger('error')): Hono<AppEnv> {
  const csrf: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!verifyPageCsrf(c, accounts, c.req.header(CSRF_HEADER))) {
      throw new ServiceError('forbidden', "This upload did not come from this site's create page (its CSRF token is missing or stale): reload the page.");
    }
    await next();
  };
  const app = new Hono<AppEnv>();
  app.onError((error, c) => errorResponse(c, error, logger));
  app.route('/uploads', uploadRoutes(uploads, { guard: [pageSession(accounts), csrf], actor: pageActor }, maxFieldBytes));
  return app;
}
