/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { Hono } from 'hono';
import type { AccountService } from '../../accounts/account-service.js';
import type { PushService } from '../../pushes/push-service.js';
import type { AppEnv } from '../app-env.js';
import { getPageSession, pageActor, pageSession } from '../middleware/session.js';
import { rejectBadCredentials, urlToken } from '../rest/api-guards.js';
import { ServiceError } from '../../service-error.js';
import { ExpireConfirmPage, PreviewPage } from './preview-page.js';
import { EmailLinkForm } from './email-link/email-link-form.js';
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
    const token = urlToken(c.req.param('token'));
    const push = await pushes.previewRecord(actor, token);
    const owner = !push.expired && (await pushes.ownedBy(actor, token));
    // An end-to-end push's key is not here (nor in its link on this page): it is e-mailed from the page that made it.
    const emailLink = owner && !push.end_to_end && pushes.pushLimits().email_links && getPageSession(c).user;
    return sendPage(
      c,
      200,
      'title.previewLink',
      <PreviewPage push={push} expireLink={owner ? `/p/${token}/expire?from=preview` : undefined} emailLink={emailLink ? <EmailLinkForm urlToken={token} csrfToken={getPageSession(c).csrfToken} endToEnd={false} /> : undefined} />,
      { scripts: emailLink ? ['email-link.js'] : [] },
    );
  });

  /**
   * "Expire now", confirmed: its owner's page asking before the push's link stops working. The
   * form posts to the recipient's delete route (/p/<token>/delete), the push service's one expire
   * rule, which comes back here (`return_to`) instead of the recipient's "deleted" page.
   */
  app.get('/p/:token/expire', pageSession(accounts), async (c) => {
    const session = getPageSession(c);
    if (!session.user) return c.redirect(`/users/sign_in?return_to=${encodeURIComponent(new URL(c.req.url).pathname + new URL(c.req.url).search)}`, 303);
    const token = urlToken(c.req.param('token'));
    if (!(await pushes.ownedBy(pageActor(c), token))) throw new ServiceError('forbidden', "That push doesn't belong to you.");
    const fromPreview = c.req.query('from') === 'preview';
    return sendPage(
      c,
      200,
      'title.expireNow',
      <ExpireConfirmPage
        token={token}
        csrfToken={session.csrfToken}
        back={fromPreview ? `/p/${token}/preview` : '/dashboard'}
        done={fromPreview ? `/p/${token}/preview` : '/dashboard?state=expired&expired_now=1'}
      />,
    );
  });

  return app;
}
