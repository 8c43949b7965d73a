/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ComponentChildren } from 'preact';
import type { AppEnv } from '../app-env.js';
import { languageOf } from '../middleware/page-language.js';
import { findPageSession } from '../middleware/session.js';
import { LanguageContext, useLanguage } from './i18n/i18n-context.js';
import { locales } from './i18n/locales.js';
import type { MessageKey } from './i18n/messages/en.js';
import { Layout, renderPage } from './layout.js';

/**
 * A page title: a message key (translated), or `{ verbatim }` for the catalogue's reference pages,
 * whose titles are module names and whose text is MediaWiki's English.
 */
export type PageTitle = MessageKey | { verbatim: string };

/**
 * Renders a page inside the common layout, in the visitor's language (see languageOf), with the
 * visitor's sign-in state in the header.
 */
export function sendPage(
  c: Context<AppEnv>,
  status: ContentfulStatusCode,
  title: PageTitle,
  body: ComponentChildren,
  options: { scripts?: string[] } = {},
): Response {
  const session = findPageSession(c);
  const language = languageOf(c);
  const html = renderPage(
    <LanguageContext.Provider value={language}>
      <Layout
        title={typeof title === 'string' ? language.t(title) : title.verbatim}
        user={session?.user ?? null}
        csrfToken={session?.csrfToken}
        scripts={['pages.js', ...(options.scripts ?? [])]}
        languageLinks={languageLinks(c)}
        currentPath={c.req.path}
        brand={c.get('brand')}
      >
        {body}
      </Layout>
    </LanguageContext.Provider>,
  );
  c.header('Content-Language', language.locale);
  const imageOrigin = c.get('brand')?.imageOrigin;
  if (imageOrigin) {
    // A logo on the operator's own host (BRAND_LOGO_URL): that origin is allowed for images only.
    // A page's own policy (the end-to-end recipient page's frames, the connect page's form-action)
    // is on Hono's response and wins; else requestFrame's, on Node's response (or Hono's).
    const outgoing = c.env?.outgoing as { getHeader?: (name: string) => unknown } | undefined;
    const policy = String(c.res.headers.get('content-security-policy') ?? outgoing?.getHeader?.('content-security-policy') ?? '');
    if (policy) c.header('Content-Security-Policy', policy.replace(/img-src ([^;]*)/, `img-src $1 ${imageOrigin}`));
  }
  c.header('Vary', 'Accept-Language, Cookie', { append: true });
  return c.html(html, status);
}

/**
 * The language menu's links: the same page with `?lang=`. Not on secret links (/p/…): opening
 * one again may count a view, and the recipient's browser language is used there.
 */
function languageLinks(c: Context<AppEnv>): { locale: string; href: string }[] | undefined {
  if (c.req.method !== 'GET' || c.req.path.startsWith('/p/')) return undefined;
  const url = new URL(c.req.url);
  return locales.map((locale) => {
    url.searchParams.set('lang', locale);
    return { locale, href: `${url.pathname}${url.search}` };
  });
}

/** A page-sized message: heading, text, and a way back. `title` and `message` are already in the page's language. */
export function ErrorPage({ title, message, children }: { title: string; message: string; children?: ComponentChildren }) {
  const { t } = useLanguage();
  return (
    <section class="card center">
      <h1>{title}</h1>
      <p>{message}</p>
      {children}
      <p>
        <a href="/">{t('common.backToStart')}</a>
      </p>
    </section>
  );
}
