/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import type { AppEnv } from '../app-env.js';
import { ErrorPage, sendPage } from './render.js';
import { languageOf } from '../middleware/page-language.js';

/** What a person in a browser sees when the per-IP rate limit answers (API clients get JSON). */
export function tooManyRequestsPage(c: Context<AppEnv>): Response {
  const { t } = languageOf(c);
  return sendPage(c, 429, 'title.slowDown', <ErrorPage title={t('error.tooMany.title')} message={t('error.tooMany.body')} />);
}
