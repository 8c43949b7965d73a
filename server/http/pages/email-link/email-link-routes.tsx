/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AccountService } from '../../../accounts/account-service.js';
import { parseNotifyEmails } from '../../../mail/recipient-link.js';
import type { PushService } from '../../../pushes/push-service.js';
import { ServiceError } from '../../../service-error.js';
import type { AppEnv } from '../../app-env.js';
import { languageOf } from '../../middleware/page-language.js';
import { getPageSession, pageActor, pageSession, verifyPageCsrf } from '../../middleware/session.js';
import { urlToken } from '../../rest/api-guards.js';
import { translateServiceMessage } from '../i18n/service-messages.js';
import { csrfRefused, readSmallForm } from '../page-errors.js';
import { PreviewPage } from '../preview-page.js';
import { sendPage } from '../render.js';
import { EmailLinkClosed, EmailLinkForm, noEmailLinkValues, type EmailLinkFormProps } from './email-link-form.js';

/**
 * `POST /p/<token>/email`: "E-mail the link…" of the page after creating and of the owner's
 * page (/p/<token>/preview). An adapter over PushService.emailLink, which holds the rules (the
 * owner's active push, up to 5 addresses, the daily limits per account and per address). The
 * answer is the owner's page with the form's outcome; the end-to-end page's script takes only
 * the form's part of it (browser/email-link.ts), since its link's key is not on the server.
 */
export function emailLinkRoutes(pushes: PushService, accounts: AccountService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/p/:token/email', pageSession(accounts), async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const token = urlToken(c.req.param('token'));
    if (!getPageSession(c).user) return c.redirect(`/users/sign_in?return_to=${encodeURIComponent(`/p/${token}/preview`)}`, 303);
    const values = { notify_emails: form.get('notify_emails') ?? '', notify_note: form.get('notify_note') ?? '' };
    const actor = pageActor(c);
    let status: 200 | 422 | 429 = 200;
    let outcome: Partial<EmailLinkFormProps>;
    try {
      await pushes.emailLink(actor, { url_token: token, notify_emails: values.notify_emails, notify_note: values.notify_note || undefined, link_key: form.get('link_key') || undefined });
      outcome = { sent: parseNotifyEmails(values.notify_emails), values: noEmailLinkValues, open: true };
    } catch (e) {
      if (!(e instanceof ServiceError)) throw e;
      if (e.kind === 'validation') {
        status = 422;
        outcome = { values, errors: e.fieldErrors ?? { notify_emails: [e.message] } };
      } else if (e.kind === 'too_many_requests') {
        status = 429;
        if (e.retryAfter) c.header('Retry-After', String(e.retryAfter));
        outcome = { values, formError: translateServiceMessage(languageOf(c).t, e.message) };
      } else throw e;
    }
    return ownerPage(c, pushes, token, status, outcome);
  });

  return app;
}

/** The owner's page of the push with the e-mail form in the state given. */
async function ownerPage(c: Context<AppEnv>, pushes: PushService, token: string, status: 200 | 422 | 429, outcome: Partial<EmailLinkFormProps>) {
  const actor = pageActor(c);
  const push = await pushes.previewRecord(actor, token);
  // Expired or deleted since the page was opened: no form; the post is answered with the refusal.
  const form = push.expired ? <EmailLinkClosed /> : <EmailLinkForm urlToken={token} csrfToken={getPageSession(c).csrfToken} endToEnd={Boolean(push.end_to_end)} {...outcome} />;
  return sendPage(c, status, 'title.previewLink', <PreviewPage push={push} expireLink={push.expired ? undefined : `/p/${token}/expire?from=preview`} emailLink={form} />, { scripts: ['email-link.js'] });
}
