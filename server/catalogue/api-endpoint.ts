import { hostname } from 'node:os';
import type { FormatVersion, ParamValue } from '../../shared/catalogue-schema.js';
import { errorFormats, messageMembers, type ErrorFormat, type ModuleMessage } from './api-envelope.js';
import { encodeJson, toFormatVersion1, type JsonValue } from './api-json.js';
import type { Catalogue } from './catalogue.js';
import { MAILING_LIST, messages } from './messages.js';
import type { OutputVariant, Paraminfo } from './paraminfo.js';
import type { RequestParams } from './request-params.js';
import { answerMetaModules, answeredMetaModules } from './site-info.js';
import { checkRequest } from './validator.js';

/**
 * `/api.php`: reads the request with the validator (the same rules as /api/catalogue/validate),
 * answers `action=paraminfo` and the meta modules wiki clients start with (siteinfo, userinfo),
 * and writes errors and warnings in the envelope the request asks for (api-envelope.ts), with
 * the members MediaWiki echoes: `requestid`, `curtimestamp`, `servedby`, `uselang`/`errorlang`.
 * Any other query is validated and then answered `moduledisabled`: this wiki runs no queries.
 */
export interface ApiAnswer {
  /** JSON text. */
  body: string;
  /** The error code, for the MediaWiki-API-Error header. */
  errorCode?: string;
  /** `origin=*` asks for an anonymous CORS answer. */
  anyOrigin: boolean;
}

const strings = (value: ParamValue | undefined): string[] => (Array.isArray(value) ? value.map(String) : []);

export function createApiEndpoint(catalogue: Catalogue, paraminfo: Paraminfo, now: () => Date = () => new Date()) {
  return function answer(request: RequestParams, apiUrl: string, clientIp?: string): ApiAnswer {
    const check = checkRequest(catalogue, request, now);
    // A printer that failed on its own parameters retries with its defaults.
    const printerFailed = check.firstError?.module === 'json';
    const formatversion: FormatVersion =
      !printerFailed && ['2', 'latest'].includes(String(check.format.get('formatversion'))) ? 2 : 1;
    const variant: OutputVariant = {
      formatversion,
      asciiOnly: formatversion === 1 ? check.format.get('utf8') !== true : check.format.get('ascii') === true,
    };
    const requested = String(check.main.get('errorformat') ?? 'bc');
    const errorformat: ErrorFormat = (errorFormats as readonly string[]).includes(requested) ? (requested as ErrorFormat) : 'bc';
    const anyOrigin = check.main.get('origin') === '*';
    const encode = (value: JsonValue) => encodeJson(formatversion === 1 ? toFormatVersion1(value) : value, variant);
    const docref = `See ${apiUrl} for API usage. Subscribe to the mediawiki-api-announce mailing list at &lt;${MAILING_LIST}&gt; for notice of API deprecations and breaking changes.`;

    // ApiMain echoes these whether or not the request fails.
    const echoed: { [key: string]: JsonValue } = {};
    const requestId = check.main.get('requestid');
    if (typeof requestId === 'string') echoed.requestid = requestId;
    if (check.main.get('curtimestamp') === true) echoed.curtimestamp = now().toISOString().replace(/\.\d{3}Z$/, 'Z');
    if (check.main.get('responselanginfo') === true) {
      // Only English is served: uselang and errorlang always resolve to it.
      echoed.uselang = 'en';
      echoed.errorlang = 'en';
    }

    const respond = (
      error: ModuleMessage | undefined,
      warnings: readonly ModuleMessage[],
      result?: { key: string; json: string; batchcomplete?: boolean },
    ): ApiAnswer => {
      const members = { ...messageMembers(error, warnings, errorformat, formatversion, docref), ...echoed };
      const head: { [key: string]: JsonValue } = result?.batchcomplete ? { batchcomplete: true } : {};
      let body = encode({ ...head, ...members });
      if (result) body = `${body.slice(0, -1)}${body.length > 2 ? ',' : ''}"${result.key}":${result.json}}`;
      return { body, errorCode: error?.code, anyOrigin };
    };

    if (check.firstError) return respond(check.firstError, check.warnings);
    // On success only: an error names its host only where $wgShowHostnames is set, which it is not.
    if (check.main.get('servedby') === true) echoed.servedby = hostname();

    const action = check.main.get('action');
    if (action === 'paraminfo') {
      const { json, warnings } = paraminfo.render(
        {
          modules: strings(check.action.get('modules')),
          querymodules: strings(check.action.get('querymodules')),
          formatmodules: strings(check.action.get('formatmodules')),
          mainmodule: check.action.has('mainmodule'),
        },
        variant,
      );
      const all = [...check.warnings, ...warnings.map((w) => ({ ...w, module: 'paraminfo' }))];
      return respond(undefined, all, { key: 'paraminfo', json });
    }

    // action=query: the meta modules that describe this wiki are answered, nothing else is run.
    const asked = ['prop', 'list', 'meta'].flatMap((group) => strings(check.action.get(group)).map((name) => `${group}=${name}`));
    const pageSet = ['titles', 'pageids', 'revids', 'generator'].some((name) => check.action.has(name));
    if (!pageSet && asked.length > 0 && asked.every((a) => answeredMetaModules.includes(a))) {
      const query = answerMetaModules(check.modules, { apiUrl, now, clientIp, formatversion });
      return respond(undefined, check.warnings, { key: 'query', json: encode(query), batchcomplete: true });
    }
    if (asked.length === 0 && !pageSet) return respond(undefined, check.warnings, { key: 'query', json: '{}', batchcomplete: true });
    return respond({ ...messages.moduleDisabled('query'), module: 'main' }, check.warnings);
  };
}
