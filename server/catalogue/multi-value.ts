/**
 * ParamValidator::explodeMultiValue: values are separated by `|`, or by U+001F when the value
 * starts with U+001F (so that values may themselves contain `|`). Like PHP's explode() with a
 * limit, the last piece keeps the rest, which bounds the work on a hostile value.
 */
export const MULTI_SEPARATOR = '\u001f';

export function explodeMultiValue(value: string, limit: number): string[] {
  if (value === '' || value === MULTI_SEPARATOR) return [];
  const separator = value.startsWith(MULTI_SEPARATOR) ? MULTI_SEPARATOR : '|';
  const body = separator === MULTI_SEPARATOR ? value.slice(1) : value;
  const pieces: string[] = [];
  let start = 0;
  while (pieces.length < limit - 1) {
    const at = body.indexOf(separator, start);
    if (at < 0) break;
    pieces.push(body.slice(start, at));
    start = at + 1;
  }
  pieces.push(body.slice(start));
  return pieces;
}
