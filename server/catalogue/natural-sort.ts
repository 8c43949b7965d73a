/**
 * PHP's strnatcmp(), byte for byte: MediaWiki sorts enumeration values with SORT_NATURAL
 * (case-sensitive), and clients compare our paraminfo with a wiki's, so "close enough" (such as
 * Intl.Collator with numeric: true, which ignores case) would reorder values like `UnBlock`
 * and `Underline`.
 */
const encoder = new TextEncoder();

const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;
// C isspace(): space, \t, \n, \v, \f, \r.
const isSpace = (c: number | undefined): boolean => c === 0x20 || (c !== undefined && c >= 0x09 && c <= 0x0d);

/** Integers of different magnitude: the longer run of digits wins, otherwise the first difference. */
function compareRight(a: Uint8Array, ai: number, b: Uint8Array, bi: number): [number, number, number] {
  let bias = 0;
  for (; ; ai++, bi++) {
    const da = isDigit(a[ai]);
    const db = isDigit(b[bi]);
    if (!da && !db) return [bias, ai, bi];
    if (!da) return [-1, ai, bi];
    if (!db) return [1, ai, bi];
    if (bias === 0) bias = a[ai]! < b[bi]! ? -1 : a[ai]! > b[bi]! ? 1 : 0;
  }
}

/** Runs starting with 0 are compared as fractions: the first difference wins. */
function compareLeft(a: Uint8Array, ai: number, b: Uint8Array, bi: number): [number, number, number] {
  for (; ; ai++, bi++) {
    const da = isDigit(a[ai]);
    const db = isDigit(b[bi]);
    if (!da && !db) return [0, ai, bi];
    if (!da) return [-1, ai, bi];
    if (!db) return [1, ai, bi];
    if (a[ai]! < b[bi]!) return [-1, ai, bi];
    if (a[ai]! > b[bi]!) return [1, ai, bi];
  }
}

export function strnatcmp(left: string, right: string): number {
  const a = encoder.encode(left);
  const b = encoder.encode(right);
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length > b.length ? 1 : -1;
  let ai = 0;
  let bi = 0;
  let leading = true;
  for (;;) {
    if (leading) {
      while (a[ai] === 0x30 && ai + 1 < a.length && isDigit(a[ai + 1])) ai++;
      while (b[bi] === 0x30 && bi + 1 < b.length && isDigit(b[bi + 1])) bi++;
      leading = false;
    }
    while (isSpace(a[ai])) ai++;
    while (isSpace(b[bi])) bi++;
    let ca = a[ai];
    let cb = b[bi];
    if (isDigit(ca) && isDigit(cb)) {
      const fractional = ca === 0x30 || cb === 0x30;
      const [result, nai, nbi] = fractional ? compareLeft(a, ai, b, bi) : compareRight(a, ai, b, bi);
      ai = nai;
      bi = nbi;
      if (result !== 0) return result;
      if (ai === a.length && bi === b.length) return 0;
      if (ai === a.length) return -1;
      if (bi === b.length) return 1;
      ca = a[ai];
      cb = b[bi];
    }
    // Past the end reads as NUL in C, which sorts first.
    const va = ca ?? 0;
    const vb = cb ?? 0;
    if (va < vb) return -1;
    if (va > vb) return 1;
    ai++;
    bi++;
    if (ai >= a.length && bi >= b.length) return 0;
    if (ai >= a.length) return -1;
    if (bi >= b.length) return 1;
  }
}

/**
 * EnumDef::sortEnumValues: natural order, with deprecated values moved after the others
 * (array_multisort on a deprecation flag, then SORT_NATURAL).
 */
export function sortEnumValues(values: readonly string[], deprecated: readonly string[] = []): string[] {
  const isDeprecated = new Set(deprecated);
  return [...values].sort((x, y) => {
    const flag = Number(isDeprecated.has(x)) - Number(isDeprecated.has(y));
    return flag !== 0 ? flag : strnatcmp(x, y);
  });
}
