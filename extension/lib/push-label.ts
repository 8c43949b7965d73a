import { kindLabels } from './push-options';

/**
 * What the extension shows for a push without ever showing the secret: its name, or its kind
 * and a hint (the first characters of the host of a pushed URL, or of the page a selection
 * came from).
 */
export function hostHint(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const { protocol, hostname } = new URL(url);
    if (protocol !== 'http:' && protocol !== 'https:') return undefined;
    return hostname.length > 24 ? `${hostname.slice(0, 23)}…` : hostname;
  } catch {
    return undefined;
  }
}

/** The hint remembered for a push: the host of the URL pushed, or of the page the text came from. */
export function pushHint(kind: string, payload: string, pageUrl?: string): string | undefined {
  const host = hostHint(kind === 'text' ? pageUrl : payload);
  return host && kind === 'text' ? `from ${host}` : host;
}

export function pushLabel(name: string | null | undefined, kind?: string, hint?: string): string {
  if (name?.trim()) return name.trim();
  if (!kind) return 'Push';
  const label = `${kindLabels[kind] ?? kind} push`;
  return hint ? `${label} ${hint.startsWith('from ') ? hint : `· ${hint}`}` : label;
}
