/**
 * A wiki request's parameters as PHP and MediaWiki's WebRequest see them:
 * - `a[]=x` and `a[k]=x` make `a` an array, which MediaWiki refuses to read (unsupportedarray);
 * - the last of repeated names wins, but keeps the place where the name first appeared;
 * - a POST body's fields come first and win over the query string's ($_POST + $_GET);
 * - values are cleaned as UtfNormal does: invalid UTF-8, U+FFFE, U+FFFF and C0 controls other than tab, LF and CR
 *   become U+FFFD, and the text is NFC-normalized; `changed` says the value had to be cleaned,
 *   which the validator reports (badutf8) for the parameters it reads.
 */
export type RequestValue = { value: string; changed: boolean } | { array: true };
export type RequestParams = ReadonlyMap<string, RequestValue>;

// eslint-disable-next-line no-control-regex
// C0 controls other than tab, LF and CR, and the noncharacters U+FFFE and U+FFFF.
const C0_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');
// Language::checkTitleEncoding: a query-string value that is not UTF-8 is read as the English
// wiki's legacy 8-bit encoding.
const legacy8bit = new TextDecoder('windows-1252');

/**
 * UtfNormal\Validator::cleanUp over a decoded string; a value that starts with U+001F keeps its
 * separators (ApiParamValidatorCallbacks cleans the pieces between them).
 */
export function cleanUpText(text: string): string {
  const clean = (s: string) => s.replace(C0_CONTROLS, '\ufffd').normalize('NFC');
  return text.startsWith('\u001f') ? text.split('\u001f').map(clean).join('\u001f') : clean(text);
}

/** Percent-decodes as PHP's urldecode (`+` is a space), keeping the bytes. */
function decodeBytes(text: string): Uint8Array {
  const bytes: number[] = [];
  const raw = new TextEncoder().encode(text.replace(/\+/g, ' '));
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i]!;
    if (b === 0x25 && i + 2 < raw.length) {
      const hex = String.fromCharCode(raw[i + 1]!, raw[i + 2]!);
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        bytes.push(parseInt(hex, 16));
        i += 2;
        continue;
      }
    }
    bytes.push(b);
  }
  return Uint8Array.from(bytes);
}

function decodeValue(text: string, fromQuery: boolean): { value: string; changed: boolean } {
  const bytes = decodeBytes(text);
  let decoded: string;
  let valid = true;
  try {
    decoded = strictUtf8.decode(bytes);
  } catch {
    valid = false;
    decoded = (fromQuery ? legacy8bit : lenientUtf8).decode(bytes);
  }
  const value = cleanUpText(decoded);
  return { value, changed: !valid || value !== decoded };
}

/** PHP's name parsing: `a[...]` is an array named `a`. */
function parseName(name: string): { name: string; array: boolean } {
  const m = /^([^[]+)\[[^\]]*\]/.exec(name);
  return m ? { name: m[1]!, array: true } : { name, array: false };
}

function addPairs(into: Map<string, RequestValue>, pairs: Iterable<[string, RequestValue]>) {
  for (const [rawName, value] of pairs) {
    const { name, array } = parseName(rawName);
    if (name === '') continue;
    into.set(name, array ? { array: true } : value);
  }
}

function queryPairs(query: string, fromQuery: boolean): [string, RequestValue][] {
  const pairs: [string, RequestValue][] = [];
  for (const part of query.replace(/^\?/, '').split('&')) {
    if (part === '') continue;
    const at = part.indexOf('=');
    const name = decodeValue(at < 0 ? part : part.slice(0, at), fromQuery).value;
    pairs.push([name, decodeValue(at < 0 ? '' : part.slice(at + 1), fromQuery)]);
  }
  return pairs;
}

/**
 * The request's parameters from its query string and, for a POST, its body fields (already
 * decoded, from a form or multipart body) or its form-encoded body text.
 */
export function parseRequest(query: string, body?: string | readonly [string, string][]): RequestParams {
  const params = new Map<string, RequestValue>();
  if (typeof body === 'string') addPairs(params, queryPairs(body, false));
  else if (body) {
    addPairs(params, body.map(([name, value]): [string, RequestValue] => {
      const cleaned = cleanUpText(value);
      return [name, { value: cleaned, changed: cleaned !== value }];
    }));
  }
  const fromQuery = new Map<string, RequestValue>();
  addPairs(fromQuery, queryPairs(query, true));
  for (const [name, value] of fromQuery) if (!params.has(name)) params.set(name, value);
  return params;
}

/** Parameters given as a record (the validate endpoint's JSON form): clean strings already. */
export function requestFromRecord(record: Readonly<Record<string, string>>): RequestParams {
  return new Map(
    Object.entries(record).map(([name, value]): [string, RequestValue] => {
      const cleaned = cleanUpText(value);
      return [name, { value: cleaned, changed: cleaned !== value }];
    }),
  );
}
