import { t, tn, type MessageKey } from './i18n';
import { kindLabel } from './push-options';

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

/** A file push's hint: its first file name (cut at 32 characters), and how many more there are. */
export function fileNamesHint(names: readonly string[] | undefined): string | undefined {
  const first = names?.find((n) => n.trim() !== '')?.trim();
  if (!first || !names) return undefined;
  const shown = [...first].length > 32 ? `${[...first].slice(0, 31).join('')}…` : first;
  const more = names.length - 1;
  return more > 0 ? tn('file_names_more', more, shown, more) : shown;
}

/**
 * What History calls a push besides its name: what this browser remembers of it (the kind and
 * hint of a push made here, which may hold what the server must not know, such as the name of
 * an end-to-end encrypted file), else what the owner's record says (`file_names`).
 */
export function knownOrListed(remembered: { kind: string; hint?: string } | undefined, fileNames: readonly string[] | undefined): { kind: string; hint?: string } | undefined {
  const listed = fileNamesHint(fileNames);
  if (remembered) return remembered.hint || !listed ? remembered : { ...remembered, hint: listed };
  return listed ? { kind: 'file', hint: listed } : undefined;
}

/** The hint remembered for a push: the host of the URL pushed, or of the page the text came from. */
export function pushHint(kind: string, payload: string, pageUrl?: string): string | undefined {
  const host = hostHint(kind === 'text' ? pageUrl : payload);
  return host && kind === 'text' ? `from ${host}` : host;
}

const labelKeys: Record<string, MessageKey> = { text: 'push_label_text', url: 'push_label_url', qr: 'push_label_qr', file: 'push_label_file' };

/**
 * The name, else "Text push from example.org" / "URL push · example.org". The hint is stored
 * as `pushHint` made it ("from <host>" for text): it is data, worded only here.
 */
export function pushLabel(name: string | null | undefined, kind?: string, hint?: string): string {
  if (name?.trim()) return name.trim();
  if (!kind) return t('push_label_none');
  const label = labelKeys[kind] ? t(labelKeys[kind]) : kind;
  if (!hint) return label;
  return hint.startsWith('from ') ? t('push_label_from', label, hint.slice('from '.length)) : `${label} · ${hint}`;
}

/** What History shows of a push: its title, and the kind's name when known. */
export interface PushTitle {
  title: string;
  kind?: string;
}

/**
 * The titles of listed pushes from what this browser remembers of them (kind-memory.ts) and
 * their records. Made by the background for the popup (relay.ts), which ships none of this.
 */
export function pushTitles(
  records: ReadonlyArray<{ url_token: string; name: string | null; file_names?: string[] }>,
  remembered: Record<string, { kind: string; hint?: string }>,
): Record<string, PushTitle> {
  return Object.fromEntries(
    records.map((r) => {
      const shown = knownOrListed(remembered[r.url_token], r.file_names);
      return [r.url_token, { title: pushLabel(r.name, shown?.kind, shown?.hint), ...(shown ? { kind: kindLabel(shown.kind) } : {}) }];
    }),
  );
}
