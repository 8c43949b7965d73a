/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AccountService } from '../../accounts/account-service.js';
import type { Config } from '../../config.js';
import type { PushService } from '../../pushes/push-service.js';
import type { SlicedUploads } from '../../pushes/sliced-upload.js';
import { ServiceError } from '../../service-error.js';
import type { AppEnv } from '../app-env.js';
import { getPageSession, pageActor, pageSession, sameOriginRequest, verifyPageCsrf } from '../middleware/session.js';
import type { Params } from '../rest/bracket-params.js';
import { readCreateRequest } from '../rest/push-request-body.js';
import { CreatedPage, CreatePage, defaultValues, SignInToCreate, type CreateFormValues, type Kind } from './create-page.js';
import { csrfRefused } from './page-errors.js';
import { sendPage } from './render.js';
import { languageOf } from '../middleware/page-language.js';
import { translateServiceMessage } from './i18n/service-messages.js';
import { EmailLinkForm } from './email-link/email-link-form.js';
import { parseNotifyEmails } from '../../mail/recipient-link.js';
import { followsFromForm } from './linked/follows-form.js';

/** The create page for people without the extension; the push service decides everything. */
export function createRoutes(config: Config, pushes: PushService, uploads: SlicedUploads, accounts: AccountService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const session = pageSession(accounts);

  /** Kinds as the version document announces them; files only where this visitor may attach. */
  const offer = (c: Context<AppEnv>) => {
    const doc = pushes.versionDocument().features;
    const signedIn = getPageSession(c).user !== null;
    const kinds: Kind[] = ['text'];
    const notes: string[] = [];
    if (doc.pushes.url_pushes.enabled) kinds.push('url');
    if (doc.pushes.qr_code_pushes.enabled) kinds.push('qr');
    const files = doc.pushes.file_attachments;
    if (files.enabled && (!files.requires_authentication || signedIn)) kinds.push('file');
    else if (files.enabled) notes.push(languageOf(c).t('create.signInForFiles'));
    return { kinds, notes, signedIn, anonymousAllowed: doc.anonymous_access && !config.features.createRequiresAccount };
  };

  const form = async (c: Context<AppEnv>, status: 200 | 400 | 401 | 403 | 413 | 422 | 429 | 507, values: CreateFormValues, errors?: Record<string, string[]>, formError?: string) => {
    const o = offer(c);
    const followChoices = o.signedIn ? await pushes.followChoices(pageActor(c)) : undefined;
    return sendPage(
      c,
      status,
      'title.sendSecret',
      <CreatePage
        kinds={o.kinds}
        kindNotes={o.notes}
        limits={pushes.pushLimits()}
        values={values}
        errors={errors}
        formError={formError}
        csrfToken={getPageSession(c).csrfToken}
        signedIn={o.signedIn}
        maxFiles={config.limits.maxFilesPerPush}
        mailReceipts={config.mail !== undefined}
        receiptDefaults={getPageSession(c).user?.receiptDefaults}
        mailLinks={pushes.pushLimits().email_links}
        followChoices={followChoices}
      />,
      { scripts: ['create.js', 'e2e-create.js', 'local-time.js'] },
    );
  };

  app.get('/', session, (c) => {
    const o = offer(c);
    if (!o.anonymousAllowed && !o.signedIn) return sendPage(c, 200, 'title.signIn', <SignInToCreate />);
    return form(c, 200, defaultValues(pushes.pushLimits()));
  });

  app.post('/', session, async (c) => {
    // Refuse a cross-site post before reading (and storing) any uploaded byte.
    if (!sameOriginRequest(c)) return csrfRefused(c);
    const actor = pageActor(c);
    let request;
    try {
      request = await readCreateRequest(c, pushes, actor, config.limits.maxFileBytes, { maxFieldBytes: config.maxJsonBodyBytes });
    } catch (e) {
      if (e instanceof ServiceError && e.kind !== 'unavailable') {
        return form(c, statusOf(e), defaultValues(pushes.pushLimits()), undefined, translateServiceMessage(languageOf(c).t, e.message));
      }
      throw e;
    }
    const { params, upload } = request;
    if (!verifyPageCsrf(c, accounts, params.csrf_token)) {
      await upload?.discard();
      return csrfRefused(c);
    }
    const input = params.push && typeof params.push === 'object' && !Array.isArray(params.push) ? params.push : ({} as Params);
    const values = { ...valuesFrom(input, pushes, params.release_at), ...followsFromForm(input, params) };
    // The page shows the receipt boxes (checked as the account's defaults say): unchecked, not sent, means no.
    if (actor.user && config.mail !== undefined) {
      input.email_on_open ??= 'false';
      input.email_on_expired_unopened ??= 'false';
    }
    releaseFromForm(input, params.release_at);
    try {
      // The script sent the files' envelopes as a sliced upload (browser/e2e-create.ts, upload-page-routes.ts): this creates its push.
      const sliced = typeof input.sliced_upload === 'string' ? input.sliced_upload : undefined;
      if (sliced !== undefined) await upload?.discard();
      const push = sliced !== undefined ? await uploads.finish(actor, sliced) : await pushes.create(actor, input, upload);
      // An end-to-end push's link is completed with its key by the script that encrypted it.
      const emailLink = getPageSession(c).user && pushes.pushLimits().email_links ? <EmailLinkForm urlToken={push.url_token} csrfToken={getPageSession(c).csrfToken} endToEnd={Boolean(push.end_to_end)} sent={sentTo(input)} /> : undefined;
      const followed = push.follows ? (await pushes.followedRecords(actor, [push])).get(push.follows) : undefined;
      return sendPage(c, 200, 'title.linkReady', <CreatedPage push={push} emailLink={emailLink} followed={followed} />, { scripts: [...(push.end_to_end ? ['e2e-create.js'] : []), ...(emailLink ? ['email-link.js'] : [])] });
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'validation') return form(c, 422, values, e.fieldErrors);
      if (e instanceof ServiceError && e.retryAfter) c.header('Retry-After', String(e.retryAfter));
      if (e instanceof ServiceError && e.kind !== 'unavailable') return form(c, statusOf(e), values, undefined, translateServiceMessage(languageOf(c).t, e.message));
      throw e;
    }
  });

  return app;
}

/**
 * The release time without scripts: local-time.js fills push[not_before] with the moment the
 * sender's local time means; when it did not run, the form's date and time is read as UTC (the
 * form's hint says so). A malformed value reaches the service, which refuses it on not_before.
 */
function releaseFromForm(input: Params, releaseAt: unknown): void {
  const given = typeof input.not_before === 'string' && input.not_before.trim() !== '';
  if (!given && typeof releaseAt === 'string' && releaseAt.trim() !== '') input.not_before = `${releaseAt.trim()}Z`;
}

/** The addresses a create's notify_emails e-mailed (the service accepted them: the push exists). */
function sentTo(input: Params): string[] | undefined {
  return typeof input.notify_emails === 'string' && input.notify_emails.trim() !== '' ? parseNotifyEmails(input.notify_emails) : undefined;
}

function statusOf(e: ServiceError): 400 | 401 | 403 | 413 | 422 | 429 | 507 {
  return e.status === 401 || e.status === 403 || e.status === 413 || e.status === 422 || e.status === 429 || e.status === 507 ? e.status : 400;
}

/** The submitted values, to show the form again after a validation error. */
function valuesFrom(input: Params, pushes: PushService, releaseAt: Params[string] | undefined): CreateFormValues {
  const text = (k: string) => (typeof input[k] === 'string' ? (input[k] as string) : '');
  const flag = (k: string, fallback: boolean) => (typeof input[k] === 'string' ? input[k] === 'true' : fallback);
  const limits = pushes.pushLimits();
  const kind = text('kind');
  return {
    kind: kind === 'url' || kind === 'qr' || kind === 'file' ? kind : 'text',
    // An end-to-end payload is ciphertext: never shown back (its key is gone with the page).
    payload: text('end_to_end') === 'true' ? '' : text('payload'),
    expire_after_days: text('expire_after_days'),
    expire_after_views: text('expire_after_views'),
    retrieval_step: flag('retrieval_step', limits.retrieval_step),
    deletable_by_viewer: flag('deletable_by_viewer', limits.deletable_by_viewer),
    max_failed_passphrase_attempts: text('max_failed_passphrase_attempts'),
    name: text('name'),
    note: text('note'),
    release_at: typeof releaseAt === 'string' ? releaseAt : '',
    expire_from_release: flag('expire_from_release', false),
    notify_emails: text('notify_emails'),
    notify_note: text('notify_note'),
    // Linked secrets: filled by followsFromForm.
    follows: '',
    follows_link: '',
    follows_until_at: '',
  };
}
