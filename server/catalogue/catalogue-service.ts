import type { z } from 'zod';
import type {
  FormatVersion,
  ModuleDescriptor,
  moduleFiltersSchema,
  ModuleSummary,
  ValidateInput,
  ValidationResult,
} from '../../shared/catalogue-schema.js';
import { createApiEndpoint, type ApiAnswer } from './api-endpoint.js';
import type { JsonValue } from './api-json.js';
import { loadCatalogue } from './catalogue.js';
import { createParaminfo } from './paraminfo.js';
import { messageText } from './api-envelope.js';
import { parseRequest, requestFromRecord } from './request-params.js';
import { checkRequest } from './validator.js';

/**
 * The one place holding the catalogue's rules. REST routes, tRPC procedures and pages are thin
 * adapters over it. The data is validated (zod and cross-field checks) when the service is
 * created, so a mistake in it stops the server at start-up instead of surfacing in an answer.
 */
export interface CatalogueServiceOptions {
  /** Base of licence links, e.g. https://www.mediawiki.org/wiki */
  wikiBaseUrl: string;
  /** Clock for `now` timestamps (tests pin it). */
  now?: () => Date;
}

export type ModuleFilterValues = z.output<typeof moduleFiltersSchema>;

export type CatalogueService = ReturnType<typeof createCatalogueService>;

export function createCatalogueService(options: CatalogueServiceOptions) {
  const now = options.now ?? (() => new Date());
  const catalogue = loadCatalogue();
  const paraminfo = createParaminfo(catalogue, { wikiBaseUrl: options.wikiBaseUrl });
  const answerApi = createApiEndpoint(catalogue, paraminfo, now);

  const summary = (m: ModuleDescriptor): ModuleSummary => ({
    name: m.name,
    path: m.path,
    group: m.group,
    prefix: m.prefix,
    generator: m.generator,
    deprecated: m.deprecated,
    readRights: m.readRights,
    parameterCount: m.parameters.length,
  });

  /**
   * The names a parameter is written under in a query: plain, prefixed, in generator mode
   * (`g` + prefix) and, for templated ones, with each value of their template variable
   * (`contentformat-{slot}` → `contentformat-main`).
   */
  const parameterNames = (m: ModuleDescriptor): string[] =>
    m.parameters.flatMap((p) => {
      let names = [p.name];
      for (const [variable, source] of Object.entries(p.templateVars ?? {})) {
        const values = m.parameters.find((q) => q.name === source)?.type;
        if (Array.isArray(values)) names = names.flatMap((n) => values.map((v) => n.replace(`{${variable}}`, v)));
      }
      return names.flatMap((n) => [n, m.prefix + n, ...(m.generator ? [`g${m.prefix}${n}`] : [])]);
    });

  /** Every word must occur in the module's name or in one of the names its parameters are written under. */
  const matchesText = (m: ModuleDescriptor, q: string) => {
    const haystack = [m.name, ...parameterNames(m)].map((s) => s.toLowerCase());
    return q
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean)
      .every((word) => haystack.some((s) => s.includes(word)));
  };

  return {
    /** Query modules sorted by name, filtered by group, generator, deprecated and free text. */
    listModules(filters: ModuleFilterValues = {}): ModuleSummary[] {
      return catalogue.queryModules
        .filter(
          (m) =>
            (filters.group === undefined || m.group === filters.group) &&
            (filters.generator === undefined || m.generator === filters.generator) &&
            (filters.deprecated === undefined || m.deprecated === filters.deprecated) &&
            (filters.q === undefined || matchesText(m, filters.q)),
        )
        .map(summary);
    },

    /** A query module by name (`allpages`) or path (`query+allpages`). */
    getModule(name: string): ModuleDescriptor | undefined {
      return catalogue.queryModuleByName.get(name.startsWith('query+') ? name.slice('query+'.length) : name);
    },

    /** `action=paraminfo` as a value: `{paraminfo}` plus `warnings` (errorformat=plaintext form). */
    paraminfo(input: { modules: readonly string[]; formatversion: FormatVersion }): JsonValue {
      const { value, warnings } = paraminfo.build({ modules: input.modules }, input.formatversion);
      const result: { [key: string]: JsonValue } = {};
      if (warnings.length > 0) {
        result.warnings = warnings.map((w) => ({ code: w.code, text: messageText(w), module: 'paraminfo' }));
      }
      result.paraminfo = value;
      return result;
    },

    /** Checks a wiki query (query string or parameter record) without running it. */
    validate(input: ValidateInput): ValidationResult {
      const request = typeof input === 'string' ? parseRequest(input) : requestFromRecord(input);
      return checkRequest(catalogue, request, now).result;
    },

    /**
     * Answers an /api.php request: its query string and, for a POST, its body (form text or
     * multipart fields). `apiUrl` is named in error texts; `clientIp` is an anonymous caller's name.
     */
    answerApi(request: { query: string; body?: string | readonly [string, string][]; apiUrl: string; clientIp?: string }): ApiAnswer {
      return answerApi(parseRequest(request.query, request.body), request.apiUrl, request.clientIp);
    },

  };
}
