import { pushKindsItem } from './settings-storage';

/**
 * Push records do not say their kind. The extension remembers the kind of the pushes it made,
 * keyed by a hash of the URL token (the token itself is a secret and is not stored).
 */
const MAX_REMEMBERED = 500;

export async function tokenKey(urlToken: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(urlToken));
  return Array.from(new Uint8Array(digest).slice(0, 12), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function rememberKind(urlToken: string, kind: string): Promise<void> {
  const key = await tokenKey(urlToken);
  const map = await pushKindsItem.getValue();
  const entries = Object.entries(map).filter(([k]) => k !== key);
  entries.push([key, kind]);
  await pushKindsItem.setValue(Object.fromEntries(entries.slice(-MAX_REMEMBERED)));
}

/** Kinds of the given tokens, where known: `{ [urlToken]: kind }`. */
export async function recallKinds(urlTokens: string[]): Promise<Record<string, string>> {
  const map = await pushKindsItem.getValue();
  const out: Record<string, string> = {};
  await Promise.all(
    urlTokens.map(async (t) => {
      const kind = map[await tokenKey(t)];
      if (kind) out[t] = kind;
    }),
  );
  return out;
}
