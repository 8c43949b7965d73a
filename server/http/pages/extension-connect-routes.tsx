/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AccountService } from '../../accounts/account-service.js';
import { ConnectRequestError, type ConnectRequest, type ExtensionConnectService } from '../../accounts/extension-connect/connect-service.js';
import type { AppEnv } from '../app-env.js';
import { languageOf } from '../middleware/page-language.js';
import { getPageSession, pageSession, safeReturnPath, verifyPageCsrf } from '../middleware/session.js';
import { policyWithFormAction } from '../middleware/security-headers.js';
import { ExtensionConnectPage } from './extension-connect-page.js';
import { csrfRefused, readSmallForm } from './page-errors.js';
import { ErrorPage, sendPage } from './render.js';

/**
 * GET /extension/connect: the page the extension's launchWebAuthFlow window opens (sign-in
 * first when needed, then "Allow the Secret Push extension to push as you?"); POST: the user's
 * answer, which sends the window to the extension's redirect URI with a one-time code (or
 * access_denied). The rules are in accounts/extension-connect/.
 */
export function extensionConnectRoutes(accounts: AccountService, connect: ExtensionConnectService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const session = pageSession(accounts);

  /** A request that cannot be answered is shown, never sent on: its redirect URI is not to be trusted. */
  const checked = (c: Context<AppEnv>, fields: Record<string, unknown>): ConnectRequest | Response => {
    try {
      return connect.checkRequest(fields);
    } catch (e) {
      if (!(e instanceof ConnectRequestError)) throw e;
      return sendPage(c, 400, 'title.connectExtension', <ErrorPage title={languageOf(c).t('connect.invalidHeading')} message={e.message} />);
    }
  };

  app.get('/extension/connect', session, async (c) => {
    const request = checked(c, c.req.query());
    if (request instanceof Response) return request;
    const { user, csrfToken } = getPageSession(c);
    if (!user) {
      const back = safeReturnPath(new URL(c.req.url).pathname + new URL(c.req.url).search) ?? '/';
      return c.redirect(`/users/sign_in?return_to=${encodeURIComponent(back)}`, 303);
    }
    const { t } = languageOf(c);
    const label = t('connect.tokenLabel', { browser: request.redirect.browser, date: new Date().toISOString().slice(0, 10) });
    // The answer's redirect goes to the extension's address: the form may be sent on there.
    c.header('Content-Security-Policy', await policyWithFormAction(new URL(request.redirect.uri).origin));
    return sendPage(c, 200, 'title.connectExtension', <ExtensionConnectPage request={request} email={user.email} label={label} csrfToken={csrfToken} />);
  });

  app.post('/extension/connect', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const request = checked(c, Object.fromEntries(form));
    if (request instanceof Response) return request;
    const { user } = getPageSession(c);
    if (!user) return c.redirect(`/users/sign_in`, 303);
    if (form.get('decision') !== 'allow') return c.redirect(connect.deny(request), 303);
    const { t } = languageOf(c);
    const label = t('connect.tokenLabel', { browser: request.redirect.browser, date: new Date().toISOString().slice(0, 10) });
    return c.redirect(await connect.approve(user, request, label), 303);
  });

  return app;
}
