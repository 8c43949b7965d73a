import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../app-env.js';
import { pageLanguage, type PageLanguage } from '../pages/i18n/i18n-context.js';
import { matchLocale, negotiate } from '../pages/i18n/locales.js';

/** The language a person picked in the language menu, kept for a year. */
export const LANGUAGE_COOKIE = 'sp_lang';
const YEAR_SECONDS = 365 * 86_400;

/**
 * The language of the page for this request: `?lang=` (the language menu; remembered in a
 * cookie), else that cookie, else the browser's Accept-Language, else English.
 */
export function languageOf(c: Context<AppEnv>): PageLanguage {
  const known = c.get('language');
  if (known) return known;
  const picked = matchLocale(c.req.query('lang') ?? '');
  if (picked) {
    setCookie(c, LANGUAGE_COOKIE, picked, {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure: c.get('ctx').baseUrl.startsWith('https:'),
      maxAge: YEAR_SECONDS,
    });
  }
  const locale = picked ?? matchLocale(getCookie(c, LANGUAGE_COOKIE) ?? '') ?? negotiate(c.req.header('accept-language'));
  const language = pageLanguage(locale);
  c.set('language', language);
  return language;
}
