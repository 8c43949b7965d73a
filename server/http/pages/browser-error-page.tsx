/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import type { AppEnv } from '../app-env.js';
import { languageOf } from '../middleware/page-language.js';
import { ErrorPage, sendPage } from './render.js';

/**
 * Whether an answer outside the pages (an unknown URL, a file download's refusal) goes to a
 * person's browser, which gets an HTML page, rather than to an API client, which keeps its exact
 * JSON. A browser navigating asks for `text/html` by name; Password Pusher clients, curl and
 * fetch() do not (they send `application/json` or a wildcard). API paths (/api…, /trpc, *.json)
 * always answer JSON, whatever is asked.
 */
export function wantsHtmlPage(c: Context<AppEnv>): boolean {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return false;
  const path = c.req.path;
  if (path.startsWith('/api') || path.startsWith('/trpc') || path.endsWith('.json')) return false;
  return /(^|,)\s*text\/html\s*(;|,|$)/i.test(c.req.header('accept') ?? '');
}

/** The unknown-URL page: a titled, translated HTML document with a way back (404). */
export function notFoundPage(c: Context<AppEnv>): Response {
  const { t } = languageOf(c);
  return sendPage(c, 404, 'error.title.not_found', <ErrorPage title={t('error.title.not_found')} message={t('error.notFound')} />);
}
