import type { CatalogueMessage, FormatVersion, ParamValue } from '../../shared/catalogue-schema.js';
import { encodeJson, toFormatVersion1, type JsonValue } from './api-json.js';
import type { Catalogue } from './catalogue.js';
import { messages } from './messages.js';
import type { OutputVariant, Paraminfo } from './paraminfo.js';
import { checkRequest, parseQueryString } from './validator.js';

/**
 * `GET /api.php`: reads the request with the validator (the same rules as
 * /api/catalogue/validate), answers `action=paraminfo`, and writes errors and warnings in
 * MediaWiki's envelopes (`errorformat=bc` by default, or the list form of `plaintext`).
 */
export interface ApiAnswer {
  /** JSON text. */
  body: string;
  /** The error code, for the MediaWiki-API-Error header. */
  errorCode?: string;
  /** `origin=*` asks for an anonymous CORS answer. */
  anyOrigin: boolean;
}

const announceList =
  'https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/';

const strings = (value: ParamValue | undefined): string[] => (Array.isArray(value) ? value.map(String) : []);

export function createApiEndpoint(catalogue: Catalogue, paraminfo: Paraminfo, now: () => Date = () => new Date()) {
  return function answer(query: string, apiUrl: string): ApiAnswer {
    const check = checkRequest(catalogue, parseQueryString(query), now);
    const formatversion: FormatVersion = ['2', 'latest'].includes(String(check.format.get('formatversion'))) ? 2 : 1;
    const variant: OutputVariant = {
      formatversion,
      asciiOnly: formatversion === 1 ? check.format.get('utf8') !== true : check.format.get('ascii') === true,
    };
    const errorformat = String(check.main.get('errorformat') ?? 'bc');
    const anyOrigin = check.main.get('origin') === '*';
    const encode = (value: JsonValue) => encodeJson(formatversion === 1 ? toFormatVersion1(value) : value, variant);
    const docref = `See ${apiUrl} for API usage. Subscribe to the mediawiki-api-announce mailing list at &lt;${announceList}&gt; for notice of API deprecations and breaking changes.`;

    const fail = (error: CatalogueMessage): ApiAnswer => {
      // A wiki stops at its first error; so does api.php (the validator lists them all).
      const value: JsonValue =
        errorformat === 'bc'
          ? { error: { code: error.code, info: error.text, [formatversion === 1 ? '*' : 'docref']: docref } }
          : { errors: [plainMessage(error, errorformat)], docref };
      return { body: encode(value), errorCode: error.code, anyOrigin };
    };

    if (check.result.errors.length > 0) return fail(check.result.errors[0]!);
    if (check.main.get('action') === 'query') return fail({ ...messages.moduleDisabled('query'), module: 'main' });

    const { json, warnings } = paraminfo.render(
      {
        modules: strings(check.action.get('modules')),
        querymodules: strings(check.action.get('querymodules')),
        formatmodules: strings(check.action.get('formatmodules')),
        mainmodule: check.action.has('mainmodule'),
      },
      variant,
    );
    const allWarnings = [...check.result.warnings, ...warnings.map((w) => ({ ...w, module: 'paraminfo' }))];
    const head = allWarnings.length > 0 ? `"warnings":${encode(warningsValue(allWarnings, errorformat, formatversion))},` : '';
    return { body: `{${head}"paraminfo":${json}}`, anyOrigin };
  };
}

function plainMessage(message: CatalogueMessage, errorformat: string): JsonValue {
  // errorformat=none keeps only the code; the other non-bc formats carry the text.
  return errorformat === 'none'
    ? { code: message.code, module: message.module }
    : { code: message.code, text: message.text, module: message.module };
}

function warningsValue(warnings: CatalogueMessage[], errorformat: string, formatversion: FormatVersion): JsonValue {
  if (errorformat !== 'bc') return warnings.map((w) => plainMessage(w, errorformat));
  // bc: one entry per module name, several texts joined by newlines.
  const byModule: Record<string, { [key: string]: JsonValue }> = {};
  const key = formatversion === 1 ? '*' : 'warnings';
  for (const warning of warnings) {
    const name = warning.module.slice(warning.module.lastIndexOf('+') + 1);
    const entry = (byModule[name] ??= {});
    entry[key] = entry[key] === undefined ? warning.text : `${String(entry[key])}\n${warning.text}`;
  }
  return byModule;
}
