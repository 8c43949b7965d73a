import { t } from './i18n';

/**
 * The server address a user types, made canonical or refused with a message that says what is
 * wrong. The origin pattern is what the extension asks host permission for.
 */
export type ServerUrlCheck =
  | { ok: true; url: string; origin: string; host: string; originPattern: string; plainHttpRemote: boolean }
  | { ok: false; error: string };

/** What a server address looks like (the field's placeholder and the examples in messages). */
export const exampleServerUrl = 'https://push.example.org';
const example = exampleServerUrl;

/** 127.0.0.0/8, ::1 and localhost: plain http there never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

export function checkServerUrl(input: string): ServerUrlCheck {
  let text = input.trim();
  if (!text) return { ok: false, error: t('addr_empty', example) };
  if (/\s/.test(text)) return { ok: false, error: t('addr_space', text) };
  // "http//host", "https:/host": the colon or a slash is missing; the intent is plain.
  text = text.replace(/^(https?)(?::\/?|\/\/?)(?!\/)(?=[^/])/i, (_, scheme: string) => `${scheme.toLowerCase()}://`);
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    // No scheme. A bare name is a public server: https. A port says it is not a standard web
    // server, and guessing https for it would fail (or worse, for http, succeed elsewhere).
    const port = /^[^/:]+:(\d+)(\/|$)/.exec(text);
    if (port) {
      const hostPort = text.replace(/\/.*$/, '');
      return {
        ok: false,
        error: t('addr_port', hostPort),
      };
    }
    text = `https://${text}`;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, error: t('addr_invalid', input.trim(), example) };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, error: t('addr_scheme', url.protocol) };
  }
  if (!url.hostname) return { ok: false, error: t('addr_no_host', input.trim(), example) };
  if (url.username || url.password) return { ok: false, error: t('addr_credentials') };
  const path = url.pathname.replace(/\/+$/, '');
  return {
    ok: true,
    url: `${url.origin}${path}`,
    origin: url.origin,
    host: url.host,
    // Match patterns take no port: Chromium and Firefox then match every port of the host.
    originPattern: `${url.protocol}//${url.hostname}/*`,
    plainHttpRemote: url.protocol === 'http:' && !isLoopbackHost(url.hostname),
  };
}

/** The server's page where a signed-in user makes an API token. */
export function tokenPageUrl(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}/users/token`;
}
