import { isIPv6 } from 'node:net';
import type { UserSubtype } from '../../shared/catalogue-schema.js';
import { ILLEGAL_TITLE_CHARS } from './title-value.js';

/**
 * Reads a user parameter the way MediaWiki's UserDef does: `#123` is an id, `prefix>Name` an
 * interwiki name, then a valid user name (temporary when it starts with `~`), then an IP
 * address, then a CIDR range. Returns the kind and the normalized value, or null when the
 * value is none of them.
 */
export interface UserValue {
  kind: UserSubtype;
  value: string;
}

const IPV4_BYTE = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|0?\\d?\\d)';
const IPV4 = new RegExp(`^${IPV4_BYTE}(?:\\.${IPV4_BYTE}){3}$`);
// UserNameUtils::isIP also treats anything shaped like a dotted quad as an IP, valid or not.
const IPV4_SHAPED = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.(?:xxx|\d{1,3})$/;

// Namespace names of a default English wiki: "User:Foo" names a page, not a user.
const NAMESPACE_NAMES = new Set(
  ['media', 'special', 'talk', 'user', 'user talk', 'project', 'project talk', 'file', 'file talk', 'image',
    'image talk', 'mediawiki', 'mediawiki talk', 'template', 'template talk', 'help', 'help talk', 'category',
    'category talk'],
);

// UserNameUtils::isValid's additional troublemakers (control, space-like and private-use characters).
const TROUBLEMAKERS = /[\u0080-\u00a0\u2000-\u200f\u2028-\u202f\u3000\ue000-\uf8ff]/;

const utf8Length = (s: string) => new TextEncoder().encode(s).length;

function isIPv4(value: string): boolean {
  return IPV4.test(value);
}

/** IPUtils::sanitizeIP: IPv4 without leading zeros; IPv6 upper-cased and written out in full. */
function sanitizeIP(ip: string): string {
  if (isIPv4(ip)) return ip.split('.').map((b) => String(Number(b))).join('.');
  let groups: string[];
  if (ip.includes('::')) {
    const [head, tail] = ip.split('::') as [string, string];
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  } else {
    groups = ip.split(':');
  }
  return groups.map((g) => g.replace(/^0+(?=.)/, '').toUpperCase()).join(':');
}

function isIP(value: string): boolean {
  return isIPv4(value) || (isIPv6(value) && !value.includes('.')) || IPV4_SHAPED.test(value);
}

function validRange(value: string): string | null {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(value);
  if (!m) return null;
  const bits = Number(m[2]);
  if (isIPv4(m[1]!) && bits <= 32) return `${sanitizeIP(m[1]!)}/${bits}`;
  if (isIPv6(m[1]!) && !m[1]!.includes('.') && bits <= 128) return `${sanitizeIP(m[1]!)}/${bits}`;
  return null;
}

/** UserNameUtils::getCanonical with RIGOR_VALID: the canonical name, or null if invalid. */
function canonicalName(raw: string): string | null {
  if (raw.includes('#')) return null;
  const name = raw.replace(/_/g, ' ').replace(/ {2,}/g, ' ').trim();
  if (name === '' || name.startsWith(':') || ILLEGAL_TITLE_CHARS.test(name) || TROUBLEMAKERS.test(name)) return null;
  if (name.includes('/') || utf8Length(name) > 255 || isIP(name)) return null;
  const colon = name.indexOf(':');
  if (colon > 0 && NAMESPACE_NAMES.has(name.slice(0, colon).trim().toLowerCase())) return null;
  if (name === '.' || name === '..' || name.startsWith('./') || name.startsWith('../')) return null;
  // Force the first letter to upper case, as the wiki does for every user name.
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function classify(value: string): UserValue | null {
  // `#0` and unknown ids are still ids (of "Unknown user").
  const id = /^#(\d+)$/.exec(value);
  if (id) return { kind: 'id', value: `#${Number(id[1])}` };
  // ExternalUserNames::isExternal: any `>` makes an interwiki name.
  if (value.includes('>')) return value.includes('#') ? null : { kind: 'interwiki', value };
  // getCanonical parses the name as a title in the User namespace first: `User:Foo` is Foo.
  const name = canonicalName(value.replace(/^\s*user\s*:/i, ''));
  if (name !== null) return { kind: name.startsWith('~') ? 'temp' : 'name', value: name };
  if (value.includes('#')) return null;
  const spaced = value.replace(/^\s*user\s*:/i, '').replace(/_/g, ' ').trim();
  if (isIPv4(spaced) || (isIPv6(spaced) && !spaced.includes('.'))) return { kind: 'ip', value: sanitizeIP(spaced) };
  const range = validRange(spaced);
  if (range) return { kind: 'cidr', value: range };
  return null;
}

export function parseUserValue(value: string, allowed: readonly UserSubtype[]): UserValue | null {
  const user = classify(value);
  return user && allowed.includes(user.kind) ? user : null;
}

/** IPUtils: an IP address or CIDR range, with its family and prefix length (none for a single address). */
export function parseIpOrRange(value: string): { family: 'IPv4' | 'IPv6'; bits?: number } | null {
  const m = /^([^/]+)(?:\/(\d{1,3}))?$/.exec(value);
  if (!m) return null;
  const family = isIPv4(m[1]!) ? 'IPv4' : isIPv6(m[1]!) && !m[1]!.includes('.') ? 'IPv6' : null;
  if (!family) return null;
  if (m[2] === undefined) return { family };
  const bits = Number(m[2]);
  return bits <= (family === 'IPv4' ? 32 : 128) ? { family, bits } : null;
}
