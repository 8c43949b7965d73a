/**
 * "Connect" (issue 30 item 4): the extension gets an API token by the user signing in to the
 * server, not by pasting one. An authorization-code exchange with PKCE (S256): the server's
 * /extension/connect page opens in the browser's identity window (launchWebAuthFlow), the user
 * signs in however the server allows and approves; the window is sent to this extension's
 * redirect URL with a one-time code, which is exchanged, with the verifier only this run knows,
 * at /extension/token. The token never appears in a URL. Runs in the background: the popup
 * closes when the window opens (Chromium), and the token must still be saved.
 */
import { t } from './i18n';

export interface ConnectFlowEnv {
  /** identity.getRedirectURL(): https://<id>.chromiumapp.org/ or https://<hash>.extensions.allizom.org/ */
  redirectUrl(): string;
  /** identity.launchWebAuthFlow({ url, interactive: true }): the URL the window was sent to. */
  launchWebAuthFlow(url: string): Promise<string | undefined>;
  fetch: typeof fetch;
  /** crypto.getRandomValues and SHA-256 (the Web Crypto API). */
  crypto: Pick<Crypto, 'getRandomValues' | 'subtle'>;
}

export type ConnectAnswer =
  | { ok: true; token: string; label: string }
  /** cancelled: the user closed the window or said no; refused: the server would not give a token; failed: anything else. */
  | { ok: false; reason: 'cancelled' | 'refused' | 'failed'; detail: string };

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A PKCE verifier (32 random bytes) and its S256 challenge. */
export async function makePkce(crypto: ConnectFlowEnv['crypto']): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

export async function connectExtension(env: ConnectFlowEnv, serverUrl: string): Promise<ConnectAnswer> {
  const server = serverUrl.replace(/\/+$/, '');
  const redirectUri = env.redirectUrl();
  const { verifier, challenge } = await makePkce(env.crypto);
  const state = base64url(env.crypto.getRandomValues(new Uint8Array(16)));
  const query = new URLSearchParams({ redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state });
  let landed: string | undefined;
  try {
    landed = await env.launchWebAuthFlow(`${server}/extension/connect?${query}`);
  } catch (err) {
    // Chromium: "The user did not approve access."; Firefox: "User cancelled or denied access."
    return { ok: false, reason: 'cancelled', detail: err instanceof Error ? err.message : String(err) };
  }
  if (!landed || !landed.startsWith(redirectUri)) return { ok: false, reason: 'failed', detail: t('connect_bad_answer') };
  const answer = new URL(landed).searchParams;
  if (answer.get('state') !== state) return { ok: false, reason: 'failed', detail: t('connect_bad_answer') };
  if (answer.get('error') === 'access_denied') return { ok: false, reason: 'cancelled', detail: 'access_denied' };
  const code = answer.get('code');
  if (!code) return { ok: false, reason: 'failed', detail: answer.get('error') ?? t('connect_bad_answer') };
  let res: Response;
  try {
    res = await env.fetch(`${server}/extension/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri }),
    });
  } catch (err) {
    return { ok: false, reason: 'failed', detail: err instanceof Error ? err.message : String(err) };
  }
  const body = (await res.json().catch(() => ({}))) as { token?: unknown; label?: unknown; error?: unknown; error_description?: unknown };
  if (res.ok && typeof body.token === 'string') return { ok: true, token: body.token, label: typeof body.label === 'string' ? body.label : '' };
  const said = typeof body.error_description === 'string' ? body.error_description : `HTTP ${res.status}`;
  return { ok: false, reason: res.status === 400 ? 'refused' : 'failed', detail: said };
}
