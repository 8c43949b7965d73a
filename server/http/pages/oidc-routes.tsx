/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AccountService } from '../../accounts/account-service.js';
import type { OidcRelyingParty } from '../../accounts/oidc/relying-party.js';
import type { InviteService } from '../../admin/invite-service.js';
import type { Logger } from '../../logger.js';
import { ServiceError } from '../../service-error.js';
import type { AppEnv } from '../app-env.js';
import { getPageSession, pageSession, safeReturnPath, startPageSession } from '../middleware/session.js';
import { languageOf } from '../middleware/page-language.js';
import { translateServiceMessage } from './i18n/service-messages.js';
import { ErrorPage, sendPage } from './render.js';

/** The flow's secrets (state, nonce, PKCE verifier), sealed; sent back only to the callback. */
export const OIDC_FLOW_COOKIE = 'sp_oidc_flow';
const FLOW_COOKIE_PATH = '/users/auth/oidc';
/** The sealed ID token of an SSO session, sent only to sign-out (for RP-initiated logout). */
export const OIDC_LOGOUT_COOKIE = 'sp_oidc_logout';
export const OIDC_LOGOUT_COOKIE_PATH = '/users/sign_out';
const SESSION_DAYS = 14;

/** "Sign in with <provider>": the start of the code flow and its callback; adapters over the relying party and the account service. */
export function oidcRoutes(oidc: OidcRelyingParty, accounts: AccountService, invites?: InviteService, logger?: Logger): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const session = pageSession(accounts);

  const failed = (c: Context<AppEnv>, e: unknown) => {
    if (!(e instanceof ServiceError)) throw e;
    const { t } = languageOf(c);
    if (e.retryAfter) c.header('Retry-After', String(e.retryAfter));
    const status = e.kind === 'forbidden' ? 403 : e.kind === 'unavailable' ? 503 : 400;
    return sendPage(
      c,
      status,
      'title.ssoFailed',
      <ErrorPage title={t('title.ssoFailed')} message={translateServiceMessage(t, e.message)}>
        <p>
          <a href="/users/sign_in">{t('account.sso.tryAgain')}</a>
        </p>
      </ErrorPage>,
    );
  };

  app.get('/users/auth/oidc', session, async (c) => {
    const returnTo = safeReturnPath(c.req.query('return_to'));
    if (getPageSession(c).user) return c.redirect(returnTo ?? '/dashboard', 303);
    try {
      const invite = c.req.query('invite');
      const started = await oidc.start(c.get('ctx').baseUrl, returnTo, invite && /^[A-Za-z0-9_-]{16,64}$/.test(invite) ? invite : undefined);
      setCookie(c, OIDC_FLOW_COOKIE, started.flowCookie, {
        path: FLOW_COOKIE_PATH,
        httpOnly: true,
        // Lax: the provider's redirect back is a top-level GET from another site, which Lax lets through.
        sameSite: 'Lax',
        secure: getPageSession(c).secure,
        maxAge: started.maxAgeSeconds,
      });
      return c.redirect(started.url, 303);
    } catch (e) {
      return failed(c, e);
    }
  });

  app.get('/users/auth/oidc/callback', session, async (c) => {
    const flowCookie = getCookie(c, OIDC_FLOW_COOKIE);
    // One flow, one callback: the cookie goes whatever happens (a replayed callback finds none).
    deleteCookie(c, OIDC_FLOW_COOKIE, { path: FLOW_COOKIE_PATH, secure: getPageSession(c).secure });
    try {
      const { identity, returnTo, invite } = await oidc.finish(new URL(c.req.url).search, flowCookie);
      const client = c.get('ctx').client;
      const { user, created } = await accounts.signInWithProvider(identity, {
        clientIp: client.ip,
        userAgent: client.userAgent,
        // SIGN_UP=invite: the invite link the sign-in started from is used up when the account is made.
        beforeCreate: invite && invites ? (email) => invites.redeem(invite, email) : undefined,
      });
      if (created) logger?.info('account made at its first single sign-on', { userId: user.id });
      await startPageSession(c, accounts, user, SESSION_DAYS);
      setCookie(c, OIDC_LOGOUT_COOKIE, oidc.logoutCookie(identity, SESSION_DAYS), {
        path: OIDC_LOGOUT_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'Lax',
        secure: getPageSession(c).secure,
        maxAge: SESSION_DAYS * 86_400,
      });
      return c.redirect(safeReturnPath(returnTo) ?? (created ? '/dashboard?welcome=1' : '/dashboard'), 303);
    } catch (e) {
      return failed(c, e);
    }
  });

  return app;
}
