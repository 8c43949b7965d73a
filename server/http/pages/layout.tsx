/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { useLanguage } from './i18n/i18n-context.js';
import { localeNames, type Locale } from './i18n/locales.js';
import type { Brand } from '../../branding/brand.js';
import type { MessageKey } from './i18n/messages/en.js';

export interface LayoutProps {
  /** The page's own title, already translated. */
  title: string;
  children: ComponentChildren;
  /** Extra same-origin scripts from /assets (inline scripts are forbidden by the CSP). */
  scripts?: string[];
  /** Signed-in email, shown in the header with a sign-out form. */
  user?: { email: string; admin?: boolean } | null;
  csrfToken?: string;
  /** The language menu (omitted where reloading the page is not harmless). */
  languageLinks?: { locale: string; href: string }[];
  /** The request's path: its header link is marked as the current page. */
  currentPath?: string;
  /** The operator's branding (server/branding/brand.ts); absent: the product's own look. */
  brand?: Brand;
}

/** The shell of every server-rendered page: no third-party resources, light and dark, either direction. */
export function Layout({ title, children, scripts = [], user, csrfToken, languageLinks, currentPath, brand }: LayoutProps) {
  const { t, locale, dir } = useLanguage();
  const name = brand?.name ?? t('layout.brand');
  const footerLinks = (brand?.footerLinks ?? []).map((l) => (
    <a href={l.href} rel="noopener">
      {t(`layout.footer.${l.kind}` as MessageKey)}
    </a>
  ));
  // Where you are, for sight (style.css) and for screen readers alike.
  const current = (href: string) => (href === currentPath ? { 'aria-current': 'page' as const } : {});
  return (
    <html lang={locale} dir={dir}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        <title>{brand?.name ? `${title} · ${brand.name}` : t('layout.titleSuffix', { title })}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/assets/style.css" />
        {brand?.css && <link rel="stylesheet" href="/assets/brand.css" />}
        {scripts.map((src) => (
          <script src={`/assets/${src}`} defer />
        ))}
      </head>
      <body>
        <a class="skip-link" href="#main">
          {t('layout.skip')}
        </a>
        <header class="site">
          <a class="brand" href="/">
            {brand?.logo && <img class="brand-logo" src={brand.logo.src} alt="" height={28} />}
            {name}
          </a>
          {/* One navigation for the account area: every account page is one click from any other. */}
          <nav aria-label={t('layout.account')}>
            <a href="/" {...current('/')}>{t('layout.newSecret')}</a>
            {user ? (
              <>
                <a href="/dashboard" {...current('/dashboard')}>{t('layout.myPushes')}</a>
                <a href="/users/requests" {...current('/users/requests')}>{t('layout.requests')}</a>
                <a href="/users/webhooks" {...current('/users/webhooks')}>{t('layout.webhooks')}</a>
                <a href="/users/token" {...current('/users/token')}>{t('layout.apiToken')}</a>
                {user.admin && <a href="/admin" {...current('/admin')}>{t('layout.admin')}</a>}
                <form method="post" action="/users/sign_out" class="inline">
                  <input type="hidden" name="csrf_token" value={csrfToken ?? ''} />
                  <button type="submit" class="link">
                    {t('layout.signOut')}
                  </button>
                </form>
              </>
            ) : (
              <a href="/users/sign_in" {...current('/users/sign_in')}>{t('layout.signIn')}</a>
            )}
          </nav>
        </header>
        <main id="main" tabindex={-1}>
          {children}
        </main>
        {/* Not on secret links (/p/…): neither the language menu nor the catalogue is in a recipient's way there. */}
        {languageLinks && (
          <footer class="site">
            <nav class="languages" aria-label={t('layout.language')}>
              {languageLinks.map((l) => (
                <a href={l.href} lang={l.locale} hreflang={l.locale} aria-current={l.locale === locale ? 'true' : undefined}>
                  {localeNames[l.locale as Locale]}
                </a>
              ))}
            </nav>
            <p class="footer-links">
              <a href="/catalogue">{t('layout.footerCatalogue')}</a>
              <a href="/privacy/extension">{t('layout.footer.extensionPrivacy')}</a>
              {footerLinks}
            </p>
          </footer>
        )}
        {/* On secret links the operator's legal links still show (an imprint may be required on every page). */}
        {!languageLinks && footerLinks.length > 0 && (
          <footer class="site">
            <p class="footer-links">{footerLinks}</p>
          </footer>
        )}
      </body>
    </html>
  );
}

/** Renders a page component tree to a full HTML document string. */
export function renderPage(tree: preact.VNode): string {
  return '<!doctype html>' + renderToString(tree);
}
