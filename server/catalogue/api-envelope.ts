import type { FormatVersion } from '../../shared/catalogue-schema.js';
import type { JsonValue } from './api-json.js';
import type { Message } from './messages.js';

/**
 * How ApiErrorFormatter writes errors and warnings, per `errorformat` and `formatversion`:
 * - `bc` (default): `{"error": {code, info, <data members>, "*"|"docref"}}`, warnings keyed by
 *   module name with their texts joined by newlines under `*` (fv1) or `warnings` (fv2);
 * - `plaintext`, `wikitext`, `html`: lists of `{code, text|html, data, module}`, the text under
 *   `*` in formatversion 1; `raw`: `{code, key, params, data, module}`; `none`: `{code, data, module}`.
 *   The docref sits under `*` (fv1) or `docref` (fv2) beside the list of errors.
 */
export const errorFormats = ['bc', 'plaintext', 'wikitext', 'html', 'raw', 'none'] as const;
export type ErrorFormat = (typeof errorFormats)[number];

export interface ModuleMessage extends Message {
  /** Module path (`main`, `query`, `query+allpages`). */
  module: string;
}

const decodeEntities = (text: string) =>
  text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&(lt|gt|quot|amp|nbsp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', amp: '&', nbsp: '\u00a0' })[name]!);

/** ApiErrorFormatter::stripMarkup: semantic tags become quotes, other tags go, entities are decoded. */
export function plainText(wikitext: string): string {
  const text = decodeEntities(wikitext.replace(/<\/?(var|kbd|samp|code)>/g, '"').replace(/<[^>]*>/g, ''));
  // Sanitizer::stripAllTags also folds runs of whitespace and trims.
  return text.replace(/\s+/g, ' ').trim();
}

/** The parser's rendering of these one-line messages: free URLs become external links. */
export function htmlText(wikitext: string): string {
  return wikitext.replace(
    /https?:\/\/[^\s<>&"]+/g,
    (url) => `<a rel="nofollow" class="external free" href="${url}">${url}</a>`,
  );
}

function listEntry(message: ModuleMessage, format: ErrorFormat, formatversion: FormatVersion): JsonValue {
  const entry: { [key: string]: JsonValue } = { code: message.code };
  const text =
    format === 'plaintext' ? plainText(message.wikitext)
    : format === 'wikitext' ? message.wikitext
    : format === 'html' ? htmlText(message.html ?? message.wikitext)
    : undefined;
  if (format === 'raw') {
    entry.key = message.key;
    entry.params = message.params;
  }
  if (text !== undefined && formatversion === 2) entry[format === 'html' ? 'html' : 'text'] = text;
  if (message.data) entry.data = message.data;
  entry.module = message.module;
  if (text !== undefined && formatversion === 1) entry['*'] = text;
  return entry;
}

/** The members an answer gets for its error (if any) and warnings. */
export function messageMembers(
  error: ModuleMessage | undefined,
  warnings: readonly ModuleMessage[],
  format: ErrorFormat,
  formatversion: FormatVersion,
  docref: string,
): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  const textKey = formatversion === 1 ? '*' : 'docref';
  if (format === 'bc') {
    if (error) {
      out.error = { code: error.code, info: plainText(error.wikitext), ...(error.data ?? {}), [textKey]: docref };
    }
    if (warnings.length > 0) {
      const byModule: { [key: string]: { [key: string]: JsonValue } } = {};
      const key = formatversion === 1 ? '*' : 'warnings';
      for (const warning of warnings) {
        const name = warning.module.slice(warning.module.lastIndexOf('+') + 1);
        const entry = (byModule[name] ??= {});
        const text = plainText(warning.wikitext);
        entry[key] = entry[key] === undefined ? text : `${String(entry[key])}\n${text}`;
      }
      out.warnings = byModule;
    }
    return out;
  }
  if (error) {
    out.errors = [listEntry(error, format, formatversion)];
    out[textKey] = docref;
  }
  if (warnings.length > 0) out.warnings = warnings.map((w) => listEntry(w, format, formatversion));
  return out;
}

/** The plain-text form of a message, as /api/catalogue/validate and tRPC report it. */
export const messageText = (message: Message) => plainText(message.wikitext);
