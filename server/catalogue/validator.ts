import type {
  ApiModule,
  CatalogueMessage,
  ParamDescriptor,
  ParamValue,
  ValidationResult,
} from '../../shared/catalogue-schema.js';
import type { Catalogue } from './catalogue.js';
import { messages, type Message } from './messages.js';
import { explodeMultiValue, MULTI_SEPARATOR } from './multi-value.js';
import { parseTimestamp } from './timestamp.js';
import { parseTitle } from './title-value.js';
import { parseUserValue } from './user-value.js';

/**
 * Checks a wiki request against the catalogue without running it, reading each parameter as
 * MediaWiki's ParamValidator would for an anonymous caller (no raised limits). Unlike a wiki,
 * which stops at the first error, it reports every error it finds.
 *
 * api.php reads its own parameters through the same code, so the two cannot disagree.
 */
export interface RequestCheck {
  result: ValidationResult;
  /** Values of main's parameters, by name (defaults filled in). */
  main: ReadonlyMap<string, ParamValue>;
  /** Values of the chosen action module's parameters, by name. */
  action: ReadonlyMap<string, ParamValue>;
  /** Values of the chosen format module's parameters, by name. */
  format: ReadonlyMap<string, ParamValue>;
}

// ParamValidator's defaults: 50 values, 500 for clients with raised limits (never anonymous ones).
const MULTI_LIMIT = 50;
const MULTI_HIGH_LIMIT = 500;

type ReadOne = { value: string | number } | { unrecognized: true } | { failed: true };

/** Parses a query string as PHP does for $_GET: the last of repeated names wins. */
export function parseQueryString(query: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(query.replace(/^\?/, ''))) params.set(name, value);
  return params;
}

class RequestReader {
  readonly used = new Set<string>();
  readonly errors: CatalogueMessage[] = [];
  readonly warnings: CatalogueMessage[] = [];
  readonly parameters: Record<string, Record<string, ParamValue>> = {};

  constructor(
    private readonly request: ReadonlyMap<string, string>,
    private readonly now: () => Date,
  ) {}

  error(module: string, message: Message): void {
    this.errors.push({ ...message, module });
  }

  warn(module: string, message: Message): void {
    // ApiErrorFormatter drops a warning it already holds.
    if (!this.warnings.some((w) => w.module === module && w.code === message.code && w.text === message.text)) {
      this.warnings.push({ ...message, module });
    }
  }

  /** The raw value of a parameter, marking it as understood. */
  take(name: string): string | undefined {
    const raw = this.request.get(name);
    if (raw !== undefined) this.used.add(name);
    return raw;
  }

  /** Reads a module's parameters written with `prefix`; returns their values by unprefixed name. */
  readModule(module: ApiModule, prefix: string, skip: readonly string[] = []): Map<string, ParamValue> {
    const values = new Map<string, ParamValue>();
    const out = (this.parameters[module.path] ??= {});
    for (const param of module.parameters) {
      if (skip.includes(param.name)) continue;
      for (const [name, instance] of this.instances(param, values)) {
        const value = this.readParam(module.path, instance, prefix + name);
        if (value === undefined) continue;
        values.set(name, value);
        out[prefix + name] = value;
      }
    }
    return values;
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

  private readParam(module: string, param: ParamDescriptor, name: string): ParamValue | undefined {
    const raw = this.take(name);
    if (raw === undefined) {
      // Booleans are true when present and false otherwise.
      if (param.type === 'boolean') return false;
      if (param.required) {
        this.error(module, messages.missingParam(name));
        return undefined;
      }
      return param.default === undefined ? undefined : this.parseValue(module, param, name, String(param.default), true);
    }
    if (param.deprecated) this.warn(module, messages.deprecatedParam(name));
    if (param.type === 'boolean') return true;
    // The wiki normalizes all input to NFC before reading it.
    return this.parseValue(module, param, name, raw.normalize('NFC'), false);
  }

  private parseValue(
    module: string,
    param: ParamDescriptor,
    name: string,
    value: string,
    isDefault: boolean,
  ): ParamValue | undefined {
    if (!param.multi) {
      if (value.startsWith(MULTI_SEPARATOR)) {
        this.error(module, messages.notMulti(name));
        return undefined;
      }
      const one = this.readOne(module, param, name, value, isDefault);
      if ('value' in one) return one.value;
      if ('unrecognized' in one) this.error(module, messages.badValue(name, value));
      return undefined;
    }

    const list = explodeMultiValue(value, MULTI_HIGH_LIMIT + 1);
    const allowed = allowedValues(param);
    if (param.allSpecifier !== undefined && list.length === 1 && list[0] === param.allSpecifier) {
      // Every value; for namespaces the wiki's own list, which is not known here.
      return allowed ?? [param.allSpecifier];
    }
    if (list.length > MULTI_LIMIT) {
      this.error(module, messages.tooManyValues(name, MULTI_LIMIT));
      return undefined;
    }
    const valid: (string | number)[] = [];
    const unrecognized: string[] = [];
    for (const item of list) {
      const one = this.readOne(module, param, name, item, isDefault);
      if ('failed' in one) return undefined;
      if ('unrecognized' in one) unrecognized.push(item);
      else valid.push(one.value);
    }
    if (unrecognized.length > 0) this.warn(module, messages.unrecognizedValues(name, unrecognized));
    const kept = param.allowsDuplicates ? valid : [...new Set(valid)];
    return kept as string[] | number[];
  }

  private readOne(module: string, param: ParamDescriptor, name: string, value: string, isDefault: boolean): ReadOne {
    const allowed = allowedValues(param);
    if (allowed) {
      if (!allowed.includes(value)) return { unrecognized: true };
      if (!isDefault && param.deprecatedValues?.includes(value)) this.warn(module, messages.deprecatedValue(name, value));
      return { value };
    }
    const fail = (message: Message): ReadOne => {
      this.error(module, message);
      return { failed: true };
    };
    switch (param.type) {
      case 'integer':
        return this.readInteger(module, param, name, value) ?? fail(messages.badInteger(name, value));
      case 'limit':
        // `max` is the highest value this caller may ask for.
        if (value === 'max') return { value: param.max ?? Number.MAX_SAFE_INTEGER };
        return this.readInteger(module, param, name, value) ?? fail(messages.badInteger(name, value));
      case 'namespace':
        return readNamespace(param, value);
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
        return title === null ? fail(messages.badTitle(value)) : { value: title };
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
      this.warn(module, messages.outOfRange(name, value, min, max));
      n = min !== undefined && n < min ? min : max!;
    }
    return { value: n };
  }
}

function allowedValues(param: ParamDescriptor): string[] | null {
  if (Array.isArray(param.type)) return param.type;
  if (param.type === 'submodule') return Object.keys(param.submodules ?? {});
  return null;
}

const MAX_NAMESPACE = 2_147_483_647;

/** Namespaces: the wiki's own list is not known here, so any non-negative number is accepted. */
function readNamespace(param: ParamDescriptor, value: string): ReadOne {
  if (/^(0|[1-9]\d{0,9})$/.test(value) && Number(value) <= MAX_NAMESPACE) return { value: Number(value) };
  if (/^-\d$/.test(value) && param.extraNamespaces?.includes(Number(value))) return { value: Number(value) };
  return { unrecognized: true };
}

function readQuery(reader: RequestReader, catalogue: Catalogue, query: ApiModule): Map<string, ParamValue> {
  // The generator is not a plain enumeration: the page set names its own errors (badgenerator).
  const values = reader.readModule(query, '', ['generator']);
  for (const group of ['prop', 'list', 'meta']) {
    const names = values.get(group);
    for (const name of Array.isArray(names) ? names.map(String) : []) {
      const module = catalogue.moduleByPath.get(`query+${name}`)!;
      if (module.deprecated) {
        reader.warn(module.path, { code: 'deprecation', text: `${group}=${name} has been deprecated.` });
      }
      reader.readModule(module, module.prefix);
    }
  }

  const generator = reader.take('generator');
  if (generator !== undefined) {
    const module = catalogue.queryModuleByName.get(generator);
    if (!module) reader.error('query', messages.unknownGenerator(generator));
    else if (!module.generator) reader.error('query', messages.notGenerator(generator));
    else {
      values.set('generator', generator);
      (reader.parameters.query ??= {}).generator = generator;
      // In generator mode the module's parameters take a `g` before its prefix.
      reader.readModule(module, `g${module.prefix}`);
    }
  }
  return values;
}

/** The module a submodule parameter's value selects (`action=query` → the query module). */
function selected(catalogue: Catalogue, owner: ApiModule, param: string, value: ParamValue | undefined) {
  const map = owner.parameters.find((p) => p.name === param)?.submodules ?? {};
  return typeof value === 'string' && map[value] ? catalogue.moduleByPath.get(map[value]) : undefined;
}

export function checkRequest(
  catalogue: Catalogue,
  request: ReadonlyMap<string, string>,
  now: () => Date = () => new Date(),
): RequestCheck {
  const reader = new RequestReader(request, now);
  const main = catalogue.moduleByPath.get('main')!;
  const mainValues = reader.readModule(main, '');

  const formatModule = selected(catalogue, main, 'format', mainValues.get('format'));
  const format = formatModule ? reader.readModule(formatModule, '') : new Map<string, ParamValue>();

  const actionModule = selected(catalogue, main, 'action', mainValues.get('action'));
  let action = new Map<string, ParamValue>();
  if (actionModule?.path === 'query') action = readQuery(reader, catalogue, actionModule);
  else if (actionModule) action = reader.readModule(actionModule, '');

  const unused = [...request.keys()].filter((name) => !reader.used.has(name));
  if (unused.length > 0) reader.warn('main', messages.unrecognizedParams(unused));

  return {
    result: {
      valid: reader.errors.length === 0,
      parameters: reader.parameters,
      errors: reader.errors,
      warnings: reader.warnings,
    },
    main: mainValues,
    action,
    format,
  };
}
