import { ServiceError } from '../../service-error.js';

/**
 * Rails-style bracket keys (`push[payload]`, `push[files][]`) → nested objects, as Password
 * Pusher's form and multipart clients send them. Keys that could pollute prototypes are dropped.
 *
 * One entry is one walk down its key's parts and one write, so a body parses in time linear in
 * its size (issue 28: appending to a `key[]` array by copying it made 40,000 entries take 14 s).
 * A body is also capped in entries and in depth, refused with a sentence naming the limit:
 * nothing Password Pusher's clients or this server's pages send comes near either.
 */
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);
/** Brackets after the name: `push[files][]` is 2. */
export const MAX_DEPTH = 4;
/** Entries in one form body: PHP's max_input_vars default; the create form sends about 15. */
export const MAX_FORM_ENTRIES = 1000;

export type Params = { [key: string]: string | string[] | Params };

/** Counts the parser's steps (a key part walked, a value written): tests check they grow linearly. */
export interface ParseMeter {
  steps: number;
}

const KEY = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;

/** The parts of a bracket key (`push[files][]` → push, files, ''), or null for a malformed or forbidden one. */
export function splitKey(key: string): string[] | null {
  const m = KEY.exec(key);
  if (!m) return null;
  const parts = [m[1]!, ...[...m[2]!.matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1]!)];
  if (parts.length > MAX_DEPTH + 1) throw tooDeep(key);
  if (parts.some((p) => FORBIDDEN.has(p))) return null;
  return parts;
}

function tooDeep(key: string): ServiceError {
  const shown = key.length > 60 ? `${key.slice(0, 60)}…` : key;
  return new ServiceError('bad_request', `The form field "${shown}" nests deeper than ${MAX_DEPTH} brackets, the limit.`);
}

export function setParam(target: Params, key: string, value: string, meter?: ParseMeter): void {
  const parts = splitKey(key);
  if (!parts) return;
  let node: Params = target;
  for (let i = 0; i < parts.length; i++) {
    if (meter) meter.steps++;
    const part = parts[i]!;
    const last = i === parts.length - 1;
    const next = parts[i + 1];
    if (last) {
      if (part === '') return; // `a[]` handled by the parent step
      node[part] = value;
      return;
    }
    if (next === '' && i + 1 === parts.length - 1) {
      // Appended in place: the array is this parser's own, never shared.
      const existing = node[part];
      if (Array.isArray(existing)) existing.push(value);
      else node[part] = [value];
      return;
    }
    const child = node[part];
    if (typeof child !== 'object' || Array.isArray(child)) node[part] = Object.create(null) as Params;
    node = node[part] as Params;
  }
}

/** A body's entries, refused past MAX_FORM_ENTRIES (413) before any is parsed. */
export function paramsFromEntries(entries: Iterable<[string, string]>, meter?: ParseMeter): Params {
  const out = Object.create(null) as Params;
  let count = 0;
  for (const [k, v] of entries) {
    if (++count > MAX_FORM_ENTRIES) throw tooManyEntries();
    setParam(out, k, v, meter);
  }
  return out;
}

/**
 * A form-encoded body → params. The entries are counted on the raw text first, so a body of a
 * million `key[]=` entries is refused after one scan, without decoding any of them. A %-escape
 * that is malformed or not UTF-8 (`%ff`) is refused, as Rack refuses it: URLSearchParams would
 * turn it into U+FFFD and store a different secret than the one sent.
 */
export function paramsFromForm(body: string, meter?: ParseMeter): Params {
  // Counted as URLSearchParams counts them: empty pieces between `&`s are no entries.
  let entries = 0;
  let percent = body.indexOf('%');
  for (let start = 0; start <= body.length; ) {
    let end = body.indexOf('&', start);
    if (end === -1) end = body.length;
    if (meter) meter.steps++;
    if (end > start && ++entries > MAX_FORM_ENTRIES) throw tooManyEntries();
    // The next % is looked up again only once the scan has passed it: searching from every
    // piece's start would rescan the rest of the body per piece (4 MB of '&' then one '%': 0.95 s of CPU, now 0.07 s).
    if (percent !== -1 && percent < start) percent = body.indexOf('%', start);
    if (percent !== -1 && percent < end) assertPercentEncoding(body.slice(start, end));
    start = end + 1;
  }
  return paramsFromEntries(new URLSearchParams(body), meter);
}

function assertPercentEncoding(piece: string): void {
  try {
    decodeURIComponent(piece);
  } catch {
    const name = piece.split('=', 1)[0]!.slice(0, 60);
    throw new ServiceError('bad_request', `The form field "${name}" has a malformed %-escape or one that is not UTF-8.`);
  }
}

export function tooManyEntries(): ServiceError {
  return new ServiceError('payload_too_large', `Too many form fields: the limit is ${MAX_FORM_ENTRIES} in one body.`);
}
