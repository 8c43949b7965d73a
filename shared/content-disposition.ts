/**
 * `Content-Disposition: attachment` for a file name of any script (RFC 6266): a quoted ASCII
 * `filename` for old clients, and `filename*` (RFC 8187, UTF-8 percent-encoded) that browsers
 * prefer. No DOM or Node APIs: the recipient's service worker builds it for a decrypted file.
 *
 * The name is taken as already made safe to show (shared/neutralise-controls.ts); here it is only
 * made safe to carry: nothing in it can end the header, the quoted string or the encoded value.
 */
const FALLBACK_NAME = 'download';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** RFC 8187 attr-char: anything else is percent-encoded (encodeURIComponent leaves ' ( ) * alone, and ' ends the charset part). */
function encodeExtValue(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function attachmentDisposition(name: string): string {
  // Lone surrogates cannot be UTF-8 encoded (encodeURIComponent would throw; String#toWellFormed
  // is newer than the browsers the pages support); controls and path separators have no place in a saved file's name.
  const cleaned = name.trim().replace(LONE_SURROGATE, '\uFFFD').replace(/[\u0000-\u001f\u007f-\u009f/\\]/g, '_') || FALLBACK_NAME;
  const ascii = cleaned.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(cleaned)}`;
}
