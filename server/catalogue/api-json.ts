/**
 * How MediaWiki's JSON printer writes a result, per formatversion:
 * - 1: true booleans become "", false ones are left out (pywikibot tests `'multi' in param`),
 *   and every non-ASCII character is escaped as \uXXXX unless `utf8` is set;
 * - 2: booleans stay booleans and UTF-8 is written as is unless `ascii` is set.
 * Slashes are never escaped (FormatJson uses JSON_UNESCAPED_SLASHES).
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export function toFormatVersion1(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(toFormatVersion1);
  if (value === null || typeof value !== 'object') return value;
  const out: { [key: string]: JsonValue } = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === false) continue;
    out[key] = v === true ? '' : toFormatVersion1(v);
  }
  return out;
}

// PHP writes lower-case hex and UTF-16 surrogate pairs, as \uXXXX escapes of code units do.
const escapeUnit = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

export function encodeJson(value: JsonValue, { asciiOnly }: { asciiOnly: boolean }): string {
  const json = JSON.stringify(value);
  // U+2028/2029 are escaped even in UTF-8 output: they end lines in JavaScript.
  return asciiOnly ? json.replace(/[\u0080-\uffff]/g, escapeUnit) : json.replace(/[\u2028\u2029]/g, escapeUnit);
}
