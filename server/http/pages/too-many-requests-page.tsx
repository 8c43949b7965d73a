/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import type { AppEnv } from '../app-env.js';
import { ErrorPage, sendPage } from './render.js';

/** What a person in a browser sees when the per-IP rate limit answers (API clients get JSON). */
export function tooManyRequestsPage(c: Context<AppEnv>): Response {
  return sendPage(
    c,
    429,
    'Slow down',
    <ErrorPage title="Too many requests" message="This address has sent too many requests in the last minute. Please wait a minute and try again." />,
  );
}
