import { namespaceByName, namespaces } from './site-facts.js';

/**
 * Reads a page title as MediaWikiTitleCodec::splitTitleString does on this wiki: underscores
 * and runs of spaces become one space, a leading colon goes, a known namespace prefix is split
 * off, the first letter is upper-cased; `#` starts a fragment. Returns null for a title the
 * wiki refuses: empty, illegal characters, percent-escapes, entities, relative paths, `~~~`,
 * longer than 255 bytes.
 */
export interface TitleValue {
  /** Prefixed text, as the wiki writes it (`Talk:Foo`). */
  text: string;
  namespace: number;
  /** Always false here: this wiki's interwiki map is empty. */
  interwiki: boolean;
}

/** Characters and sequences a page title (and so a user name) cannot hold. */
// eslint-disable-next-line no-control-regex
export const ILLEGAL_TITLE_CHARS = /[#<>[\]|{}\u0000-\u001f\u007f\ufffd]|%[0-9A-Fa-f]{2}|&[A-Za-z0-9\x80-\uffff]+;|&#[0-9]+;|&#x[0-9A-Fa-f]+;|~~~/;

const ucfirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Sanitizer::decodeCharReferences, which Title::newFromText applies first. */
const decodeCharReferences = (text: string) =>
  text.replace(/&(?:#x([0-9a-f]+)|#(\d+)|([a-z]+));/gi, (all, hex?: string, dec?: string, name?: string) => {
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    if (dec) return String.fromCodePoint(Number(dec));
    return NAMED_ENTITIES[name!.toLowerCase()] ?? all;
  });

export function parseTitle(value: string): TitleValue | null {
  let text = decodeCharReferences(value).replace(/[_\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/g, ' ').replace(/ {2,}/g, ' ').trim();
  // A fragment is cut off; a title that is only a fragment is a link to the current page.
  const hash = text.indexOf('#');
  if (hash >= 0) {
    text = text.slice(0, hash).trim();
    if (text === '') return { text: '', namespace: 0, interwiki: false };
  }
  if (text.startsWith(':')) text = text.slice(1).trim();
  let namespace = 0;
  const colon = text.indexOf(':');
  if (colon > 0) {
    const id = namespaceByName.get(text.slice(0, colon).trim().toLowerCase());
    if (id !== undefined) {
      namespace = id;
      text = text.slice(colon + 1).trim();
      // "Talk::Foo" and "Talk:" are not titles.
      if (text.startsWith(':')) return null;
    }
  }
  if (text === '' || ILLEGAL_TITLE_CHARS.test(text)) return null;
  if (text === '.' || text === '..' || /^\.\.?\/|\/\.\.?(\/|$)/.test(text)) return null;
  const limit = namespace === -1 ? 512 : 255;
  if (new TextEncoder().encode(text).length > limit) return null;
  const prefix = namespace === 0 ? '' : `${namespaces.find((n) => n.id === namespace)!.name}:`;
  return { text: `${prefix}${ucfirst(text)}`, namespace, interwiki: false };
}
