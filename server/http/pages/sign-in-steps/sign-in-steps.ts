import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AccountService } from '../../../accounts/account-service.js';
import type { PasskeyService, RelyingParty } from '../../../accounts/passkeys/passkey-service.js';
import type { SecondFactorService } from '../../../accounts/second-factor/second-factor-service.js';
import type { TicketSigner } from '../../../accounts/second-factor/signed-ticket.js';
import type { User } from '../../../accounts/user.js';
import type { AppEnv } from '../../app-env.js';
import { startPageSession } from '../../middleware/session.js';

/** The services behind the steps of a sign-in after the password, and passkeys. */
export interface SignInSteps {
  secondFactor: SecondFactorService;
  passkeys: PasskeyService;
  tickets: TicketSigner;
}

/**
 * The half-signed-in state: the password was right, a second factor is owed (`verify`) or must
 * first be set up (`enrol`, REQUIRE_MFA). A signed ticket in its own cookie, never a session:
 * only the second step's pages read it, so it opens nothing else.
 */
export const PENDING_COOKIE = 'sp_sign_in_step';
const PENDING_PURPOSE = 'sign-in pending';
const PENDING_MS = 10 * 60_000;

export interface PendingSignIn {
  userId: string;
  stage: 'verify' | 'enrol';
  returnTo: string | null;
}

const secure = (c: Context<AppEnv>) => c.get('ctx').baseUrl.startsWith('https:');

export function readPendingSignIn(c: Context<AppEnv>, steps: SignInSteps): PendingSignIn | null {
  return steps.tickets.read<PendingSignIn>(PENDING_PURPOSE, getCookie(c, PENDING_COOKIE));
}

export function clearPendingSignIn(c: Context<AppEnv>): void {
  deleteCookie(c, PENDING_COOKIE, { path: '/users', secure: secure(c) });
}

/** Where the browser signs for passkeys: this site's public origin (BASE_URL, or the request's). */
export function relyingParty(c: Context<AppEnv>): RelyingParty {
  return { origin: new URL(c.get('ctx').baseUrl).origin };
}

/**
 * After a right password (sign-in, or sign-up into an existing or new account): a session when
 * no second factor is owed; otherwise the half-signed-in ticket and the way to the next step.
 */
export async function continueAfterPassword(c: Context<AppEnv>, accounts: AccountService, steps: SignInSteps, user: User, returnTo: string | null, landing: string): Promise<Response> {
  const next = await steps.secondFactor.afterPassword(user);
  if (next === 'done') {
    clearPendingSignIn(c);
    await startPageSession(c, accounts, user);
    return c.redirect(returnTo ?? landing, 303);
  }
  const ticket = steps.tickets.sign<PendingSignIn>(PENDING_PURPOSE, { userId: user.id, stage: next, returnTo: returnTo ?? landing }, PENDING_MS);
  setCookie(c, PENDING_COOKIE, ticket, { path: '/users', httpOnly: true, sameSite: 'Lax', secure: secure(c), maxAge: PENDING_MS / 1000 });
  return c.redirect(next === 'verify' ? '/users/two_factor' : '/users/two_factor/setup', 303);
}
