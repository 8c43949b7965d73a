/**
 * A generated corpus: random combinations per query module, drawn from the catalogue itself, so
 * that the agreement with MediaWiki is measured on queries nobody wrote (or tuned the
 * validator) by hand. Deterministic for a seed: the same seed always gives the same queries,
 * so a recording stays comparable. Two seeds are recorded (record.ts --split):
 * - `tuning` (seed 37): the validator's rules may be checked and fixed against it;
 * - `heldout` (seed 3701): never looked at while the rules were tuned; its rates are the
 *   honest estimate of how well the validator agrees on queries it has not seen.
 *
 * Every query carries the class of trouble it was built around (`kind`), so that agreement
 * can be reported per class.
 */
import type { ModuleDescriptor, ParamDescriptor } from '../../../../shared/catalogue-schema.js';
import { loadCatalogue } from '../../../../server/catalogue/catalogue.js';
import type { CorpusQuery } from './corpus.js';
import mediawiki139 from './mediawiki-1.39-parameters.json' with { type: 'json' };
import { seededRandom, type SeededRandom } from '../../../support/seeded-random.js';

export const generatedKinds = [
  'valid', 'boundary', 'badvalue', 'show', 'deprecated', 'generator', 'continue', 'encoding',
  'phparray', 'formatversion', 'fragment', 'existence',
] as const;
export type GeneratedKind = (typeof generatedKinds)[number];

export interface GeneratedQuery extends CorpusQuery {
  kind: GeneratedKind;
}

export const splitSeeds = { tuning: 37, heldout: 3701 } as const;
const splitSizes = { tuning: 1800, heldout: 1400 } as const;
export type Split = keyof typeof splitSeeds;


const enc = (s: string) => encodeURIComponent(s).replace(/%7C/g, '|');

/** A value the parameter accepts, as a client would write it. */
function validValue(r: SeededRandom, p: ParamDescriptor): string {
  if (Array.isArray(p.type)) {
    const allowed = p.type.filter((v) => !p.deprecatedValues?.includes(v));
    const pool = allowed.length > 0 ? allowed : p.type;
    if (!p.multi) return r.pick(pool);
    const n = 1 + r.int(Math.min(3, pool.length));
    return [...new Set(Array.from({ length: n }, () => r.pick(pool)))].join('|');
  }
  switch (p.type) {
    case 'boolean': return r.pick(['', '1', 'true']);
    case 'integer': return namesExisting(p) ? '1' : String(p.min !== undefined ? p.min + r.int(5) : r.int(20) + 1);
    case 'limit': return r.pick(['1', '5', '50', 'max', '10']);
    case 'namespace': return p.multi ? r.pick(['0', '0|1', '*', '2|4', '14']) : r.pick(['0', '1', '4', '6', '14']);
    case 'timestamp': return r.pick(['2020-01-01T00:00:00Z', '20200101000000', 'now', '1577836800', '2019-06-01']);
    case 'user': return r.pick(['Admin', '127.0.0.1', '10.0.0.0/24', '#1']);
    case 'title': return r.pick(['Main_Page', 'Talk:Foo', 'Category:X']);
    default:
      if (/title$/.test(p.name)) return r.pick(['Main_Page', 'Category:X', 'File:A.png', 'Foo']);
      if (p.name === 'prefix' || p.name === 'from' || p.name === 'to') return r.pick(['A', 'Main', 'M', '']);
      return r.pick(['foo', 'Main_Page', 'x', '1']);
  }
}

/** Values at and beyond a parameter's limits. */
function boundaryValue(r: SeededRandom, p: ParamDescriptor): string {
  const { min, max } = p;
  const choices = ['0', '-1', '9223372036854775807', '9223372036854775808', '+5', '05', '1.5', '', ' 5'];
  if (min !== undefined) choices.push(String(min), String(min - 1));
  if (max !== undefined) choices.push(String(max), String(max + 1));
  if (p.highmax !== undefined) choices.push(String(p.highmax), String(p.highmax + 1), 'max');
  return r.pick(choices);
}

function badValue(r: SeededRandom, p: ParamDescriptor): string {
  if (Array.isArray(p.type) || p.type === 'namespace') {
    const good = validValue(r, p);
    return r.pick(['bogus', `${good}|bogus`, 'Bogus', `${good}|`, '|', '-3', '99', `${good}|${good}`]);
  }
  switch (p.type) {
    case 'integer': case 'limit': return r.pick(['abc', '1e3', '0x10', '12abc', 'max5']);
    case 'timestamp': return r.pick(['yesterday', '2020-13-45', 'abc', '0', '', '99999999999999999']);
    case 'user': return r.pick(['A|B', 'Foo#bar', '300.1.1.1/99', '<bad>', 'Special:X']);
    default: return r.pick(['[[x]]', '<', '|', '#', '%00']);
  }
}

const CONTINUES = ['abc', '1', '|', '0|', 'a|b|c|d|e|f|g|h|i', '-1|x', '||', '0|Foo|1', '2|2', 'x|'];
const FRAGMENTS = ['#frag', '#', 'Category:#x', '#Foo|Main_Page', 'Main_Page#x', 'Talk:#f'];
const ODD = ['%FF', '%C3%28', '%00', '%1F', 'a%1Fb', '%E2%80%8B', '%C3%A9', '+', '%20x%20', 'A%0AB', '%EF%BF%BE', 'e%CC%81'];

/** Which modules a kind of query can be built on: those with a parameter of this sort. */
const moduleFits: Partial<Record<GeneratedKind, (p: ParamDescriptor) => boolean>> = {
  show: (p) => p.name === 'show' && Array.isArray(p.type),
  deprecated: (p) => Boolean(p.deprecated || p.deprecatedValues?.length),
  continue: (p) => p.name === 'continue',
  boundary: (p) => (p.type === 'integer' || p.type === 'limit') && !namesExisting(p),
  existence: (p) => p.type === 'string' && Boolean(p.multi),
};

/**
 * The pages a prop module works on. The validator assumes that every page, revision and user a
 * query names exists (it has no pages to look at); the recording wiki has one page (Main Page,
 * id 1, revision 1) and one user (Admin), so the generated queries name only those where
 * existence decides the answer. Titles that cannot be pages at all (`#frag`) are still drawn.
 */
const pageSources = ['titles=Main_Page', 'pageids=1', 'revids=1', 'titles=Main%20Page'];
/** Parameters naming a page, revision or user by id: the existing one. */
const namesExisting = (p: ParamDescriptor) => /(^|[^a-z])(pageid|startid|endid|revid|ids|userids|diffto)$/.test(p.name) || p.name === 'pageid' || p.name === 'fromid';

/**
 * MediaWiki 1.39's own query parameters (its paraminfo, saved once as
 * mediawiki-1.39-parameters.json). The catalogue describes a newer MediaWiki; a query using
 * what 1.39 lacks or defines otherwise (a module, a parameter, a value, a deprecation or a
 * range) would measure the version gap, not the validator's rules, so the generator draws only
 * on what both define alike.
 */
type Known = Record<string, Record<string, { values?: string[]; deprecated?: boolean; deprecatedValues?: string[]; min?: number; max?: number }>>;

function sharedWith139(module: ModuleDescriptor): ModuleDescriptor | null {
  const known = (mediawiki139 as Known)[module.name];
  if (!known) return null;
  const parameters: ParamDescriptor[] = [];
  for (const p of module.parameters) {
    const theirs = known[p.name];
    if (!theirs || Boolean(theirs.deprecated) !== Boolean(p.deprecated)) continue;
    if (theirs.min !== p.min || (p.type !== 'limit' && theirs.max !== p.max)) continue;
    if (Array.isArray(p.type)) {
      const same = (v: string) => theirs.values?.includes(v) && Boolean(theirs.deprecatedValues?.includes(v)) === Boolean(p.deprecatedValues?.includes(v));
      const values = p.type.filter(same);
      if (values.length === 0) continue;
      parameters.push({ ...p, type: values, deprecatedValues: p.deprecatedValues?.filter(same) });
    } else parameters.push(p);
  }
  return { ...module, parameters };
}

export function generateCorpus(seed: number, count = 1600): GeneratedQuery[] {
  const r = seededRandom(seed);
  const queryModules = loadCatalogue().queryModules.map(sharedWith139).filter((m) => m !== null);
  const out: GeneratedQuery[] = [];
  const seen = new Set<string>();

  const build = (kind: GeneratedKind): string | null => {
    const fits = moduleFits[kind];
    const candidates = queryModules.filter((m) => (kind !== 'generator' || m.generator) && (!fits || m.parameters.some(fits)));
    const module = r.pick(candidates);
    const params = module.parameters.filter((p) => !p.templateVars);
    const asGenerator = kind === 'generator' || (module.generator && r.chance(kind === 'show' ? 0.35 : 0.15));
    const prefix = asGenerator ? `g${module.prefix}` : module.prefix;
    const parts: string[] = asGenerator ? [`generator=${module.name}`] : [`${module.group}=${module.name}`];
    if (module.group === 'prop' || asGenerator ? r.chance(0.8) : r.chance(0.1)) parts.push(r.pick(pageSources));
    const set = (p: ParamDescriptor, value: string, raw = false) => parts.push(`${prefix}${p.name}=${raw ? value : enc(value)}`);
    // Background: zero to two other parameters with valid values.
    for (let i = r.int(3); i > 0 && params.length > 0; i--) {
      const p = r.pick(params);
      set(p, validValue(r, p));
    }
    switch (kind) {
      case 'valid': case 'generator': {
        for (let i = 1 + r.int(2); i > 0 && params.length > 0; i--) {
          const p = r.pick(params);
          set(p, kind === 'generator' && r.chance(0.5) ? badValue(r, p) : validValue(r, p));
        }
        break;
      }
      case 'boundary': {
        const ints = params.filter((p) => (p.type === 'integer' || p.type === 'limit') && !namesExisting(p));
        if (ints.length === 0) return null;
        set(r.pick(ints), boundaryValue(r, r.pick(ints)));
        break;
      }
      case 'badvalue': {
        if (params.length === 0) return null;
        const p = r.pick(params);
        set(p, badValue(r, p));
        break;
      }
      case 'show': {
        const show = params.find((p) => p.name === 'show' && Array.isArray(p.type));
        if (!show) return null;
        const values = show.type as string[];
        const positive = values.filter((v) => !v.startsWith('!'));
        const a = r.pick(positive);
        const extra = r.chance(0.4) ? [r.pick(values)] : [];
        set(show, r.chance(0.8) ? [a, `!${a}`, ...extra].join('|') : [a, ...extra].join('|'));
        break;
      }
      case 'deprecated': {
        const withDeprecated = params.filter((p) => p.deprecated || p.deprecatedValues?.length);
        if (withDeprecated.length === 0) return null;
        const p = r.pick(withDeprecated);
        set(p, p.deprecatedValues?.length ? r.pick(p.deprecatedValues) : validValue(r, p));
        break;
      }
      case 'continue': {
        const cont = params.find((p) => p.name === 'continue');
        if (!cont) return null;
        set(cont, r.pick(CONTINUES));
        break;
      }
      case 'encoding': {
        if (params.length === 0) return null;
        const p = r.pick(params);
        set(p, `${r.chance(0.5) ? validValue(r, p) : ''}${r.pick(ODD)}`, true);
        break;
      }
      case 'phparray': {
        const name = r.pick(['foo', 'bar', `${prefix}bogus`, 'x', 'titles', `${prefix}${params[0]?.name ?? 'limit'}`]);
        parts.push(r.pick([`${name}[]=5`, `${name}[a]=1`, `${name}[]=1&${name}[]=2`, `${name}%5B%5D=5`]));
        break;
      }
      case 'formatversion':
        parts.push(`formatversion=${r.pick(['0', '3', '-1', 'abc', '1', '2', 'latest', '', '2|1', '1.0'])}`);
        if (r.chance(0.5) && params.length > 0) {
          const p = r.pick(params);
          set(p, r.chance(0.5) ? badValue(r, p) : validValue(r, p));
        }
        break;
      case 'fragment': {
        const titled = params.filter((p) => p.type === 'title' || /^(title|from|to|prefix|continue)$/.test(p.name));
        if (titled.length > 0 && r.chance(0.7)) set(r.pick(titled), r.pick(FRAGMENTS));
        else parts.push(`titles=${enc(r.pick(FRAGMENTS))}`);
        break;
      }
      case 'existence': {
        // Parameters naming titles that the wiki may or may not have.
        const named = params.filter((p) => p.type === 'string' && p.multi);
        if (named.length === 0) return null;
        set(r.pick(named), r.pick(['Foo', 'File:Nope.png', 'Category:Nope', 'Template:Nope|Foo', 'Main_Page', '<']));
        break;
      }
    }
    return parts.join('&');
  };

  for (let attempts = 0; out.length < count && attempts < count * 20; attempts++) {
    const kind = generatedKinds[attempts % generatedKinds.length]!;
    const rest = build(kind);
    if (rest === null) continue;
    const version = kind !== 'formatversion' && r.chance(0.3) ? 'formatversion=2&' : '';
    const query = `format=json&${version}action=query&${rest}`;
    if (seen.has(query)) continue;
    seen.add(query);
    out.push({ query, kind });
  }
  return out;
}

export const generatedSplit = (split: Split) => generateCorpus(splitSeeds[split], splitSizes[split]);
