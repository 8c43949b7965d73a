/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { RetrievedPush } from '../../../shared/push-schema.js';
import type { AccountService } from '../../accounts/account-service.js';
import type { DeleteTicket, PushService } from '../../pushes/push-service.js';
import { URL_TOKEN_PATTERN } from '../../pushes/url-token.js';
import { ServiceError } from '../../service-error.js';
import type { StoredPush } from '../../storage/records.js';
import type { AppEnv } from '../app-env.js';
import { getPageSession, pageActor, pageSession, safeReturnPath, verifyPageCsrf } from '../middleware/session.js';
import { csrfRefused, readSmallForm } from './page-errors.js';
import { DeletedPage, ExpiredPage, PassphrasePage, remainingText, RetrievalStepPage, SecretPage } from './recipient-pages.js';
import { EndToEndSecretPage } from './end-to-end-pages.js';
import { NotYetOpenPage } from './release-pages.js';
import { sendPage } from './render.js';
import { keepOpenedProof } from '../opened-proofs.js';
import { policyWithSameOriginFrames } from '../middleware/security-headers.js';
import { languageOf } from '../middleware/page-language.js';
import { useLanguage } from './i18n/i18n-context.js';

/**
 * What a recipient sees. Every decision (views, passphrase, attempts, expiry, who may delete)
 * is the push service's; these handlers only choose which page to render.
 */
export function recipientRoutes(pushes: PushService, accounts: AccountService): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const session = pageSession(accounts);
  const endToEndPagePolicy = policyWithSameOriginFrames();

  /** Unknown and expired tokens: the same page with the same status. */
  const expiredPage = (c: Context<AppEnv>) => sendPage(c, 404, 'title.linkExpired', <ExpiredPage />);

  /** The push, if the token is well formed and it exists and lives; peek counts no view. */
  const live = async (token: string): Promise<StoredPush | null> => {
    if (!URL_TOKEN_PATTERN.test(token)) return null;
    const push = await pushes.peek(token);
    return push && !push.expiredAt ? push : null;
  };

  /** Someone opened an expired push: let the service record the failed view, show "expired". */
  const expiredView = async (c: Context<AppEnv>, token: string) => {
    if (URL_TOKEN_PATTERN.test(token)) {
      try {
        await pushes.retrieve(pageActor(c), token, undefined);
      } catch {
        // unknown token, or storage trouble: the page is the same either way
      }
    }
    return expiredPage(c);
  };

  /**
   * Scheduled release: before it, anyone but the owner gets the page that says when it opens
   * (425 with Retry-After, like the API), and no view is counted; null once it is open.
   */
  const notYetOpen = (c: Context<AppEnv>, push: StoredPush): Response | Promise<Response> | null => {
    const later = pushes.opensLaterFor(push, pageActor(c));
    if (!later) return null;
    c.header('Retry-After', String(later.retryAfterSeconds));
    return sendPage(c, 425, 'title.notYetOpen', <NotYetOpenPage opensAt={later.opensAt} />, { scripts: ['local-time.js'] });
  };

  /**
   * Linked secrets: a push that follows another, for a recipient whose browser has not opened
   * that one: 425 and a page that says to open the first link first (never which link that is:
   * a recipient who does not have it must not learn it here). No view is counted.
   */
  const waitingForFirst = (c: Context<AppEnv>, push: StoredPush): Response | Promise<Response> | null => {
    const waiting = pushes.waitsForFirst(push, pageActor(c));
    if (!waiting) return null;
    if (waiting.retryAfterSeconds) c.header('Retry-After', String(waiting.retryAfterSeconds));
    return sendPage(c, 425, 'title.opensAfterAnother', <OpensAfterAnotherPage />);
  };

  const showSecret = (c: Context<AppEnv>, token: string, push: StoredPush, rec: RetrievedPush, deleteTicket: DeleteTicket | null) => {
    if (rec.expired || (rec.payload === null && push.kind !== 'file')) return expiredPage(c);
    if (push.kind === 'url') {
      const target = rec.payload ?? '';
      // Never a control character in a Location header (pushes made before they were refused).
      if (!/^https?:\/\//i.test(target) || /[\u0000-\u001f\u007f-\u009f]/.test(target)) return expiredPage(c);
      return c.redirect(target, 303);
    }
    const mayDelete = pushes.mayDelete(push, pageActor(c));
    return sendPage(
      c,
      200,
      'title.yourSecret',
      <SecretPage push={rec} token={token} kind={push.kind} mayDelete={mayDelete} csrfToken={getPageSession(c).csrfToken} deleteTicket={deleteTicket} />,
    );
  };

  const passphraseForm = (c: Context<AppEnv>, token: string, status: 200 | 401 | 429, error?: string) =>
    sendPage(c, status, 'title.passphraseRequired', <PassphrasePage token={token} csrfToken={getPageSession(c).csrfToken} error={error} />);

  // Retrieval step: only a page with a reveal link; no view is counted and nothing is logged.
  app.get('/p/:token/r', session, async (c) => {
    const token = c.req.param('token');
    const push = await live(token);
    if (!push) return expiredPage(c);
    const early = notYetOpen(c, push) ?? waitingForFirst(c, push);
    if (early) return early;
    // An end-to-end push's script checks the link's key before the recipient can reveal.
    const endToEnd = push.endToEnd === true;
    return sendPage(c, 200, 'title.revealSecret', <RetrievalStepPage token={token} endToEnd={endToEnd} />, { scripts: endToEnd ? ['e2e-recipient.js'] : [] });
  });

  app.get('/p/:token', session, async (c) => {
    const token = c.req.param('token');
    const push = await live(token);
    if (!push) return expiredView(c, token);
    const early = notYetOpen(c, push) ?? waitingForFirst(c, push);
    if (early) return early;
    // End-to-end: the page counts no view; its script opens the push once the key is well formed.
    if (push.endToEnd) {
      const page = (
        <EndToEndSecretPage token={token} csrfToken={getPageSession(c).csrfToken} mayDelete={pushes.mayDelete(push, pageActor(c))} passphraseFirst={push.hasPassphrase} />
      );
      c.header('Content-Security-Policy', await endToEndPagePolicy);
      return sendPage(c, 200, 'title.yourSecret', page, { scripts: ['e2e-recipient.js'] });
    }
    if (push.hasPassphrase) return passphraseForm(c, token, 200);
    // Hono answers HEAD with the GET handler: a HEAD (link checkers do them) must not count a view.
    if (c.req.method === 'HEAD') return c.body(null, 200, { 'Content-Type': 'text/html; charset=utf-8' });
    const { push: rec, openedProof } = await pushes.retrieveWithProof(pageActor(c), token, undefined);
    keepOpenedProof(c, openedProof);
    return showSecret(c, token, push, rec, null);
  });

  app.post('/p/:token', session, async (c) => {
    const token = c.req.param('token');
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const push = await live(token);
    if (!push) return expiredView(c, token);
    const early = notYetOpen(c, push) ?? waitingForFirst(c, push);
    if (early) return early;
    try {
      const { push: rec, deleteTicket, openedProof } = await pushes.retrieveWithDeleteTicket(pageActor(c), token, form.get('passphrase') ?? '');
      keepOpenedProof(c, openedProof);
      return showSecret(c, token, push, rec, deleteTicket);
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'unauthorized') return passphraseForm(c, token, 401, languageOf(c).t('recipient.passphrase.wrong'));
      if (e instanceof ServiceError && e.kind === 'too_many_requests') {
        if (e.retryAfter) c.header('Retry-After', String(e.retryAfter));
        return passphraseForm(c, token, 429, languageOf(c).t('recipient.passphrase.tooMany'));
      }
      if (e instanceof ServiceError && e.kind === 'not_found') return expiredPage(c);
      throw e;
    }
  });

  // The end-to-end page's script, once the link's key is well formed: the retrieval (one view,
  // as for any push) answered as JSON for the script to decrypt. Nothing here is plaintext.
  app.post('/p/:token/open', session, async (c) => {
    const token = c.req.param('token');
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return c.json({ error: 'The form expired: reload the page.' }, 403);
    const push = await live(token);
    if (!push) {
      await expiredView(c, token);
      return c.json({ error: 'expired' }, 404);
    }
    if (!push.endToEnd) return c.json({ error: 'not an end-to-end push' }, 404);
    const later = pushes.opensLaterFor(push, pageActor(c));
    if (later) {
      c.header('Retry-After', String(later.retryAfterSeconds));
      return c.json({ error: 'not open yet', not_before: later.opensAt }, 425);
    }
    if (pushes.waitsForFirst(push, pageActor(c))) return c.json({ error: 'open the first link first', follows: true }, 425);
    // A push with a passphrase check: the script sends the check of what the recipient typed
    // (never the passphrase), and a wrong one counts no view, as on any push.
    let opened;
    try {
      opened = await pushes.retrieveWithDeleteTicket(pageActor(c), token, form.get('passphrase') ?? undefined);
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'unauthorized') return c.json({ error: 'passphrase' }, 401);
      if (e instanceof ServiceError && e.kind === 'too_many_requests') {
        if (e.retryAfter) c.header('Retry-After', String(e.retryAfter));
        return c.json({ error: 'too many passphrases' }, 429);
      }
      if (e instanceof ServiceError && e.kind === 'not_found') return c.json({ error: 'expired' }, 404);
      throw e;
    }
    const { push: rec, deleteTicket, openedProof } = opened;
    keepOpenedProof(c, openedProof);
    if (rec.expired || rec.payload === null) return c.json({ error: 'expired' }, 404);
    return c.json({
      payload: rec.payload,
      files: rec.files.map((f) => f.url),
      views_remaining: rec.views_remaining,
      remaining: remainingText(languageOf(c).t, rec),
      delete_ticket: deleteTicket,
    });
  });

  app.post('/p/:token/delete', session, async (c) => {
    const token = c.req.param('token');
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    if (!URL_TOKEN_PATTERN.test(token)) return expiredPage(c);
    try {
      const exp = form.get('exp');
      const ticket = form.get('ticket');
      await pushes.expire(pageActor(c), token, { ticket: exp && ticket ? { exp, ticket } : undefined });
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'not_found') return expiredPage(c);
      if (e instanceof ServiceError && (e.kind === 'unauthorized' || e.kind === 'forbidden')) {
        return sendPage(c, 403, 'title.notAllowed', <DeleteRefused />);
      }
      throw e;
    }
    // The owner's "Expire now" (preview-routes.tsx) goes back to the dashboard or the preview.
    const back = safeReturnPath(form.get('return_to'));
    if (back) return c.redirect(back, 303);
    return sendPage(c, 200, 'title.secretDeleted', <DeletedPage />);
  });

  return app;
}

function OpensAfterAnotherPage() {
  const { t } = useLanguage();
  return (
    <section class="card center">
      <h1>{t('recipient.follows.heading')}</h1>
      <p>{t('recipient.follows.body')}</p>
    </section>
  );
}

function DeleteRefused() {
  const { t } = useLanguage();
  return (
    <section class="card center">
      <h1>{t('recipient.deleteRefused.heading')}</h1>
      <p>{t('recipient.deleteRefused.body')}</p>
    </section>
  );
}
