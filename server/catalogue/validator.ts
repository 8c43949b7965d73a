import type {
  ApiModule,
  CatalogueMessage,
  ParamDescriptor,
  ParamValue,
  ValidationResult,
} from '../../shared/catalogue-schema.js';
import { messageText, type ModuleMessage } from './api-envelope.js';
import type { Catalogue } from './catalogue.js';
import { messages, type Message } from './messages.js';
import { moduleRules, type ModuleContext } from './module-rules.js';
import { explodeMultiValue, MULTI_SEPARATOR } from './multi-value.js';
import type { RequestParams } from './request-params.js';
import { namespaceIds } from './site-facts.js';
import { parseTimestamp } from './timestamp.js';
import { parseTitle } from './title-value.js';
import { parseUserValue } from './user-value.js';

/**
 * Checks a wiki request against the catalogue without running it, reading it in the order
 * MediaWiki 1.39's ApiMain and ApiQuery do for an anonymous caller (no raised limits):
 * main's parameters, the asserts, the page set's and query's parameters, `continue`, the
 * generator, then each prop, list and meta module's parameters followed by the checks its
 * execute() makes before touching the database (module-rules.ts), then unknown parameters,
 * and last the format's parameters.
 *
 * A wiki stops at its first error; the validator goes on and reports every error it finds,
 * and remembers which warnings came before the first one, so api.php answers exactly as the
 * wiki would. api.php reads its own parameters through this code, so the two cannot disagree.
 */
export interface RequestCheck {
  result: ValidationResult;
  /** The error a wiki would stop at, and the warnings it would have given by then. */
  firstError?: ModuleMessage;
  /** Warnings a wiki gives: those before the first error, or all of them. */
  warnings: ModuleMessage[];
  /** Values of main's parameters, by name (defaults filled in). */
  main: ReadonlyMap<string, ParamValue>;
  /** Values of the chosen action module's parameters, by name. */
  action: ReadonlyMap<string, ParamValue>;
  /** Values of the chosen format module's parameters, by name. */
  format: ReadonlyMap<string, ParamValue>;
  /** Values of each query module's parameters, by module path and unprefixed name. */
  modules: ReadonlyMap<string, ReadonlyMap<string, ParamValue>>;
}

// ParamValidator's defaults: 50 values, 500 for clients with raised limits (never anonymous ones).
const MULTI_LIMIT = 50;
const MULTI_HIGH_LIMIT = 500;

type ReadOne = { value: string | number } | { unrecognized: true } | { failed: true };

/** Where deprecation warnings say the feature is used: `action=query&list=random&rnredirect`. */
type FeaturePath = string;

class RequestReader {
  readonly used = new Set<string>();
  readonly errors: { message: ModuleMessage; warningsBefore: number }[] = [];
  readonly warnings: ModuleMessage[] = [];
  readonly parameters: Record<string, Record<string, ParamValue>> = {};
  /** Errors raised while a module's parameters were read (its checks are skipped then). */
  private moduleErrors = 0;

  constructor(
    readonly request: RequestParams,
    private readonly now: () => Date,
  ) {}

  error(module: string, message: Message): void {
    this.errors.push({ message: { ...message, module }, warningsBefore: this.warnings.length });
    this.moduleErrors++;
  }

  warn(module: string, message: Message): void {
    // ApiErrorFormatter drops a warning it already holds.
    if (!this.warnings.some((w) => w.module === module && w.code === message.code && w.wikitext === message.wikitext)) {
      this.warnings.push({ ...message, module });
    }
    // ApiBase::addDeprecation: every deprecation also gets main's pointer to the mailing list.
    if (message.code === 'deprecation') this.warn('main', messages.deprecationHelp());
  }

  /** The value of a parameter, marking it as understood; arrays (`a[]=`) are refused. */
  take(name: string): { value: string; changed: boolean } | undefined {
    const raw = this.request.get(name);
    this.used.add(name);
    if (raw === undefined) return undefined;
    if ('array' in raw) {
      this.warn('main', messages.unsupportedArray(name));
      return undefined;
    }
    return raw;
  }

  /** Whether a parameter was given at all (a module's own checks look at the raw request). */
  given(name: string): boolean {
    const raw = this.request.get(name);
    return raw !== undefined && !('array' in raw);
  }

  /** Reads a module's parameters written with `prefix`; returns their values by unprefixed name. */
  readModule(module: ApiModule, prefix: string, feature: FeaturePath, only?: readonly string[]): { values: Map<string, ParamValue>; failed: boolean } {
    const before = this.moduleErrors;
    const errorsBefore = this.errors.length;
    const values = new Map<string, ParamValue>();
    const out = (this.parameters[module.path] ??= {});
    for (const param of module.parameters) {
      if (only && !only.includes(param.name)) continue;
      for (const [name, instance] of this.instances(param, values)) {
        const value = this.readParam(module.path, instance, prefix + name, feature);
        if (value === undefined) continue;
        values.set(name, value);
        out[prefix + name] = value;
      }
    }
    // ApiBase::extractRequestParams reads every parameter of the module, keeping what fails, and
    // only then throws the first failure: the warnings of all the module's parameters come first.
    // ApiMain reads its own one at a time (getParameter), stopping at the first failure.
    if (module.path !== 'main') for (const error of this.errors.slice(errorsBefore)) error.warningsBefore = this.warnings.length;
    return { values, failed: this.moduleErrors > before };
  }

  /** A templated parameter (`contentformat-{slot}`) exists once per value of its source parameter. */
  private instances(param: ParamDescriptor, values: ReadonlyMap<string, ParamValue>): [string, ParamDescriptor][] {
    if (!param.templateVars) return [[param.name, param]];
    let names = [param.name];
    for (const [variable, source] of Object.entries(param.templateVars)) {
      const fills = values.get(source);
      const list = Array.isArray(fills) ? fills.map(String) : [];
      names = names.flatMap((n) => list.map((fill) => n.replace(`{${variable}}`, fill)));
    }
    const { templateVars: _templateVars, ...plain } = param;
    return names.map((n) => [n, { ...plain, name: n }]);
  }

  private readParam(module: string, param: ParamDescriptor, name: string, feature: FeaturePath): ParamValue | undefined {
    const featureOf = (rest: string) => (feature ? `${feature}&${rest}` : rest);
    // A boolean is true when present (WebRequest::getCheck): its value is never read, so it is
    // neither cleaned (no badutf8) nor refused as an array (`a[]=1` is simply there).
    if (param.type === 'boolean') {
      this.used.add(name);
      const given = this.request.get(name);
      if (given === undefined) return false;
      if (param.deprecated) this.warn(module, messages.deprecatedParam(name, 'value' in given ? given.value : '', featureOf(name)));
      return true;
    }
    const raw = this.take(name);
    // ApiParamValidatorCallbacks: a value the request had to clean up is used, with a warning.
    if (raw?.changed) this.warn(module, messages.badUtf8(name));
    // StringDef: an empty string for a required string parameter counts as missing.
    if (raw === undefined || (param.required && param.type === 'string' && raw.value === '')) {
      if (param.required) {
        // An empty value counts as missing (ParamValidator's PARAM_REQUIRED).
        this.error(module, messages.missingParam(name, raw?.value));
        return undefined;
      }
      return param.default === undefined ? undefined : this.parseValue(module, param, name, String(param.default), true, featureOf);
    }
    if (param.deprecated) this.warn(module, messages.deprecatedParam(name, raw.value, featureOf(name)));
    return this.parseValue(module, param, name, raw.value, false, featureOf);
  }

  private parseValue(
    module: string,
    param: ParamDescriptor,
    name: string,
    value: string,
    isDefault: boolean,
    featureOf: (rest: string) => string,
  ): ParamValue | undefined {
    if (!param.multi) {
      if (value.startsWith(MULTI_SEPARATOR)) {
        this.error(module, messages.notMulti(name, value));
        return undefined;
      }
      const one = this.readOne(module, param, name, value, isDefault, featureOf);
      if ('value' in one) return one.value;
      if ('unrecognized' in one) {
        // ApiQueryLogEvents checks leaction itself, with its own code.
        if (module === 'query+logevents' && param.name === 'action') {
          this.error(module, messages.unrecognizedValueOf('unknown_leaction', name, value));
        } else this.error(module, messages.badValue(name, value, allowedValues(param) ?? []));
      }
      return undefined;
    }

    const list = explodeMultiValue(value, MULTI_HIGH_LIMIT + 1);
    const allowed = allowedValues(param);
    if (param.allSpecifier !== undefined && list.length === 1 && list[0] === param.allSpecifier) {
      return allowed ?? [param.allSpecifier];
    }
    if (list.length > MULTI_LIMIT) {
      this.error(module, messages.tooManyValues(name, MULTI_LIMIT, MULTI_HIGH_LIMIT));
      return undefined;
    }
    const valid: (string | number)[] = [];
    const unrecognized: string[] = [];
    for (const item of list) {
      const one = this.readOne(module, param, name, item, isDefault, featureOf);
      if ('failed' in one) return undefined;
      if ('unrecognized' in one) unrecognized.push(item);
      else valid.push(one.value);
    }
    if (unrecognized.length > 0) this.warn(module, messages.unrecognizedValues(name, value, unrecognized));
    const kept = param.allowsDuplicates ? valid : [...new Set(valid)];
    return kept as string[] | number[];
  }

  private readOne(
    module: string,
    param: ParamDescriptor,
    name: string,
    value: string,
    isDefault: boolean,
    featureOf: (rest: string) => string,
  ): ReadOne {
    const fail = (message: Message): ReadOne => {
      this.error(module, message);
      return { failed: true };
    };
    if (param.type === 'namespace') return readNamespace(param, value);
    const allowed = allowedValues(param);
    if (allowed) {
      if (!allowed.includes(value)) return { unrecognized: true };
      if (!isDefault && param.deprecatedValues?.includes(value)) {
        this.warn(module, messages.deprecatedValue(name, value, featureOf(`${name}=${value}`)));
      }
      return { value };
    }
    switch (param.type) {
      case 'integer':
        return this.readInteger(module, param, name, value) ?? fail(messages.badInteger(name, value));
      case 'limit':
        // `max` is the highest value this caller may ask for.
        if (value === 'max') return { value: param.max ?? Number.MAX_SAFE_INTEGER };
        return this.readInteger(module, param, name, value) ?? fail(messages.badInteger(name, value));
      case 'timestamp': {
        let text = value;
        // PHP treats '' and '0' as false, which ConvertibleTimestamp takes for "now".
        if (text === '' || text === '0') {
          this.warn(module, messages.unclearNowTimestamp(name, text));
          text = 'now';
        }
        const timestamp = parseTimestamp(text, this.now);
        return timestamp === null ? fail(messages.badTimestamp(name, value)) : { value: timestamp };
      }
      case 'user': {
        const user = parseUserValue(value, param.subtypes ?? []);
        return user === null ? fail(messages.badUser(name, value)) : { value: user.value };
      }
      case 'title': {
        const title = parseTitle(value);
        return title === null ? fail(messages.badTitleParam(name, value)) : { value: title.text };
      }
      default:
        return { value };
    }
  }

  /** IntegerDef: digits with an optional sign; out-of-range values are clamped with a warning. */
  private readInteger(module: string, param: ParamDescriptor, name: string, value: string): ReadOne | null {
    if (!/^[+-]?\d+$/.test(value)) return null;
    const big = BigInt(value);
    // PHP's intval() saturates at 64 bits; MediaWiki refuses what does not round-trip.
    if (big > 9223372036854775807n || big < -9223372036854775808n) return null;
    let n = Number(big);
    const { min, max } = param;
    if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
      this.warn(module, messages.outOfRange(name, value, min, max, param.type === 'limit' ? param.highmax : undefined));
      n = min !== undefined && n < min ? min : max!;
    }
    return { value: n };
  }
}

function allowedValues(param: ParamDescriptor): string[] | null {
  if (Array.isArray(param.type)) return param.type;
  if (param.type === 'submodule') return Object.keys(param.submodules ?? {});
  if (param.type === 'namespace') return namespaceValues(param).map(String);
  return null;
}

const namespaceValues = (param: ParamDescriptor): number[] => [...namespaceIds, ...(param.extraNamespaces ?? [])];

/** NamespaceDef: the wiki's namespaces (and the extra ones a parameter allows); `01`, `+1` and `-0` are integers. */
function readNamespace(param: ParamDescriptor, value: string): ReadOne {
  const n = /^[+-]?\d+$/.test(value) ? Number(value) : NaN;
  const id = Object.is(n, -0) ? 0 : n;
  return namespaceValues(param).includes(id) ? { value: id } : { unrecognized: true };
}

/** The module a submodule parameter's value selects (`action=query` → the query module). */
function selected(catalogue: Catalogue, owner: ApiModule, param: string, value: ParamValue | undefined) {
  const map = owner.parameters.find((p) => p.name === param)?.submodules ?? {};
  return typeof value === 'string' && map[value] ? catalogue.moduleByPath.get(map[value]) : undefined;
}

const PAGESET_PARAMS = ['titles', 'pageids', 'revids', 'redirects', 'converttitles'];

function readQuery(reader: RequestReader, catalogue: Catalogue, query: ApiModule, modules: Map<string, Map<string, ParamValue>>) {
  // ApiQuery's constructor builds the page set, which reads its parameters first.
  const pageset = reader.readModule(query, '', 'action=query', PAGESET_PARAMS).values;
  const values = reader.readModule(query, '', 'action=query', query.parameters.map((p) => p.name).filter((n) => !PAGESET_PARAMS.includes(n) && n !== 'generator')).values;
  for (const [k, v] of pageset) values.set(k, v);

  // ApiContinuationManager reads `continue` raw: "<generator params>||<finished modules>".
  const cont = reader.request.get('continue');
  if (cont && 'value' in cont && cont.value !== '' && cont.value.split('||').length !== 2) {
    reader.error('main', messages.badContinue());
  }

  const pages = { titles: values.get('titles'), pageids: values.get('pageids'), revids: values.get('revids') };
  const generatorName = reader.take('generator')?.value;
  let generatorGiven = false;
  if (generatorName !== undefined) {
    const module = catalogue.queryModuleByName.get(generatorName);
    if (!module) reader.error('query', messages.unknownGenerator(generatorName));
    else if (!module.generator) reader.error('query', messages.notGenerator(generatorName));
    else {
      generatorGiven = true;
      values.set('generator', generatorName);
      (reader.parameters.query ??= {}).generator = generatorName;
      // In generator mode the module's parameters take a `g` before its prefix.
      const prefix = `g${module.prefix}`;
      const read = reader.readModule(module, prefix, `action=query&${module.group}=${module.name}`);
      modules.set(module.path, read.values);
      // The generator's own page set checks where its pages come from.
      if (!checkPageSources(reader, pages)) return values;
      // A prop module as the generator works on the query's own pages, not on generated ones.
      if (!read.failed) runRules(reader, module, prefix, read.values, { generator: true, pages, generatorGiven: false });
    }
  } else if (!checkPageSources(reader, pages)) return values;

  for (const group of ['prop', 'list', 'meta']) {
    const names = values.get(group);
    for (const name of Array.isArray(names) ? names.map(String) : []) {
      const module = catalogue.moduleByPath.get(`query+${name}`)!;
      const read = reader.readModule(module, module.prefix, `action=query&${group}=${name}`);
      modules.set(module.path, read.values);
      if (!read.failed) runRules(reader, module, module.prefix, read.values, { generator: false, pages, generatorGiven });
    }
  }
  return values;
}

/** ApiPageSet: only one of titles, pageids and revids (multisource). */
function checkPageSources(reader: RequestReader, pages: Record<string, ParamValue | undefined>): boolean {
  let source: string | undefined;
  for (const name of ['titles', 'pageids', 'revids']) {
    if (pages[name] === undefined) continue;
    if (source) {
      reader.error('query', messages.multiSource(name, source));
      return false;
    }
    source = name;
  }
  return true;
}

/**
 * ApiPageSet::getGoodTitleCount() > 0, which prop modules check before anything else. Page ids
 * and revision ids are taken to exist (as every page a query names is); a title that cannot be
 * a page (`#frag`, `Special:…`, an invalid one) is never a good title.
 */
function hasGoodPages(pages: Record<string, ParamValue | undefined>): boolean {
  if (pages.pageids !== undefined || pages.revids !== undefined) return true;
  const titles = Array.isArray(pages.titles) ? pages.titles.map(String) : [];
  return titles.some((t) => {
    const title = parseTitle(t);
    return title !== null && title.text !== '' && title.namespace >= 0;
  });
}

function runRules(
  reader: RequestReader,
  module: ApiModule,
  prefix: string,
  values: ReadonlyMap<string, ParamValue>,
  mode: { generator: boolean; pages: Record<string, ParamValue | undefined>; generatorGiven: boolean },
) {
  const rule = moduleRules[module.name];
  if (!rule) return;
  let stopped = false;
  const context: ModuleContext = {
    prefix,
    modulePrefix: module.prefix,
    order: module.parameters.map((p) => p.name),
    value: (name) => values.get(name),
    given: (name) => reader.given(prefix + name),
    raw: (name) => {
      const raw = reader.request.get(prefix + name);
      return raw && 'value' in raw ? raw.value : undefined;
    },
    generator: mode.generator,
    pages: mode.pages,
    hasPages: mode.generatorGiven || hasGoodPages(mode.pages),
    error: (message) => {
      if (!stopped) reader.error(module.path, message);
      stopped = true;
    },
    warn: (message) => {
      if (!stopped) reader.warn(module.path, message);
    },
    stopped: () => stopped,
  };
  rule(context);
}

export function checkRequest(catalogue: Catalogue, params: RequestParams, now: () => Date = () => new Date()): RequestCheck {
  const reader = new RequestReader(params, now);
  const main = catalogue.moduleByPath.get('main')!;
  const mainValues = reader.readModule(main, '', '').values;

  // ApiMain::checkAsserts, before the action reads anything: every caller here is anonymous.
  const assert = mainValues.get('assert');
  if (assert === 'user') reader.error('main', messages.assertUserFailed());
  else if (assert === 'bot') reader.error('main', messages.assertBotFailed());
  const assertUser = mainValues.get('assertuser');
  if (typeof assertUser === 'string') reader.error('main', messages.assertNamedUserFailed(assertUser));

  const modules = new Map<string, Map<string, ParamValue>>();
  const actionModule = selected(catalogue, main, 'action', mainValues.get('action'));
  let action = new Map<string, ParamValue>();
  if (actionModule?.path === 'query') action = readQuery(reader, catalogue, actionModule, modules);
  else if (actionModule) action = reader.readModule(actionModule, '', `action=${actionModule.name}`).values;

  // The printer's parameters are read when the answer is printed, and are never "unknown".
  const formatModule = selected(catalogue, main, 'format', mainValues.get('format'));
  for (const p of formatModule?.parameters ?? []) reader.used.add(p.name);
  // Named with their position among the request's parameters, as array_diff keeps PHP's keys.
  const unused = [...params.keys()].map((name, position) => ({ name, position })).filter((p) => !reader.used.has(p.name));
  if (unused.length > 0 && reader.errors.length === 0) reader.warn('main', messages.unrecognizedParams(unused));

  let format = new Map<string, ParamValue>();
  // ApiMain::handleException: a printer that cannot read its parameters (formatversion=3) fails
  // while printing, whether it prints a result or an earlier error. The wiki then warns with the
  // printer's error and errorprinterfailed, and prints again with the defaults: the earlier
  // error if there was one, else the printer's own. These warnings come after all others.
  const printerWarnings: ModuleMessage[] = [];
  if (formatModule) {
    const errorsBefore = reader.errors.length;
    format = reader.readModule(formatModule, '', '').values;
    if (reader.errors.length > errorsBefore) {
      const failure = reader.errors.splice(errorsBefore)[0]!.message;
      printerWarnings.push({ ...failure, module: formatModule.path }, { ...messages.errorPrinterFailed(), module: 'main' });
      if (errorsBefore === 0) reader.errors.push({ message: failure, warningsBefore: reader.warnings.length });
    }
  }

  const first = reader.errors[0];
  const visible = (m: ModuleMessage): CatalogueMessage => ({ code: m.code, text: messageText(m), module: m.module });
  return {
    result: {
      valid: reader.errors.length === 0,
      parameters: reader.parameters,
      errors: reader.errors.map((e) => visible(e.message)),
      warnings: [...reader.warnings, ...printerWarnings].map(visible),
    },
    firstError: first?.message,
    warnings: [...(first ? reader.warnings.slice(0, first.warningsBefore) : reader.warnings), ...printerWarnings],
    main: mainValues,
    action,
    format,
    modules,
  };
}
