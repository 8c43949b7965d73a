import type { ApiModule, FormatVersion, ParamDescriptor } from '../../shared/catalogue-schema.js';
import { encodeJson, toFormatVersion1, type JsonValue } from './api-json.js';
import type { Catalogue } from './catalogue.js';
import { messages, type Message } from './messages.js';

/**
 * `action=paraminfo` as MediaWiki's ApiParamInfo writes it: module and parameter keys in its
 * order, type-specific keys after the generic ones, submodule lists with deprecated modules
 * last, and `query+*` expanded to every query module sorted by name.
 *
 * Each module's entry is serialized once per output variant and kept, so a response is the
 * concatenation of cached fragments: `modules=query+*` costs a string join, not 64 rebuilds.
 */
export interface ParaminfoRequest {
  modules: readonly string[];
  /** Deprecated form: query module names, listed under `querymodules`. */
  querymodules?: readonly string[];
  /** Deprecated form: format module names, listed under `formatmodules`. */
  formatmodules?: readonly string[];
  /** Deprecated form: the main module, as `mainmodule`. */
  mainmodule?: boolean;
}

export interface OutputVariant {
  formatversion: FormatVersion;
  /** Escape non-ASCII as \uXXXX (formatversion 1 unless utf8; formatversion 2 with ascii). */
  asciiOnly: boolean;
}

export interface Paraminfo {
  /** The `paraminfo` object as JSON text, and the badmodule warnings met on the way. */
  render(request: ParaminfoRequest, variant: OutputVariant): { json: string; warnings: Message[] };
  /** The same, as a value (tRPC). */
  build(request: ParaminfoRequest, formatversion: FormatVersion): { value: JsonValue; warnings: Message[] };
}

const SOURCE = 'MediaWiki';
const LICENSE = 'GPL-2.0-or-later';
// ParamValidator's defaults for multi-valued parameters (no module raises them).
const MULTI_LIMITS = { lowlimit: 50, highlimit: 500, limit: 50 };

export function createParaminfo(catalogue: Catalogue, { wikiBaseUrl }: { wikiBaseUrl: string }): Paraminfo {
  const licenselink = `${wikiBaseUrl.replace(/\/+$/, '')}/Special:Version/License/${SOURCE}`;

  function typeKeys(param: ParamDescriptor): Record<string, JsonValue> {
    const keys: Record<string, JsonValue> = {};
    switch (param.type) {
      case 'integer':
      case 'limit':
        if (param.min !== undefined) keys.min = param.min;
        if (param.max !== undefined) keys.max = param.max;
        if (param.highmax !== undefined && param.highmax > (param.max ?? -Infinity)) keys.highmax = param.highmax;
        break;
      case 'namespace':
        if (param.extraNamespaces) keys.extranamespaces = param.extraNamespaces;
        break;
      case 'user':
        keys.subtypes = param.subtypes ?? [];
        break;
      case 'title':
        keys.mustExist = false;
        break;
      case 'submodule': {
        // SubmoduleDef: deprecated modules move to the end and are listed as deprecatedvalues.
        const map = param.submodules ?? {};
        const deprecated = Object.keys(map).filter((v) => catalogue.moduleByPath.get(map[v]!)?.deprecated);
        keys.type = [...Object.keys(map).filter((v) => !deprecated.includes(v)), ...deprecated];
        keys.submodules = map;
        if (param.submoduleParamPrefix !== undefined) keys.submoduleparamprefix = param.submoduleParamPrefix;
        if (deprecated.length > 0) keys.deprecatedvalues = deprecated;
        break;
      }
      default:
        if (param.deprecatedValues?.length) keys.deprecatedvalues = param.deprecatedValues;
    }
    return keys;
  }

  function paramEntry(param: ParamDescriptor): Record<string, JsonValue> {
    const entry: Record<string, JsonValue> = { index: param.index, name: param.name };
    if (param.templateVars) entry.templatevars = param.templateVars;
    entry.type = param.type;
    entry.required = param.required ?? false;
    if (param.deprecated) entry.deprecated = true;
    if (param.sensitive) entry.sensitive = true;
    if (param.default !== undefined) entry.default = param.default;
    entry.multi = param.multi ?? false;
    if (param.multi) {
      Object.assign(entry, MULTI_LIMITS);
      if (param.allowsDuplicates) entry.allowsduplicates = true;
      if (param.allSpecifier !== undefined) entry.allspecifier = param.allSpecifier;
    }
    // The type's own keys come after the generic ones; `type` keeps its place when overwritten.
    Object.assign(entry, typeKeys(param));
    if (param.info) entry.info = param.info.map((i): JsonValue => (i.values ? { name: i.name, values: i.values } : { name: i.name }));
    return entry;
  }

  function moduleEntry(module: ApiModule): Record<string, JsonValue> {
    const entry: Record<string, JsonValue> = {
      name: module.name,
      classname: `MediaWiki\\Api\\${module.className}`,
      path: module.path,
    };
    if (module.group !== undefined) entry.group = module.group;
    Object.assign(entry, { prefix: module.prefix, source: SOURCE, sourcename: SOURCE, licensetag: LICENSE, licenselink });
    // ApiBase::getHelpFlags order.
    if (module.deprecated) entry.deprecated = true;
    if (module.readRights) entry.readrights = true;
    if (module.generator) entry.generator = true;
    entry.helpurls = module.helpUrls;
    entry.parameters = module.parameters.filter((p) => !p.templateVars).map(paramEntry);
    entry.templatedparameters = module.parameters.filter((p) => p.templateVars).map(paramEntry);
    return entry;
  }

  const entries = new Map<string, Record<string, JsonValue>>();
  const entryFor = (module: ApiModule) => {
    let entry = entries.get(module.path);
    if (!entry) entries.set(module.path, (entry = moduleEntry(module)));
    return entry;
  };
  const fragments = new Map<string, string>();
  const fragmentFor = (module: ApiModule, variant: OutputVariant) => {
    const key = `${variant.formatversion}${variant.asciiOnly ? 'a' : 'u'}${module.path}`;
    let json = fragments.get(key);
    if (json === undefined) {
      const entry = entryFor(module);
      json = encodeJson(variant.formatversion === 1 ? toFormatVersion1(entry) : entry, variant);
      fragments.set(key, json);
    }
    return json;
  };

  /** ApiBase::getModuleFromPath: `+` separates levels (a space too, as an unencoded `+` arrives). */
  function moduleFromPath(path: string): ApiModule | Message {
    if (path === 'main') return catalogue.moduleByPath.get('main')!;
    const parts = path.includes('+') ? path.split('+') : path.split(' ');
    const resolved = catalogue.moduleByPath.get(parts.join('+'));
    if (resolved) return resolved;
    // Report the first level that does not exist, named as MediaWiki names it.
    for (let i = 0; i < parts.length; i++) {
      const parentPath = i === 0 ? 'main' : parts.slice(0, i).join('+');
      const here = i === 0 ? parts[0]! : `${parentPath}+${parts[i]}`;
      if (!catalogue.moduleByPath.has(here)) {
        const parent = catalogue.moduleByPath.get(parentPath)!;
        if (!hasSubmodules(parent)) return messages.noSubmodules(parentPath);
        return messages.badSubmodule(i === 0 ? 'main' : parentPath, parts[i]!);
      }
    }
    return messages.badSubmodule('main', path);
  }

  const hasSubmodules = (module: ApiModule) => module.parameters.some((p) => p.type === 'submodule');

  /** Paths of a module's own submodules, sorted by name (ApiParamInfo::listAllSubmodules). */
  function submodulePaths(module: ApiModule, recursive: boolean): string[] {
    const paths = new Set<string>();
    for (const param of module.parameters) {
      // The generator list repeats prop/list modules; only submodules that live under this module count.
      for (const path of Object.values(param.submodules ?? {})) {
        const parent = path.includes('+') ? path.slice(0, path.lastIndexOf('+')) : 'main';
        if (parent === module.path) paths.add(path);
      }
    }
    const byName = (p: string) => p.slice(p.lastIndexOf('+') + 1);
    const sorted = [...paths].sort((a, b) => (byName(a) < byName(b) ? -1 : byName(a) > byName(b) ? 1 : 0));
    if (!recursive) return sorted;
    return sorted.flatMap((path) => [path, ...submodulePaths(catalogue.moduleByPath.get(path)!, true)]);
  }

  function resolve(request: ParaminfoRequest) {
    const warnings: Message[] = [];
    const wanted: { path: string; key: 'modules' | 'querymodules' | 'formatmodules' }[] = [];
    for (const raw of request.modules) {
      const path = raw === '*' || raw === '**' ? `main+${raw}` : raw;
      const star = /[+ ]\*\*?$/.exec(path);
      if (!star) {
        wanted.push({ path, key: 'modules' });
        continue;
      }
      // `query+*`: every submodule; `main+**` also their submodules.
      const parentPath = path.slice(0, -star[0].length);
      const parent = moduleFromPath(parentPath);
      if ('code' in parent) {
        warnings.push(parent);
        continue;
      }
      const children = submodulePaths(parent, star[0].endsWith('**'));
      if (children.length === 0) warnings.push(messages.noSubmodules(parentPath));
      for (const child of children) wanted.push({ path: child, key: 'modules' });
    }
    for (const name of request.querymodules ?? []) wanted.push({ path: `query+${name}`, key: 'querymodules' });
    for (const name of request.formatmodules ?? []) wanted.push({ path: name, key: 'formatmodules' });

    const seen = new Set<string>();
    const found: { module: ApiModule; key: 'modules' | 'querymodules' | 'formatmodules' }[] = [];
    for (const { path, key } of wanted) {
      // array_unique on the requested paths: the first occurrence keeps its place.
      if (seen.has(path)) continue;
      seen.add(path);
      const module = moduleFromPath(path);
      if ('code' in module) warnings.push(module);
      else found.push({ module, key });
    }
    return { found, warnings };
  }

  return {
    render(request, variant) {
      const { found, warnings } = resolve(request);
      const lists = new Map<string, string[]>();
      for (const { module, key } of found) {
        let fragment = fragmentFor(module, variant);
        if (key === 'querymodules') {
          // Back compat: querymodules entries also carry `querytype` (their group).
          const entry = { ...entryFor(module), querytype: module.group ?? '' };
          fragment = encodeJson(variant.formatversion === 1 ? toFormatVersion1(entry) : entry, variant);
        }
        if (!lists.has(key)) lists.set(key, []);
        lists.get(key)!.push(fragment);
      }
      let json = '{"helpformat":"none"';
      for (const [key, list] of lists) json += `,"${key}":[${list.join(',')}]`;
      if (request.mainmodule) json += `,"mainmodule":${fragmentFor(catalogue.moduleByPath.get('main')!, variant)}`;
      return { json: `${json}}`, warnings };
    },
    build(request, formatversion) {
      const { json, warnings } = this.render(request, { formatversion, asciiOnly: false });
      return { value: JSON.parse(json) as JsonValue, warnings };
    },
  };
}
