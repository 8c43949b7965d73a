/**
 * Reads a title parameter (info's linkcontext) as the wiki normalizes page titles: underscores
 * become spaces, runs of spaces collapse, the first letter is upper-cased. Returns null for a
 * title MediaWiki would refuse (characters that cannot appear in titles, empty or too long).
 */
/** Characters and sequences a page title (and so a user name) cannot hold. */
// eslint-disable-next-line no-control-regex
export const ILLEGAL_TITLE_CHARS = /[#<>[\]|{}\u0000-\u001f\u007f\ufffd]|%[0-9A-Fa-f]{2}|&[A-Za-z0-9#]+;|~~~/;

export function parseTitle(value: string): string | null {
  const title = value.replace(/_/g, ' ').replace(/ {2,}/g, ' ').trim().replace(/^:/, '').trim();
  if (title === '' || ILLEGAL_TITLE_CHARS.test(title) || new TextEncoder().encode(title).length > 255) return null;
  if (title === '.' || title === '..' || /^\.\.?\/|\/\.\.?(\/|$)/.test(title)) return null;
  return title.charAt(0).toUpperCase() + title.slice(1);
}
