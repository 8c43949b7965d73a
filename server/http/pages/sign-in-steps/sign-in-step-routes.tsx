/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { AccountService } from '../../../accounts/account-service.js';
import type { User } from '../../../accounts/user.js';
import { ServiceError } from '../../../service-error.js';
import type { AppEnv } from '../../app-env.js';
import { languageOf } from '../../middleware/page-language.js';
import { getPageSession, pageSession, safeReturnPath, startPageSession, verifyPageCsrf } from '../../middleware/session.js';
import { csrfRefused, readSmallForm } from '../page-errors.js';
import { sendPage } from '../render.js';
import { translateServiceMessage } from '../i18n/service-messages.js';
import { RecoveryCodesPage, SecondStepPage, SecurityPage, TotpSetupPage } from './sign-in-step-pages.js';
import { clearPendingSignIn, readPendingSignIn, relyingParty, type SignInSteps } from './sign-in-steps.js';

/**
 * The steps of a sign-in after the password (a code, a recovery code, setting up an app when
 * REQUIRE_MFA asks), passkey sign-in, and the account's sign-in security page. Adapters over
 * SecondFactorService and PasskeyService.
 */
export function signInStepRoutes(accounts: AccountService, steps: SignInSteps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const session = pageSession(accounts);
  const { secondFactor, passkeys } = steps;

  const signInAgain = (c: Context<AppEnv>) => {
    clearPendingSignIn(c);
    return c.redirect('/users/sign_in?step_expired=1', 303);
  };
  const signInFirst = (c: Context<AppEnv>) => c.redirect(`/users/sign_in?return_to=${encodeURIComponent(c.req.path)}`, 303);
  const limited = (c: Context<AppEnv>, e: ServiceError) => {
    c.header('Retry-After', String(e.retryAfter ?? 60));
    return translateServiceMessage(languageOf(c).t, e.message);
  };

  /** The account a half-signed-in browser stands for (null when its ticket is missing, expired or for another stage). */
  const pendingUser = async (c: Context<AppEnv>, stage: 'verify' | 'enrol') => {
    const pending = readPendingSignIn(c, steps);
    if (!pending || pending.stage !== stage) return null;
    const stored = await accounts.userById(pending.userId);
    return stored ? { user: stored, returnTo: pending.returnTo } : null;
  };

  const finish = async (c: Context<AppEnv>, user: User, returnTo: string | null) => {
    clearPendingSignIn(c);
    await startPageSession(c, accounts, user);
    return c.redirect(returnTo ?? '/dashboard', 303);
  };

  const secondStep = async (c: Context<AppEnv>, status: 200 | 401 | 429, user: User, error?: string) => {
    const state = await secondFactor.status(user);
    const passkey = state.passkeys > 0 ? await passkeys.signInOptions(relyingParty(c)) : undefined;
    return sendPage(c, status, 'title.twoFactor', <SecondStepPage csrfToken={getPageSession(c).csrfToken} totp={state.totp} passkey={passkey} error={error} />, { scripts: ['passkeys.js'] });
  };

  app.get('/users/two_factor', session, async (c) => {
    if (getPageSession(c).user) return c.redirect('/dashboard', 303);
    // Owing a set-up rather than a code (REQUIRE_MFA): that is the only step open.
    if (readPendingSignIn(c, steps)?.stage === 'enrol') return c.redirect('/users/two_factor/setup', 303);
    const pending = await pendingUser(c, 'verify');
    if (!pending) return signInAgain(c);
    return secondStep(c, 200, pending.user);
  });

  app.post('/users/two_factor', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const pending = await pendingUser(c, 'verify');
    if (!pending) return signInAgain(c);
    try {
      await secondFactor.verify(pending.user, form.get('code') ?? '', c.get('ctx').client.ip);
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'unauthorized') return secondStep(c, 401, pending.user, languageOf(c).t('mfa.verify.wrong'));
      if (e instanceof ServiceError && e.kind === 'too_many_requests') return secondStep(c, 429, pending.user, limited(c, e));
      throw e;
    }
    return finish(c, pending.user, pending.returnTo);
  });

  /** Who is setting up an app: the signed-in user, or a half-signed-in one that REQUIRE_MFA sent here. */
  const enrolling = async (c: Context<AppEnv>) => {
    const user = getPageSession(c).user;
    if (user) return { user, pending: null };
    const pending = await pendingUser(c, 'enrol');
    return pending ? { user: pending.user, pending } : null;
  };

  const setupForm = async (c: Context<AppEnv>, status: 200 | 401 | 429, user: User, required: boolean, error?: string) => {
    const { uri, secret } = await secondFactor.beginTotp(user);
    return sendPage(c, status, 'title.twoFactorSetup', <TotpSetupPage csrfToken={getPageSession(c).csrfToken} uri={uri} secret={secret} required={required} error={error} />);
  };

  app.get('/users/two_factor/setup', session, async (c) => {
    const who = await enrolling(c);
    if (!who) return getPageSession(c).user ? signInFirst(c) : signInAgain(c);
    if ((await secondFactor.status(who.user)).totp) return c.redirect('/users/security', 303);
    return setupForm(c, 200, who.user, Boolean(who.pending));
  });

  app.post('/users/two_factor/setup', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const who = await enrolling(c);
    if (!who) return signInAgain(c);
    let codes: string[];
    try {
      codes = await secondFactor.confirmTotp(who.user, form.get('code') ?? '', c.get('ctx').client.ip);
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'unauthorized') return setupForm(c, 401, who.user, Boolean(who.pending), languageOf(c).t('mfa.verify.wrong'));
      if (e instanceof ServiceError && e.kind === 'too_many_requests') return setupForm(c, 429, who.user, Boolean(who.pending), limited(c, e));
      if (e instanceof ServiceError && e.kind === 'conflict') return c.redirect('/users/two_factor/setup', 303);
      throw e;
    }
    let next = '/users/security';
    if (who.pending) {
      // Set up as REQUIRE_MFA asked: the sign-in is complete now.
      clearPendingSignIn(c);
      await startPageSession(c, accounts, who.user);
      next = who.pending.returnTo ?? '/dashboard';
    }
    return sendPage(c, 200, 'title.recoveryCodes', <RecoveryCodesPage codes={codes} next={next} />);
  });

  app.post('/users/passkeys/sign_in', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    let user: User;
    try {
      user = await passkeys.signIn(relyingParty(c), form.get('ticket'), form.get('response'));
    } catch (e) {
      if (e instanceof ServiceError && (e.kind === 'unauthorized' || e.kind === 'bad_request')) {
        const key = e.kind === 'unauthorized' ? 'passkey_refused' : 'passkey_expired';
        return c.redirect(`/users/sign_in?${key}=1`, 303);
      }
      throw e;
    }
    // A passkey with user verification is two factors: no further step.
    return finish(c, user, safeReturnPath(form.get('return_to')) ?? readPendingSignIn(c, steps)?.returnTo ?? null);
  });

  const securityPage = async (c: Context<AppEnv>, status: 200 | 401 | 403 | 404 | 409 | 422 | 429, user: User, notice?: { kind: 'ok' | 'error'; text: string }, errors?: Record<string, string[]>) => {
    const list = await passkeys.list(user);
    let register;
    try {
      register = await passkeys.registrationOptions(user, relyingParty(c));
    } catch (e) {
      if (!(e instanceof ServiceError && e.kind === 'conflict')) throw e;
    }
    return sendPage(
      c,
      status,
      'title.security',
      <SecurityPage csrfToken={getPageSession(c).csrfToken} status={await secondFactor.status(user)} passkeys={list} register={register} requireMfa={secondFactor.requireMfa} notice={notice} errors={errors} />,
      { scripts: ['passkeys.js'] },
    );
  };

  app.get('/users/security', session, async (c) => {
    const user = getPageSession(c).user;
    if (!user) return signInFirst(c);
    const { t } = languageOf(c);
    const done = c.req.query('done');
    const notices: Record<string, string> = {
      'passkey-added': t('mfa.security.passkeyAdded'),
      'passkey-renamed': t('mfa.security.passkeyRenamed'),
      'passkey-removed': t('mfa.security.passkeyRemoved'),
      'totp-off': t('mfa.security.turnedOff'),
    };
    return securityPage(c, 200, user, done && Object.hasOwn(notices, done) ? { kind: 'ok', text: notices[done]! } : undefined);
  });

  /** A refusal shown on the security page, in the page's language where it is one of ours. */
  const refusedOnSecurityPage = (c: Context<AppEnv>, user: User, e: unknown) => {
    if (!(e instanceof ServiceError)) throw e;
    const { t } = languageOf(c);
    if (e.kind === 'validation') return securityPage(c, 422, user, undefined, e.fieldErrors);
    if (e.kind === 'unauthorized') return securityPage(c, 401, user, { kind: 'error', text: t('mfa.verify.wrong') });
    if (e.kind === 'too_many_requests') return securityPage(c, 429, user, { kind: 'error', text: limited(c, e) });
    if (e.kind === 'forbidden') return securityPage(c, 403, user, { kind: 'error', text: t('mfa.security.keepOne') });
    if (e.kind === 'bad_request') return securityPage(c, 422, user, { kind: 'error', text: t('mfa.passkey.failed') });
    if (e.kind === 'conflict' || e.kind === 'not_found') return securityPage(c, e.kind === 'conflict' ? 409 : 404, user, { kind: 'error', text: translateServiceMessage(t, e.message) });
    throw e;
  };

  app.post('/users/security/totp', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const user = getPageSession(c).user;
    if (!user) return signInFirst(c);
    try {
      if (form.get('action') === 'turn-off') {
        await secondFactor.turnOffTotp(user, form.get('code') ?? '', c.get('ctx').client.ip);
        return c.redirect('/users/security?done=totp-off', 303);
      }
      const codes = await secondFactor.renewRecoveryCodes(user, form.get('code') ?? '', c.get('ctx').client.ip);
      return sendPage(c, 200, 'title.recoveryCodes', <RecoveryCodesPage codes={codes} next="/users/security" />);
    } catch (e) {
      return refusedOnSecurityPage(c, user, e);
    }
  });

  app.post('/users/security/passkeys', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const user = getPageSession(c).user;
    if (!user) return signInFirst(c);
    try {
      await passkeys.register(user, relyingParty(c), form.get('ticket'), form.get('response'), form.get('name'));
    } catch (e) {
      return refusedOnSecurityPage(c, user, e);
    }
    return c.redirect('/users/security?done=passkey-added', 303);
  });

  app.post('/users/security/passkeys/rename', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const user = getPageSession(c).user;
    if (!user) return signInFirst(c);
    try {
      await passkeys.rename(user, form.get('id') ?? '', form.get('name'));
    } catch (e) {
      return refusedOnSecurityPage(c, user, e);
    }
    return c.redirect('/users/security?done=passkey-renamed', 303);
  });

  app.post('/users/security/passkeys/remove', session, async (c) => {
    const form = await readSmallForm(c);
    if (!verifyPageCsrf(c, accounts, form.get('csrf_token'))) return csrfRefused(c);
    const user = getPageSession(c).user;
    if (!user) return signInFirst(c);
    try {
      await passkeys.remove(user, form.get('id') ?? '', secondFactor.requireMfa);
    } catch (e) {
      return refusedOnSecurityPage(c, user, e);
    }
    return c.redirect('/users/security?done=passkey-removed', 303);
  });

  return app;
}
