/**
 * The redirect URIs the extension may ask a code to be sent to: only what the browsers' identity
 * API gives an extension, so a code can reach no web site.
 * - Chromium: `chrome.identity.getRedirectURL()` is `https://<extension id>.chromiumapp.org/`
 *   (the id: 32 letters a–p), with an optional path.
 * - Firefox: `browser.identity.getRedirectURL()` is `https://<hex SHA-1 of the add-on id>.extensions.allizom.org/`
 *   (40 hex digits), with an optional path.
 * launchWebAuthFlow ends when its window is sent there; the browser never loads the address.
 */
export type ExtensionBrowser = 'Chromium' | 'Firefox';

const forms: Array<{ host: RegExp; browser: ExtensionBrowser }> = [
  { host: /^[a-p]{32}\.chromiumapp\.org$/, browser: 'Chromium' },
  { host: /^[0-9a-f]{40}\.extensions\.allizom\.org$/, browser: 'Firefox' },
];

export interface ExtensionRedirect {
  uri: string;
  browser: ExtensionBrowser;
  /** The extension's identity as the browser shows it in the address (id or hash). */
  extensionHost: string;
}

/** The redirect URI when it is one of the two forms (https, no port, credentials, query or fragment), else null. */
export function extensionRedirect(raw: unknown): ExtensionRedirect | null {
  if (typeof raw !== 'string' || raw.length > 300) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.port || url.username || url.password || url.search || url.hash || raw.includes('#')) return null;
  // The text as given must be the URL as parsed (no case, escapes or dot segments to read twice).
  if (url.href !== raw || !/^\/[A-Za-z0-9._~/-]*$/.test(url.pathname) || url.pathname.includes('/.')) return null;
  const form = forms.find((f) => f.host.test(url.hostname));
  return form ? { uri: raw, browser: form.browser, extensionHost: url.hostname.split('.')[0]! } : null;
}
