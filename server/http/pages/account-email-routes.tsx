/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AccountMail, MailContext } from '../../accounts/account-mail.js';
import type { AccountService } from '../../accounts/account-service.js';
import { ServiceError } from '../../service-error.js';
import type { AppEnv } from '../app-env.js';
import { languageOf } from '../middleware/page-language.js';
import { getPageSession, pageSession, safeReturnPath, verifyPageCsrf } from '../middleware/session.js';
import { GivenUpMailsPage } from './mail-history-page.js';
import { mailSettingsRoutes } from './mail-settings-routes.js';
import { ForgotPasswordPage, ResetPasswordPage } from './account-email-pages.js';
import { csrfRefused, readSmallForm } from './page-errors.js';
import { ErrorPage, sendPage } from './render.js';

/** Where a mail's links point and its language: the server's public origin and the page's language. */
export function mailContext(c: Context<AppEnv>): MailContext {
  return { origin: c.get('ctx').baseUrl, locale: languageOf(c).locale };
}

/**
 * "Forgot password", the reset link's page and the confirmation link: adapters over AccountMail.
 * Mounted only when e-mail is set up (SMTP_URL); without it these paths do not exist.
 */
export function accountEmailRoutes(accounts: AccountService, mail: AccountMail): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const session = pageSession(accounts);

  const forgotForm = (c: Context<AppEnv>, status: 200 | 422 | 429, props: { email?: string; sentTo?: string; error?: string; errors?: Record<string, string[]> } = {}) =>
    sendPage(c, status, 'title.forgotPassword', <ForgotPasswordPage csrfToken={getPageSession(c).csrfToken} {...props} />);

  const invalidLink = (c: Context<AppEnv>) => {
    const { t } = languageOf(c);
    return sendPage(
      c,
      404,
      'title.resetPassword',
      <ErrorPage title={t('title.resetPassword')} message={t('account.reset.invalid')}>
        <p>
          <a href="/users/password/forgot">{t('account.forgot.link')}</a>
        </p>
      </ErrorPage>,
    );
  };

  app.get('/users/password/forgot', session, (c) => forgotForm(c, 200));

  app.post('/users/password/forgot', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const email = form.get('email') ?? '';
    try {
      await mail.requestPasswordReset(email, c.get('ctx').client.ip, mailContext(c));
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'validation') return forgotForm(c, 422, { email, errors: e.fieldErrors });
      if (e instanceof ServiceError && e.kind === 'too_many_requests') {
        c.header('Retry-After', String(e.retryAfter ?? 60));
        return forgotForm(c, 429, { email, error: languageOf(c).t('account.resetLimited') });
      }
      throw e;
    }
    // The same page whether or not the address has an account: the e-mail says which.
    return forgotForm(c, 200, { sentTo: accounts.normaliseEmail(email) });
  });

  app.get('/users/password/reset/:token', session, async (c) => {
    const token = c.req.param('token');
    const user = await mail.resetAccount(token);
    if (!user) return invalidLink(c);
    // The link is a credential: no referrer, not cached.
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    return sendPage(c, 200, 'title.resetPassword', <ResetPasswordPage csrfToken={getPageSession(c).csrfToken} token={token} email={user.email} />);
  });

  app.post('/users/password/reset/:token', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const token = c.req.param('token');
    try {
      await mail.resetPassword(token, form.get('password') ?? '', mailContext(c));
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'validation') {
        const user = await mail.resetAccount(token);
        if (!user) return invalidLink(c);
        return sendPage(c, 422, 'title.resetPassword', <ResetPasswordPage csrfToken={getPageSession(c).csrfToken} token={token} email={user.email} errors={e.fieldErrors} />);
      }
      if (e instanceof ServiceError && e.kind === 'not_found') return invalidLink(c);
      throw e;
    }
    return c.redirect('/users/sign_in?reset=1', 303);
  });

  app.get('/users/confirm/:token', session, async (c) => {
    const { t } = languageOf(c);
    const user = await mail.confirmEmail(c.req.param('token'));
    if (!user) return sendPage(c, 404, 'title.emailConfirmed', <ErrorPage title={t('title.emailConfirmed')} message={t('account.confirm.invalid')} />);
    return sendPage(
      c,
      200,
      'title.emailConfirmed',
      <ErrorPage title={t('title.emailConfirmed')} message={t('account.confirm.done', { email: user.email })}>
        <p>
          <a href="/users/sign_in">{t('account.signIn.button')}</a>
        </p>
      </ErrorPage>,
    );
  });

  // The account's given-up mails (to whom, which kind, when, the SMTP reply; never a body).
  app.get('/users/mails', session, async (c) => {
    const user = getPageSession(c).user;
    if (!user) return c.redirect(`/users/sign_in?return_to=${encodeURIComponent(safeReturnPath('/users/mails') ?? '/')}`, 303);
    return sendPage(c, 200, 'title.mails', <GivenUpMailsPage mails={await mail.givenUp(user)} />);
  });

  // The e-mail settings (receipt defaults, address change) and the List-Unsubscribe links.
  app.route('/', mailSettingsRoutes(accounts, mail));

  return app;
}
