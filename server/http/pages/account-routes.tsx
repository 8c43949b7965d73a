/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import type { OwnerPushRecord } from '../../../shared/push-schema.js';
import { Hono } from 'hono';
import type { AccountMail } from '../../accounts/account-mail.js';
import { CONFIRM_FIRST_MESSAGE, type AccountService } from '../../accounts/account-service.js';
import { mailContext } from './account-email-routes.js';
import type { User } from '../../accounts/user.js';
import type { Config } from '../../config.js';
import type { OidcRelyingParty } from '../../accounts/oidc/relying-party.js';
import { deleteCookie, getCookie } from 'hono/cookie';
import { OIDC_LOGOUT_COOKIE, OIDC_LOGOUT_COOKIE_PATH } from './oidc-routes.js';
import { PAGE_SIZE, type PushService } from '../../pushes/push-service.js';
import { ServiceError } from '../../service-error.js';
import type { AppEnv } from '../app-env.js';
import { endPageSession, getPageSession, pageActor, pageSession, safeReturnPath, verifyPageCsrf } from '../middleware/session.js';
import { PasswordPage, SignInPage, SignUpClosedPage, SignUpPage, TokenMadePage, TokenPage } from './account-pages.js';
import { AuditLogPage, DashboardPage, type DashboardEntry } from './dashboard-page.js';
import { batchCardIsOnThisPage } from './batch/batch-placement.js';
import { urlToken } from '../rest/api-guards.js';
import { csrfRefused, readSmallForm } from './page-errors.js';
import { ErrorPage, sendPage } from './render.js';
import { languageOf } from '../middleware/page-language.js';
import { CsrfField } from './components.js';
import { translateServiceMessage } from './i18n/service-messages.js';
import { continueAfterPassword, relyingParty, type SignInSteps } from './sign-in-steps/sign-in-steps.js';
import { PasskeySignIn } from './sign-in-steps/sign-in-step-pages.js';
import type { InviteService } from '../../admin/invite-service.js';

/** Sign up, sign in, sign out, API tokens and the dashboard: adapters over the services. */
export function accountRoutes(config: Config, pushes: PushService, accounts: AccountService, steps: SignInSteps, invites?: InviteService, accountMail?: AccountMail, oidc?: OidcRelyingParty): Hono<AppEnv> {
  const mailOn = accountMail?.enabled ? accountMail : undefined;
  const app = new Hono<AppEnv>();
  const session = pageSession(accounts);
  const passwordsOn = !config.signInMethods.ssoOnly;
  const signupOpen = config.features.signup && passwordsOn;
  const sso = (returnTo: string | null) => (oidc ? { name: oidc.displayName, href: `/users/auth/oidc${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}` } : undefined);

  /** Signed-out visitors go to sign-in, and come back here afterwards. */
  const signInFirst = (c: Context<AppEnv>) => {
    const back = safeReturnPath(new URL(c.req.url).pathname + new URL(c.req.url).search) ?? '/';
    return c.redirect(`/users/sign_in?return_to=${encodeURIComponent(back)}`, 303);
  };

  const signInForm = async (c: Context<AppEnv>, status: 200 | 401 | 403 | 429, returnTo: string | null, email?: string, error?: string) => {
    const passkey = await steps.passkeys.signInOptions(relyingParty(c));
    return sendPage(
      c,
      status,
      'title.signIn',
      <SignInPage
        csrfToken={getPageSession(c).csrfToken}
        returnTo={returnTo}
        email={email}
        error={error}
        signupEnabled={signupOpen}
        forgotLink={Boolean(mailOn)}
        notice={c.req.query('reset') === '1' ? languageOf(c).t('account.reset.done') : undefined}
        sso={sso(returnTo)}
        passwordsOn={passwordsOn}
      >
        <PasskeySignIn csrfToken={getPageSession(c).csrfToken} challenge={passkey} returnTo={returnTo} />
      </SignInPage>,
      { scripts: ['passkeys.js'] },
    );
  };

  const signUpForm = (c: Context<AppEnv>, status: 200 | 401 | 403 | 422 | 429, returnTo: string | null, email?: string, errors?: Record<string, string[]>, error?: string, invite?: string) =>
    sendPage(
      c,
      status,
      'title.signUp',
      <SignUpPage
        csrfToken={getPageSession(c).csrfToken}
        returnTo={returnTo}
        email={email}
        errors={errors}
        error={error}
        signupEnabled={signupOpen}
        invite={invite}
        // An invite may be used by signing in through the provider too (the account is made there).
        sso={oidc ? { name: oidc.displayName, href: `/users/auth/oidc?${new URLSearchParams({ ...(invite ? { invite } : {}), ...(returnTo ? { return_to: returnTo } : {}) })}` } : undefined}
      />,
    );
  /** SIGN_UP=invite: sign-up only with an invite link (whether it is still good is checked on submit). */
  const inviteOnly = config.admin.signUp === 'invite';
  const inviteOf = (raw: string | null | undefined) => (typeof raw === 'string' && /^[A-Za-z0-9_-]{16,64}$/.test(raw) ? raw : undefined);

  const passwordForm = (c: Context<AppEnv>, status: 200 | 401 | 422 | 429, notice?: { kind: 'ok' | 'error'; text: string }, errors?: Record<string, string[]>) =>
    sendPage(c, status, 'title.changePassword', <PasswordPage csrfToken={getPageSession(c).csrfToken} notice={notice} errors={errors} />);

  const signUpClosed = (c: Context<AppEnv>) => sendPage(c, 403, 'title.signUpClosed', <SignUpClosedPage />);

  app.get('/users/sign_in', session, (c) => {
    const returnTo = safeReturnPath(c.req.query('return_to'));
    if (getPageSession(c).user) return c.redirect(returnTo ?? '/dashboard', 303);
    // Back from a step after the password or from a passkey: what went wrong, in the page's language.
    const { t } = languageOf(c);
    const stepError = c.req.query('step_expired') ? t('mfa.verify.expired') : c.req.query('passkey_refused') ? t('mfa.passkey.refused') : c.req.query('passkey_expired') ? t('mfa.passkey.failed') : undefined;
    return signInForm(c, 200, returnTo, undefined, stepError);
  });

  app.post('/users/sign_in', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const returnTo = safeReturnPath(form.get('return_to'));
    const email = form.get('email') ?? '';
    let user: User;
    try {
      user = await accounts.verifyPassword(email, form.get('password') ?? '', c.get('ctx').client.ip);
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'unauthorized') return signInForm(c, 401, returnTo, email, translateServiceMessage(languageOf(c).t, e.message));
      if (e instanceof ServiceError && e.kind === 'forbidden' && e.message === CONFIRM_FIRST_MESSAGE) return signInForm(c, 401, returnTo, email, languageOf(c).t('account.confirm.first'));
      if (e instanceof ServiceError && e.kind === 'forbidden') return signInForm(c, 403, returnTo, email, translateServiceMessage(languageOf(c).t, e.message));
      if (e instanceof ServiceError && e.kind === 'too_many_requests') {
        c.header('Retry-After', String(e.retryAfter ?? 60));
        return signInForm(c, 429, returnTo, email, translateServiceMessage(languageOf(c).t, e.message));
      }
      throw e;
    }
    // A session now, or first the second factor (or, with REQUIRE_MFA, setting one up).
    return continueAfterPassword(c, accounts, steps, user, returnTo, '/dashboard');
  });

  app.get('/users/sign_up', session, (c) => {
    // SSO_ONLY with SIGN_UP=invite: an invite link goes on to the provider, which makes the account.
    const ssoInvite = inviteOf(c.req.query('invite'));
    if (oidc && !passwordsOn && ssoInvite) return c.redirect(`/users/auth/oidc?invite=${ssoInvite}`, 303);
    if (!signupOpen) return signUpClosed(c);
    const returnTo = safeReturnPath(c.req.query('return_to'));
    if (getPageSession(c).user) return c.redirect(returnTo ?? '/dashboard', 303);
    const invite = inviteOf(c.req.query('invite'));
    if (inviteOnly && !invite) return signUpClosed(c);
    return signUpForm(c, 200, returnTo, undefined, undefined, undefined, invite);
  });

  app.post('/users/sign_up', session, async (c) => {
    if (!signupOpen) return signUpClosed(c);
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const returnTo = safeReturnPath(form.get('return_to'));
    const email = form.get('email') ?? '';
    const invite = inviteOf(form.get('invite'));
    if (inviteOnly && (!invite || !invites)) return signUpClosed(c);
    let user: User;
    try {
      const redeem = inviteOnly ? (address: string) => invites!.redeem(invite, address) : undefined;
      let confirmationSent: boolean | undefined;
      ({ user, confirmationSent } = await accounts.signUp(email, form.get('password') ?? '', c.get('ctx').client.ip, { beforeCreate: redeem, confirm: mailOn?.signUpConfirmation(mailContext(c)) }));
      // With confirmation, the same page for a new address and a taken one: the e-mail says which.
      if (confirmationSent) {
        const { t } = languageOf(c);
        return sendPage(c, 200, 'title.checkEmail', <ErrorPage title={t('title.checkEmail')} message={t('account.signUp.checkEmail', { email: user.email })} />);
      }
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'validation') return signUpForm(c, 422, returnTo, email, e.fieldErrors, undefined, invite);
      // SIGN_UP_EMAIL_DOMAINS: an address outside the list.
      if (e instanceof ServiceError && e.kind === 'forbidden') return signUpForm(c, 403, returnTo, email, undefined, translateServiceMessage(languageOf(c).t, e.message), invite);
      // An existing email with another password: what sign-in would answer, on the sign-up form.
      if (e instanceof ServiceError && e.kind === 'unauthorized') return signUpForm(c, 401, returnTo, email, undefined, translateServiceMessage(languageOf(c).t, e.message));
      if (e instanceof ServiceError && e.kind === 'too_many_requests') {
        c.header('Retry-After', String(e.retryAfter ?? 60));
        return signUpForm(c, 429, returnTo, email, undefined, translateServiceMessage(languageOf(c).t, e.message));
      }
      throw e;
    }
    // A new account lands on its dashboard, with a word on where things are (after setting up
    // a second factor when REQUIRE_MFA asks; an existing account's second factor is asked for).
    return continueAfterPassword(c, accounts, steps, user, returnTo, '/dashboard?welcome=1');
  });

  app.get('/users/sign_out', session, (c) => {
    if (!getPageSession(c).user) return c.redirect('/', 303);
    const { t } = languageOf(c);
    return sendPage(
      c,
      200,
      'title.signOut',
      <ErrorPage title={t('account.signOut.heading')} message={t('account.signOut.body')}>
        <form method="post" action="/users/sign_out">
          <CsrfField token={getPageSession(c).csrfToken} />
          <button type="submit">{t('account.signOut.button')}</button>
        </form>
      </ErrorPage>,
    );
  });

  app.post('/users/sign_out', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    await endPageSession(c, accounts);
    if (oidc) {
      // An SSO session: end the provider's session too where it offers RP-initiated logout.
      const logoutCookie = getCookie(c, OIDC_LOGOUT_COOKIE);
      deleteCookie(c, OIDC_LOGOUT_COOKIE, { path: OIDC_LOGOUT_COOKIE_PATH, secure: getPageSession(c).secure });
      const providerLogout = await oidc.logoutUrl(logoutCookie, `${c.get('ctx').baseUrl}/`);
      if (providerLogout) return c.redirect(providerLogout, 303);
    }
    return c.redirect('/', 303);
  });

  app.get('/users/password', session, (c) => {
    if (!getPageSession(c).user) return signInFirst(c);
    return passwordForm(c, 200);
  });

  app.post('/users/password', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const { user, sessionSecret } = getPageSession(c);
    if (!user) return signInFirst(c);
    try {
      const ended = await accounts.changePassword(user, form.get('current_password') ?? '', form.get('password') ?? '', c.get('ctx').client.ip, sessionSecret, mailOn?.passwordChangedNotice(mailContext(c)));
      return passwordForm(c, 200, { kind: 'ok', text: languageOf(c).t('account.password.changed', { count: ended }) });
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'validation') return passwordForm(c, 422, undefined, e.fieldErrors);
      if (e instanceof ServiceError && e.kind === 'unauthorized') return passwordForm(c, 401, { kind: 'error', text: languageOf(c).t('account.password.wrongCurrent') });
      if (e instanceof ServiceError && e.kind === 'too_many_requests') {
        c.header('Retry-After', String(e.retryAfter ?? 60));
        return passwordForm(c, 429, { kind: 'error', text: translateServiceMessage(languageOf(c).t, e.message) });
      }
      throw e;
    }
  });

  app.get('/users/token', session, async (c) => {
    const user = getPageSession(c).user;
    if (!user) return signInFirst(c);
    const notice = c.req.query('revoked') === '1' ? languageOf(c).t('account.tokens.revoked') : undefined;
    return sendPage(c, 200, 'title.apiTokens', <TokenPage tokens={await accounts.listApiTokens(user)} csrfToken={getPageSession(c).csrfToken} notice={notice} mailOn={Boolean(mailOn)} />);
  });

  app.post('/users/token', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const user = getPageSession(c).user;
    if (!user) return signInFirst(c);
    const made = await accounts.createApiToken(user, form.get('label') ?? undefined);
    return sendPage(c, 200, 'title.newApiToken', <TokenMadePage token={made.token} info={made.info} />);
  });

  app.post('/users/token/revoke', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const user = getPageSession(c).user;
    if (!user) return signInFirst(c);
    await accounts.revokeApiToken(user, form.get('id') ?? '');
    return c.redirect('/users/token?revoked=1', 303);
  });

  // A receipt e-mail's link: the push by its id (a receipt never holds the secret link), to its audit page.
  app.get('/dashboard/push/:pushId', session, async (c) => {
    const user = getPageSession(c).user;
    if (!user) return signInFirst(c);
    return c.redirect(await pushes.auditPathById(pageActor(c), c.req.param('pushId')), 303);
  });

  app.get('/dashboard', session, async (c) => {
    if (!getPageSession(c).user) return signInFirst(c);
    const state = c.req.query('state') === 'expired' ? 'expired' : 'active';
    const page = pushes.parsePage(c.req.query('page'));
    const actor = pageActor(c);
    const list = await pushes.list(actor, state, page);
    const entries: DashboardEntry[] = [];
    // A batch's pushes are one group (its rows read together), shown once: on the page where its
    // newest push falls. The others each with their audit log.
    const batches = new Map<string, OwnerPushRecord[]>();
    const batchesSeen = new Set<string>();
    const pageIds = new Set(list.map((p) => p.push_id));
    for (const push of list) {
      if (push.batch_id) {
        if (!batchesSeen.has(push.batch_id)) {
          batchesSeen.add(push.batch_id);
          const rows = await pushes.listBatch(actor, push.batch_id);
          if (batchCardIsOnThisPage(rows, state === 'expired', pageIds)) batches.set(push.batch_id, rows);
        }
        entries.push({ push, logs: [] });
      } else entries.push({ push, logs: (await pushes.auditLog(actor, push.url_token, 1)).logs });
    }
    return sendPage(c, 200, 'title.myPushes', <DashboardPage state={state} page={page} entries={entries} hasMore={list.length === PAGE_SIZE} expiredNow={c.req.query('expired_now') === '1'} welcome={c.req.query('welcome') === '1'} batches={batches} followed={await pushes.followedRecords(actor, list)} />);
  });

  app.get('/dashboard/audit/:token', session, async (c) => {
    if (!getPageSession(c).user) return signInFirst(c);
    const actor = pageActor(c);
    const token = urlToken(c.req.param('token'));
    const page = pushes.parseAuditPage(c.req.query('page'));
    const { logs } = await pushes.auditLog(actor, token, page);
    return sendPage(c, 200, 'title.auditLog', <AuditLogPage token={token} page={page} logs={logs} />);
  });

  return app;
}
