import {
  apiModuleInputSchema,
  moduleDescriptorSchema,
  userSubtypes,
  type ApiModule,
  type ApiModuleInput,
  type ModuleDescriptor,
  type ParamDescriptor,
  type ParamInput,
} from '../../shared/catalogue-schema.js';
import { frameModules } from './frame-modules.js';
import { queryModuleData } from './modules/index.js';
import { sortEnumValues } from './natural-sort.js';

/**
 * The catalogue as every adapter sees it: validated once at start-up, with MediaWiki's
 * presentation rules applied (enumerations in natural order with deprecated values last, user
 * subtypes in canonical order, one index counter per module).
 */
export interface Catalogue {
  /** The 64 query modules, sorted by name. */
  queryModules: readonly ModuleDescriptor[];
  queryModuleByName: ReadonlyMap<string, ModuleDescriptor>;
  /** Every module (frame and query) by path: `main`, `query`, `query+allpages`, … */
  moduleByPath: ReadonlyMap<string, ApiModule>;
}

export class CatalogueDataError extends Error {}

function normalizeParam(param: ParamInput, index: number): ParamDescriptor {
  const out: ParamDescriptor = { index, ...param };
  if (Array.isArray(param.type)) {
    out.type = sortEnumValues(param.type, param.deprecatedValues);
    if (param.deprecatedValues) out.deprecatedValues = sortEnumValues(param.deprecatedValues);
  }
  if (param.subtypes) out.subtypes = userSubtypes.filter((s) => param.subtypes!.includes(s));
  if (param.submodules) {
    out.submodules = Object.fromEntries(Object.entries(param.submodules).sort(([a], [b]) => (a < b ? -1 : 1)));
  }
  return out;
}

/** Rules zod cannot express per field: they tie fields or modules together. */
function checkModule(module: ApiModuleInput, problems: string[]): void {
  const at = (param: ParamInput) => `${module.path}: parameter "${param.name}"`;
  const names = new Set<string>();
  for (const param of module.parameters) {
    if (names.has(param.name)) problems.push(`${at(param)} appears twice`);
    names.add(param.name);
    const values = Array.isArray(param.type) ? param.type : null;
    if (values && new Set(values).size !== values.length) problems.push(`${at(param)} repeats an enumeration value`);
    for (const v of param.deprecatedValues ?? []) {
      if (!values?.includes(v)) problems.push(`${at(param)}: deprecated value "${v}" is not allowed`);
    }
    if (values && typeof param.default === 'string') {
      const defaults = param.multi ? param.default.split('|').filter((v) => v !== '') : [param.default];
      for (const v of defaults) if (!values.includes(v)) problems.push(`${at(param)}: default "${v}" is not allowed`);
    }
    if (param.type === 'boolean' && param.default !== undefined) problems.push(`${at(param)}: booleans have no default`);
    if (param.type === 'namespace' && param.multi && param.allSpecifier !== '*') {
      problems.push(`${at(param)}: a multi-valued namespace takes "*"`);
    }
    if (param.type === 'user' && !param.subtypes) problems.push(`${at(param)}: a user parameter needs subtypes`);
    if (param.type === 'submodule' && !param.submodules) problems.push(`${at(param)}: a submodule parameter needs its map`);
    if ((param.allSpecifier || param.allowsDuplicates) && !param.multi) {
      problems.push(`${at(param)}: allspecifier and allowsduplicates need a multi-valued parameter`);
    }
    for (const source of Object.values(param.templateVars ?? {})) {
      const target = module.parameters.find((p) => p.name === source);
      if (!target?.multi) problems.push(`${at(param)}: template variable source "${source}" is not a multi-valued parameter`);
    }
  }
}

export function loadCatalogue(): Catalogue {
  const problems: string[] = [];
  const inputs = [...queryModuleData, ...frameModules(queryModuleData)];
  const modules: ApiModule[] = [];
  for (const raw of inputs) {
    const parsed = apiModuleInputSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(`${raw.path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
      continue;
    }
    checkModule(parsed.data, problems);
    modules.push({ ...parsed.data, parameters: parsed.data.parameters.map((p, i) => normalizeParam(p, i + 1)) });
  }

  const moduleByPath = new Map<string, ApiModule>();
  for (const module of modules) {
    if (moduleByPath.has(module.path)) problems.push(`${module.path} appears twice`);
    moduleByPath.set(module.path, module);
  }

  const queryModules: ModuleDescriptor[] = [];
  for (const module of modules.filter((m) => m.path.startsWith('query+'))) {
    const parsed = moduleDescriptorSchema.safeParse(module);
    if (!parsed.success) problems.push(`${module.path} is not a query module: ${parsed.error.message}`);
    else if (parsed.data.parameters.some((p) => p.type === 'submodule')) problems.push(`${module.path} uses submodules`);
    else queryModules.push(parsed.data);
  }

  if (problems.length > 0) throw new CatalogueDataError(`The catalogue data is invalid:\n${problems.join('\n')}`);
  queryModules.sort((a, b) => (a.name < b.name ? -1 : 1));
  return { queryModules, queryModuleByName: new Map(queryModules.map((m) => [m.name, m])), moduleByPath };
}
