import type { ApiModuleInput } from '../../shared/catalogue-schema.js';
import { helpBase } from './define-module.js';
import { bool, dep, int, ints, oneOf, someOf, str, strs, user } from './param-builders.js';

/**
 * The modules around the query modules that wiki clients ask for before anything else: `main`
 * (the action parameter), `query` (prop/list/meta and generator with their submodules),
 * `paraminfo` itself and the `json` format. pywikibot requests `main|paraminfo|query` first and
 * refuses a wiki whose answer lacks them.
 *
 * This server runs no queries: `query` is described (so the catalogue can be browsed and
 * queries validated) but answers `moduledisabled`, as a wiki's disabled modules do.
 */
export function frameModules(queryModules: readonly ApiModuleInput[]): ApiModuleInput[] {
  const submoduleMap = (modules: readonly ApiModuleInput[]) =>
    Object.fromEntries([...modules].sort((a, b) => (a.name < b.name ? -1 : 1)).map((m) => [m.name, m.path]));
  const inGroup = (group: string) => queryModules.filter((m) => m.group === group);
  const submodules = (name: string, map: Record<string, string>, extra = {}) =>
    ({ name, type: 'submodule', submodules: map, ...extra }) as const;

  return [
    {
      name: 'main',
      path: 'main',
      prefix: '',
      className: 'ApiMain',
      generator: false,
      deprecated: false,
      readRights: false,
      // ApiMain lists its help links in the help page's header only; paraminfo gives none.
      helpUrls: [],
      parameters: [
        // No `help` module here, so no default of `help`: a missing action is a missingparam.
        submodules('action', { paraminfo: 'paraminfo', query: 'query' }, { required: true }),
        // Only JSON is served; it is also the default (a wiki's default is the HTML-wrapped jsonfm).
        submodules('format', { json: 'json' }, { default: 'json' }),
        int('maxlag'),
        int('smaxage', { default: 0, min: 0 }),
        int('maxage', { default: 0, min: 0 }),
        oneOf('assert', ['anon', 'bot', 'user']),
        user('assertuser', ['name', 'temp']),
        str('requestid'),
        bool('servedby'),
        bool('curtimestamp'),
        bool('responselanginfo'),
        str('origin'),
        str('uselang', { default: 'user' }),
        str('variant'),
        oneOf('errorformat', ['bc', 'html', 'none', 'plaintext', 'raw', 'wikitext'], { default: 'bc' }),
        str('errorlang', { default: 'uselang' }),
        bool('errorsuselocal'),
      ],
    },
    {
      name: 'paraminfo',
      path: 'paraminfo',
      group: 'action',
      prefix: '',
      className: 'ApiParamInfo',
      generator: false,
      deprecated: false,
      readRights: false,
      helpUrls: [`${helpBase}API:Parameter_information`],
      parameters: [
        strs('modules'),
        // Descriptions are not kept, so `none` is the only help format on offer.
        oneOf('helpformat', ['none'], { default: 'none' }),
        someOf('querymodules', queryModules.map((m) => m.name), dep),
        str('mainmodule', dep),
        str('pagesetmodule', dep),
        someOf('formatmodules', ['json'], dep),
      ],
    },
    {
      name: 'query',
      path: 'query',
      group: 'action',
      prefix: '',
      className: 'ApiQuery',
      generator: false,
      deprecated: false,
      readRights: true,
      helpUrls: [`${helpBase}API:Query`, `${helpBase}API:Meta`, `${helpBase}API:Properties`, `${helpBase}API:Lists`],
      parameters: [
        submodules('prop', submoduleMap(inGroup('prop')), { multi: true }),
        submodules('list', submoduleMap(inGroup('list')), { multi: true }),
        submodules('meta', submoduleMap(inGroup('meta')), { multi: true }),
        bool('indexpageids'),
        bool('export'),
        bool('exportnowrap'),
        oneOf('exportschema', ['0.10', '0.11'], { default: '0.11' }),
        bool('iwurl'),
        str('continue'),
        bool('rawcontinue'),
        // The page set: titles, page or revision ids, or a generator module (`g` + its prefix).
        strs('titles'),
        ints('pageids'),
        ints('revids'),
        submodules('generator', submoduleMap(queryModules.filter((m) => m.generator)), { submoduleParamPrefix: 'g' }),
        bool('redirects'),
        bool('converttitles'),
      ],
    },
    {
      name: 'json',
      path: 'json',
      group: 'format',
      prefix: '',
      className: 'ApiFormatJson',
      generator: false,
      deprecated: false,
      // ApiFormatBase::isReadMode is true: printing a result is reading.
      readRights: true,
      helpUrls: [`${helpBase}API:Data_formats`],
      // No `callback`: JSONP is not offered.
      parameters: [bool('utf8'), bool('ascii'), oneOf('formatversion', ['1', '2', 'latest'], { default: '1' })],
    },
  ];
}
