/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AccountMail } from '../../accounts/account-mail.js';
import type { AccountService } from '../../accounts/account-service.js';
import type { ReceiptDefaults, User } from '../../accounts/user.js';
import { ServiceError } from '../../service-error.js';
import type { AppEnv } from '../app-env.js';
import { languageOf } from '../middleware/page-language.js';
import { getPageSession, pageSession, safeReturnPath, verifyPageCsrf } from '../middleware/session.js';
import { mailContext } from './account-email-routes.js';
import { MailSettingsPage, UnsubscribePage } from './mail-settings-page.js';
import { csrfRefused, readSmallForm } from './page-errors.js';
import { ErrorPage, sendPage } from './render.js';

const NO_DEFAULTS: ReceiptDefaults = { opened: false, expiredUnopened: false, requestAnswered: false };

/**
 * The account's e-mail settings (/users/mail-settings: receipt defaults, changing the address),
 * the address change's link, and the List-Unsubscribe link of optional mails: adapters over
 * AccountService, AccountMail and its EmailChange. Mounted with the other e-mail pages, only when
 * SMTP_URL is set.
 */
export function mailSettingsRoutes(accounts: AccountService, mail: AccountMail): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const session = pageSession(accounts);

  const signInFirst = (c: Context<AppEnv>) => c.redirect(`/users/sign_in?return_to=${encodeURIComponent(safeReturnPath('/users/mail-settings') ?? '/')}`, 303);

  const settingsPage = (
    c: Context<AppEnv>,
    user: User,
    status: 200 | 401 | 422 | 429,
    extra: { defaults?: ReceiptDefaults; notice?: { kind: 'ok' | 'error'; text: string }; errors?: Record<string, string[]>; newEmail?: string } = {},
  ) =>
    sendPage(
      c,
      status,
      'title.mailSettings',
      <MailSettingsPage csrfToken={getPageSession(c).csrfToken} email={user.email} defaults={extra.defaults ?? user.receiptDefaults ?? NO_DEFAULTS} notice={extra.notice} errors={extra.errors} newEmail={extra.newEmail} />,
    );

  app.get('/users/mail-settings', session, (c) => {
    const user = getPageSession(c).user;
    if (!user) return signInFirst(c);
    return settingsPage(c, user, 200);
  });

  app.post('/users/mail-settings', session, async (c) => {
    const user = getPageSession(c).user;
    if (!user) return signInFirst(c);
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    // Checkboxes: an unchecked one is not sent, so absent means off.
    const defaults: ReceiptDefaults = { opened: form.get('opened') === 'true', expiredUnopened: form.get('expired_unopened') === 'true', requestAnswered: form.get('request_answered') === 'true' };
    await accounts.setReceiptDefaults(user, defaults);
    return settingsPage(c, user, 200, { defaults, notice: { kind: 'ok', text: languageOf(c).t('mailSettings.saved') } });
  });

  app.post('/users/email', session, async (c) => {
    const user = getPageSession(c).user;
    if (!user) return signInFirst(c);
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const typed = form.get('email') ?? '';
    try {
      const sentTo = await mail.emailChange.request(user, typed, form.get('current_password') ?? '', c.get('ctx').client.ip, mailContext(c));
      // The same answer whether or not the new address has an account: the e-mail there says which.
      return settingsPage(c, user, 200, { notice: { kind: 'ok', text: languageOf(c).t('mailSettings.linkSent', { email: sentTo }) } });
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'validation') return settingsPage(c, user, 422, { errors: e.fieldErrors, newEmail: typed });
      if (e instanceof ServiceError && e.kind === 'too_many_requests') {
        c.header('Retry-After', String(e.retryAfter ?? 60));
        return settingsPage(c, user, 429, { notice: { kind: 'error', text: languageOf(c).t('mailSettings.limited') }, newEmail: typed });
      }
      if (e instanceof ServiceError && e.kind === 'forbidden') return settingsPage(c, user, 422, { errors: { email: [e.message] }, newEmail: typed });
      throw e;
    }
  });

  app.get('/users/email/confirm/:token', session, async (c) => {
    const { t } = languageOf(c);
    // The link is a credential: no referrer, not cached.
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    const user = await mail.emailChange.confirm(c.req.param('token'), mailContext(c));
    if (!user) return sendPage(c, 404, 'title.emailChanged', <ErrorPage title={t('title.emailChanged')} message={t('emailChange.invalid')} />);
    return sendPage(c, 200, 'title.emailChanged', <ErrorPage title={t('title.emailChanged')} message={t('emailChange.done', { email: user.email })} />);
  });

  const invalidUnsubscribe = (c: Context<AppEnv>) => {
    const { t } = languageOf(c);
    return sendPage(c, 404, 'title.unsubscribe', <ErrorPage title={t('title.unsubscribe')} message={t('unsubscribe.invalid')} />);
  };

  // Opened in a browser: a button, since mail scanners open links; the change is the POST.
  app.get('/mail/unsubscribe/:token', session, (c) => {
    const token = c.req.param('token');
    const kind = mail.unsubscribeKind(token);
    if (!kind) return invalidUnsubscribe(c);
    c.header('Referrer-Policy', 'no-referrer');
    return sendPage(c, 200, 'title.unsubscribe', <UnsubscribePage token={token} kind={kind} done={false} />);
  });

  // RFC 8058 one-click (the mail program POSTs `List-Unsubscribe=One-Click`, with no cookie) and
  // the page's button alike. No CSRF token: the signed link is the authority, it can only turn a
  // receipt off, and a mail provider's POST comes from another site by design.
  app.post('/mail/unsubscribe/:token', session, async (c) => {
    const kind = await mail.unsubscribe(c.req.param('token'));
    if (!kind) return invalidUnsubscribe(c);
    c.header('Referrer-Policy', 'no-referrer');
    return sendPage(c, 200, 'title.unsubscribe', <UnsubscribePage token={c.req.param('token')} kind={kind} done={true} />);
  });

  return app;
}
