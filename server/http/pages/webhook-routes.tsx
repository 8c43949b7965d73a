/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { Hono, type Context } from 'hono';
import type { AccountService } from '../../accounts/account-service.js';
import { ServiceError } from '../../service-error.js';
import type { WebhookService } from '../../webhooks/webhook-service.js';
import type { AppEnv } from '../app-env.js';
import { languageOf } from '../middleware/page-language.js';
import { getPageSession, pageActor, pageSession, safeReturnPath, verifyPageCsrf } from '../middleware/session.js';
import { csrfRefused, readSmallForm } from './page-errors.js';
import { sendPage } from './render.js';
import { WebhookMadePage, WebhooksPage } from './webhook-page.js';

/** The account's webhooks page (/users/webhooks): an adapter over the webhook service. */
export function webhookPageRoutes(accounts: AccountService, webhooks: WebhookService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const session = pageSession(accounts);
  const signInFirst = (c: Context<AppEnv>) => c.redirect(`/users/sign_in?return_to=${encodeURIComponent(safeReturnPath('/users/webhooks') ?? '/')}`, 303);

  const page = async (c: Context<AppEnv>, status: 200 | 422, extra: { notice?: string; errors?: Record<string, string[]>; url?: string } = {}) =>
    sendPage(c, status, 'title.webhooks', <WebhooksPage hooks={await webhooks.list(pageActor(c))} csrfToken={getPageSession(c).csrfToken} {...extra} />);

  app.get('/users/webhooks', session, async (c) => {
    if (!getPageSession(c).user) return signInFirst(c);
    return page(c, 200, c.req.query('removed') === '1' ? { notice: languageOf(c).t('webhooks.removed') } : {});
  });

  app.post('/users/webhooks', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    if (!getPageSession(c).user) return signInFirst(c);
    const url = form.get('url') ?? '';
    try {
      const hook = await webhooks.create(pageActor(c), { url, events: form.getAll('events') });
      return sendPage(c, 200, 'title.webhookMade', <WebhookMadePage hook={hook} />);
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'validation') return page(c, 422, { errors: e.fieldErrors, url });
      throw e;
    }
  });

  app.post('/users/webhooks/remove', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    if (!getPageSession(c).user) return signInFirst(c);
    await webhooks.remove(pageActor(c), form.get('id') ?? '');
    return c.redirect('/users/webhooks?removed=1', 303);
  });

  return app;
}
