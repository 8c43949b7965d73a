/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';

export interface LayoutProps {
  title: string;
  children: ComponentChildren;
  /** Extra same-origin scripts from /assets (inline scripts are forbidden by the CSP). */
  scripts?: string[];
  /** Signed-in email, shown in the header with a sign-out form. */
  user?: { email: string } | null;
  csrfToken?: string;
}

/** The shell of every server-rendered page: no third-party resources, light and dark. */
export function Layout({ title, children, scripts = [], user, csrfToken }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        <title>{`${title} · Secret Push`}</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/assets/style.css" />
        {scripts.map((src) => (
          <script src={`/assets/${src}`} defer />
        ))}
      </head>
      <body>
        <header class="site">
          <a class="brand" href="/">Secret Push</a>
          <nav>
            <a href="/catalogue">Catalogue</a>
            {user ? (
              <>
                <a href="/dashboard">My pushes</a>
                <a href="/users/token">API token</a>
                <form method="post" action="/users/sign_out" class="inline">
                  <input type="hidden" name="csrf_token" value={csrfToken ?? ''} />
                  <button type="submit" class="link">Sign out</button>
                </form>
              </>
            ) : (
              <a href="/users/sign_in">Sign in</a>
            )}
          </nav>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}

/** Renders a page component tree to a full HTML document string. */
export function renderPage(tree: preact.VNode): string {
  return '<!doctype html>' + renderToString(tree);
}
