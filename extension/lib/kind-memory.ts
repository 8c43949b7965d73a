import { pushKindsItem } from './settings-storage';

/**
 * Push records do not say their kind or what they hold. The extension remembers, for the
 * pushes it made, the kind and a hint that is never the secret (see push-label.ts), keyed by a
 * hash of the URL token (the token itself is a secret and is not stored).
 */
const MAX_REMEMBERED = 500;

export interface RememberedPush {
  kind: string;
  hint?: string;
}

export async function tokenKey(urlToken: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(urlToken));
  return Array.from(new Uint8Array(digest).slice(0, 12), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function rememberKind(urlToken: string, kind: string, hint?: string): Promise<void> {
  const key = await tokenKey(urlToken);
  const map = await pushKindsItem.getValue();
  const entries = Object.entries(map).filter(([k]) => k !== key);
  // "kind" or "kind hint": one string per push keeps the stored map flat and small.
  entries.push([key, hint ? `${kind} ${hint}` : kind]);
  await pushKindsItem.setValue(Object.fromEntries(entries.slice(-MAX_REMEMBERED)));
}

/** What is known of the given tokens: `{ [urlToken]: { kind, hint } }`. */
export async function recallKinds(urlTokens: string[]): Promise<Record<string, RememberedPush>> {
  const map = await pushKindsItem.getValue();
  const out: Record<string, RememberedPush> = {};
  await Promise.all(
    urlTokens.map(async (t) => {
      const value = map[await tokenKey(t)];
      if (!value) return;
      const space = value.indexOf(' ');
      out[t] = space < 0 ? { kind: value } : { kind: value.slice(0, space), hint: value.slice(space + 1) };
    }),
  );
  return out;
}
