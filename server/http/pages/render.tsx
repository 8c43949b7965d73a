/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ComponentChildren } from 'preact';
import type { AppEnv } from '../app-env.js';
import { findPageSession } from '../middleware/session.js';
import { Layout, renderPage } from './layout.js';

/** Renders a page inside the common layout, with the visitor's sign-in state in the header. */
export function sendPage(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  title: string,
  body: ComponentChildren,
  options: { scripts?: string[] } = {},
): Response {
  const session = findPageSession(c);
  const html = renderPage(
    <Layout title={title} user={session?.user ?? null} csrfToken={session?.csrfToken} scripts={['pages.js', ...(options.scripts ?? [])]}>
      {body}
    </Layout>,
  );
  return c.html(html, status);
}

export function ErrorPage({ title, message, children }: { title: string; message: string; children?: ComponentChildren }) {
  return (
    <section class="card center">
      <h1>{title}</h1>
      <p>{message}</p>
      {children}
      <p>
        <a href="/">Back to the start page</a>
      </p>
    </section>
  );
}
