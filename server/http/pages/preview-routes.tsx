/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { Hono } from 'hono';
import type { AccountService } from '../../accounts/account-service.js';
import type { PushService } from '../../pushes/push-service.js';
import type { AppEnv } from '../app-env.js';
import { getPageSession, pageActor, pageSession } from '../middleware/session.js';
import { rejectBadCredentials, urlToken } from '../rest/api-guards.js';
import { PreviewPage } from './preview-page.js';
import { sendPage } from './render.js';

/**
 * `GET /p/<token>/preview`, the page Password Pusher shows a sender after creating a push (the
 * official extension's "Show QR" reads its QR code). Same access as the JSON preview: public
 * unless anonymous access is off, and then the visitor must be signed in (session cookie) or
 * send an API token; a token that finds no account is 401. Unknown tokens are 404.
 */
export function previewRoutes(pushes: PushService, accounts: AccountService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/p/:token/preview', pageSession(accounts), async (c) => {
    const ctx = c.get('ctx');
    rejectBadCredentials(ctx);
    const actor = { ...pageActor(c), user: getPageSession(c).user ?? ctx.user };
    const push = await pushes.previewRecord(actor, urlToken(c.req.param('token')));
    return sendPage(c, 200, 'title.previewLink', <PreviewPage push={push} />);
  });

  return app;
}
