/**
 * Reads a timestamp parameter the way MediaWiki's ConvertibleTimestamp does (MediaWiki 14-digit,
 * ISO 8601, database, EXIF, Unix seconds, RFC 2822 and `now`) and returns it as ISO 8601 UTC,
 * or null when MediaWiki would answer badtimestamp. Out-of-range fields roll over (month 13 is
 * January of the next year) because PHP's DateTime does the same.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const fixedZones: Record<string, number> = {
  UT: 0, GMT: 0, Z: 0, EST: -5, EDT: -4, CST: -6, CDT: -5, MST: -7, MDT: -6, PST: -8, PDT: -7,
};

function fromParts(
  y: string, mo: string, d: string, h: string, mi: string, s: string, offsetMinutes = 0,
): number {
  // Date.UTC would read years 0–99 as 1900–1999; setUTCFullYear keeps them where they are.
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  return date.getTime() - offsetMinutes * 60_000;
}

function parseMillis(value: string, now: () => Date): number | null {
  let m: RegExpExecArray | null;
  if (value === 'now') return now().getTime();
  // TS_MW (checked before Unix seconds: both are digit strings).
  if ((m = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(value))) return fromParts(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!);
  // TS_UNIX, optionally with a fraction (TS_UNIX_MICRO).
  if (/^-?\d{1,13}(\.\d+)?$/.test(value)) return Math.floor(Number(value) * 1000);
  // TS_DB, TS_POSTGRES and TS_EXIF.
  if ((m = /^(\d{4})[-:](\d\d)[-:](\d\d) (\d\d):(\d\d):(\d\d)(?:\.\d{1,6})?(?:\+00)?$/.exec(value))) {
    return fromParts(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!);
  }
  // TS_ISO_8601 and its basic form, with Z or a numeric offset.
  if (
    (m = /^(\d{4})-?(\d\d)-?(\d\d)T(\d\d):?(\d\d):?(\d\d)(?:[.,]\d{1,6})?(?:Z|([+-])(\d\d):?(\d\d))?$/.exec(value))
  ) {
    const offset = m[7] ? (m[7] === '-' ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9])) : 0;
    return fromParts(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!, offset);
  }
  // TS_RFC2822: "Tue, 02 Jan 2024 03:04:05 GMT".
  if (
    (m = /^\s*(?:[A-Z][a-z]{2},\s*)?(\d\d?)\s*([A-Z][a-z]{2})\s*(\d{2}(?:\d{2})?)\s*(\d\d):(\d\d):(\d\d)(?:\s*([+-]\d{4}|UT|GMT|[ECMP][SD]T|Z))?\s*$/.exec(
      value,
    ))
  ) {
    const month = MONTHS.indexOf(m[2]!);
    if (month < 0) return null;
    let year = Number(m[3]);
    if (m[3]!.length === 2) year += year < 50 ? 2000 : 1900;
    const zone = m[7] ?? 'GMT';
    const offset = /^[+-]/.test(zone)
      ? (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)))
      : fixedZones[zone]! * 60;
    return fromParts(String(year), String(month + 1), m[1]!, m[4]!, m[5]!, m[6]!, offset);
  }
  return null;
}

export function parseTimestamp(value: string, now: () => Date = () => new Date()): string | null {
  const millis = parseMillis(value, now);
  if (millis === null || !Number.isFinite(millis)) return null;
  const date = new Date(millis);
  const year = date.getUTCFullYear();
  // ISO 8601 and MediaWiki's 14-digit form both need a four-digit year.
  if (Number.isNaN(year) || year < 0 || year > 9999) return null;
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
