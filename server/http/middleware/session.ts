import { randomBytes } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { openedProofsOf } from '../opened-proofs.js';
import type { AccountService } from '../../accounts/account-service.js';
import type { User } from '../../accounts/user.js';
import type { Actor } from '../../pushes/push-service.js';
import type { AppEnv } from '../app-env.js';
import { languageOf } from './page-language.js';
import { matchLocale } from '../pages/i18n/locales.js';

/** The browser session cookie (its value is the session secret; only its digest is stored). */
export const SESSION_COOKIE = 'sp_session';
/** A random per-browser nonce that CSRF tokens are bound to before anyone signs in. */
export const NONCE_COOKIE = 'sp_nonce';
/** The hidden form field every POST form carries. */
export const CSRF_FIELD = 'csrf_token';

/** What a page knows about its visitor: the session user (never the API-token user). */
export interface PageSession {
  user: User | null;
  /** The session cookie's value when it names a live session. */
  sessionSecret: string | null;
  /** What CSRF tokens are bound to: the session, or the pre-session nonce. */
  binding: string;
  csrfToken: string;
  /** Whether cookies get the Secure flag (the request or BASE_URL is https). */
  secure: boolean;
}

/** The public origin (BASE_URL, or the request's as a trusted proxy reports it) is https. */
function isSecure(c: Context<AppEnv>): boolean {
  return c.get('ctx').baseUrl.startsWith('https:');
}

function cookieOptions(secure: boolean, maxAgeSeconds?: number) {
  return { path: '/', httpOnly: true, sameSite: 'Lax' as const, secure, ...(maxAgeSeconds ? { maxAge: maxAgeSeconds } : {}) };
}

function bindingOf(sessionSecret: string | null, nonce: string): string {
  return sessionSecret ? `session:${sessionSecret}` : `nonce:${nonce}`;
}

/**
 * Resolves the session cookie to a user for the HTML pages, and makes sure a CSRF binding
 * exists: the session when signed in, otherwise a nonce cookie (set here when missing).
 * Apply it per page route, not app-wide: the API never looks at cookies.
 */
export function pageSession(accounts: AccountService): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const secure = isSecure(c);
    const cookieSecret = getCookie(c, SESSION_COOKIE);
    const user = await accounts.sessionUser(cookieSecret);
    // A language chosen in the language menu while signed in becomes the account's e-mail language.
    const picked = user ? matchLocale(c.req.query('lang') ?? '') : undefined;
    if (user && picked) await accounts.rememberLocale(user, picked);
    const sessionSecret = user && cookieSecret ? cookieSecret : null;
    if (cookieSecret && !user) deleteCookie(c, SESSION_COOKIE, { path: '/', secure });
    let nonce = getCookie(c, NONCE_COOKIE) ?? '';
    if (!sessionSecret && !/^[A-Za-z0-9_-]{22,64}$/.test(nonce)) {
      nonce = randomBytes(24).toString('base64url');
      setCookie(c, NONCE_COOKIE, nonce, cookieOptions(secure));
    }
    const binding = bindingOf(sessionSecret, nonce);
    c.set('pageSession', { user, sessionSecret, binding, csrfToken: accounts.csrfToken(binding), secure });
    await next();
  };
}

export function getPageSession(c: Context<AppEnv>): PageSession {
  const s = c.get('pageSession');
  if (!s) throw new Error('pageSession middleware is missing on this route');
  return s;
}

/** The session if the middleware ran (error pages render without it when it failed). */
export function findPageSession(c: Context<AppEnv>): PageSession | undefined {
  return c.get('pageSession');
}

/** The caller as the push service sees it, from the session (not from API credentials). */
export function pageActor(c: Context<AppEnv>): Actor {
  const ctx = c.get('ctx');
  return { user: getPageSession(c).user, client: ctx.client, baseUrl: ctx.baseUrl, locale: languageOf(c).locale, openedProofs: openedProofsOf(c) };
}

/**
 * A browser that says where a POST came from must say it came from here. Sec-Fetch-Site, when
 * sent, decides (same-origin only). Otherwise an Origin header, when sent and not "null", must
 * be this site's. (With `Referrer-Policy: no-referrer` Chromium sends `Origin: null` on form
 * posts, so "null" alone proves nothing either way.) Requests that send neither (old browsers,
 * scripts) still need the CSRF token, which every form POST checks as well.
 */
export function sameOriginRequest(c: Context<AppEnv>): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined) return site === 'same-origin';
  const origin = c.req.header('origin');
  if (origin === undefined || origin === 'null') return true;
  const allowed = new Set([new URL(c.req.url).origin, new URL(c.get('ctx').baseUrl).origin]);
  return allowed.has(origin);
}

/** Checks a POST form: same origin, and a CSRF token bound to this browser's session or nonce. */
export function verifyPageCsrf(c: Context<AppEnv>, accounts: AccountService, token: unknown): boolean {
  return sameOriginRequest(c) && accounts.verifyCsrf(getPageSession(c).binding, token);
}

/** Signs the browser in: a fresh session cookie (HttpOnly, SameSite=Lax, Secure on https). */
export async function startPageSession(c: Context<AppEnv>, accounts: AccountService, user: User, maxAgeDays = 14): Promise<void> {
  const secret = await accounts.startSession(user);
  // The account's e-mails (receipts of pushes made through the API too) are written in this language.
  await accounts.rememberLocale(user, languageOf(c).locale);
  setCookie(c, SESSION_COOKIE, secret, cookieOptions(isSecure(c), maxAgeDays * 86_400));
  // A page rendered in this same response (the recovery codes after a set-up) is a signed-in page.
  const current = c.get('pageSession');
  if (current) {
    const binding = bindingOf(secret, '');
    c.set('pageSession', { ...current, user, sessionSecret: secret, binding, csrfToken: accounts.csrfToken(binding) });
  }
}

export async function endPageSession(c: Context<AppEnv>, accounts: AccountService): Promise<void> {
  await accounts.endSession(getCookie(c, SESSION_COOKIE));
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isSecure(c) });
}

/**
 * A return path after sign-in: only a path on this site. The value is resolved against a
 * placeholder origin the way a browser would resolve it (dot segments, backslashes, encodings)
 * and kept only if it stays on that origin and its normalised form is still a plain path: a
 * value such as `/.//evil.example` normalises to `//evil.example`, which a browser would read
 * as another host, so it is refused. Control characters are refused outright.
 */
export function safeReturnPath(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > 512) return null;
  if (!raw.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  const origin = 'http://same.invalid';
  try {
    const url = new URL(raw, origin);
    if (url.origin !== origin) return null;
    const path = url.pathname + url.search;
    // What the browser will do with the Location header: resolve it again, against this site.
    if (!path.startsWith('/') || path.startsWith('//') || new URL(path, origin).origin !== origin) return null;
    return path;
  } catch {
    return null;
  }
}
