import { readFileSync } from 'node:fs';

/**
 * Reads the spec's module list (its own compact notation, e.g. `from S; dir DIR; limit L`) into
 * expectations, independently of the catalogue's data files. The spec is kept as a fixture
 * beside the tests (a copy of ../shared/spec/query-module-catalogue.md) so they run from a
 * clone of the repository alone.
 */
export interface ExpectedParam {
  name: string;
  type: string | string[];
  default?: string | number;
  multi: boolean;
  required: boolean;
  deprecated: boolean;
  deprecatedValues: string[];
  allSpecifier?: string;
  allowsDuplicates: boolean;
  sensitive: boolean;
  extraNamespaces?: number[];
  subtypes?: string[];
  min?: number;
  max?: number;
  highmax?: number;
  info?: { name: string; values?: number[] }[];
  templateVars?: Record<string, string>;
}

export interface ExpectedModule {
  number: number;
  name: string;
  group: string;
  generator: boolean;
  prefix: string;
  readRights: boolean;
  deprecated: boolean;
  noHelpUrls: boolean;
  params: ExpectedParam[];
}

/** The Logo family the spec omits, as the format reference lists it. */
const LOGO_ICONS = [
  'cdxIconLogoCC', 'cdxIconLogoCodex', 'cdxIconLogoMediaWiki', 'cdxIconLogoMetaWiki', 'cdxIconLogoWikibooks',
  'cdxIconLogoWikidata', 'cdxIconLogoWikifunctions', 'cdxIconLogoWikimedia', 'cdxIconLogoWikimediaCommons',
  'cdxIconLogoWikimediaDiscovery', 'cdxIconLogoWikinews', 'cdxIconLogoWikipedia', 'cdxIconLogoWikiquote',
  'cdxIconLogoWikisource', 'cdxIconLogoWikispecies', 'cdxIconLogoWikiversity', 'cdxIconLogoWikivoyage',
  'cdxIconLogoWiktionary',
];

/** Splits on a separator outside backticks and braces. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let tick = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '`') tick = !tick;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (!tick && depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i));
      start = i + separator.length;
      i += separator.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

const list = (text: string) => text.split(/, | and /).map((s) => s.trim()).filter(Boolean);

export function readSpec(path: string): { modules: ExpectedModule[]; sets: Record<string, string[]> } {
  const spec = readFileSync(path, 'utf8');
  const bullet = (label: string) => {
    const line = spec.split('\n').find((l) => l.startsWith(`- ${label}`));
    if (!line) throw new Error(`spec bullet ${label} not found`);
    return line.slice(line.indexOf(': ') + 2);
  };
  const rights = list(bullet('RIGHTS (allusers)').replace(/\.$/, ''));
  const notContributor = list(bullet('RIGHTS-C').replace(/^RIGHTS without /, '').replace(/\.$/, ''));
  const groups = list(bullet('GROUPS').replace(/\.$/, ''));
  const protoText = bullet('PROTO');
  const proto = list(protoText.slice(0, protoText.indexOf(';'))).map((v) => (v === 'the empty string' ? '' : v));
  const usersub = list(/USERSUB = subtypes ([a-z, ]+)/.exec(spec)![1]!.replace(/\.$/, ''));
  const iconLine = spec.split('\n').find((l) => l.includes('`codexicons`'))!;
  const icons = /Suffixes: (.*?)\. The enumeration/.exec(iconLine)![1]!.split(', ').map((s) => `cdxIcon${s}`);
  const sets: Record<string, string[]> = {
    RIGHTS: rights,
    'RIGHTS-C': rights.filter((r) => !notContributor.includes(r)),
    GROUPS: groups,
    PROTO: proto,
    ICONS: [...icons, ...LOGO_ICONS],
  };

  function parseParam(segment: string, info?: ExpectedParam['info']): ExpectedParam {
    let text = segment.trim();
    const name = /^[a-z0-9-{}]+/.exec(text)![0];
    text = text.slice(name.length);
    const p: ExpectedParam = {
      name,
      type: 'string',
      multi: false,
      required: /\breq\b/.test(text),
      deprecated: /\bdep\b(?! values?\))/.test(text),
      deprecatedValues: [],
      allowsDuplicates: /\ballowsduplicates\b/.test(text),
      sensitive: /\(sensitive\)/.test(text),
    };
    const depValues = /\(([a-z]+)(?: and ([a-z]+))?(?: is a| are)? dep values?\)/.exec(text);
    if (depValues) p.deprecatedValues = [depValues[1]!, depValues[2]].filter((v): v is string => !!v);

    const enumeration = /`?\{([^}]*)\}(\[M\])?(?:=([^`;]*))?`?/.exec(text);
    const scalar = /(?:^|\s)(S|I|B|TS|NS|U|L|DIR|NO|title)(\[M\])?(?:=(`[^`]*`|\S+))?(?=[\s,;]|$)/.exec(text);
    if (scalar && (scalar[1] === 'DIR' || scalar[1] === 'NO')) {
      // `dir NO {newer|older}` spells the set out; the set name carries the default.
      Object.assign(p, scalar[1] === 'DIR' ? { type: ['ascending', 'descending'], default: 'ascending' } : { type: ['newer', 'older'], default: 'older' });
    } else if (enumeration) {
      const body = enumeration[1]!;
      p.type = body === 'cdxIcon<suffix>' ? sets.ICONS! : (sets[body] ?? body.split('|').map((v) => (v === '(empty)' ? '' : v)));
      p.multi = !!enumeration[2];
      if (enumeration[3] !== undefined) p.default = enumeration[3].trim();
      if (body === 'PROTO') p.default = '';
      if (/`\s*empty/.test(text)) p.default = '';
      if (/default all of the values in that order/.test(text)) p.default = (p.type as string[]).join('|');
    } else if (scalar) {
      const [, type, multi, dflt] = scalar;
      p.multi = !!multi;
      const typed = { S: 'string', I: 'integer', B: 'boolean', TS: 'timestamp', NS: 'namespace', U: 'user', L: 'limit', title: 'title' } as Record<string, string>;
      p.type = typed[type!]!;
      if (dflt !== undefined) {
        const raw = dflt.replace(/^`|`$/g, '').replace(/,$/, '');
        p.default = ['integer', 'namespace', 'limit'].includes(p.type as string) ? Number(raw) : raw;
      }
    }
    const defaultWord = /\bdefault (`[^`]*`|empty|-?\d+)/.exec(text);
    if (defaultWord) {
      const raw = defaultWord[1]!;
      p.default = raw === 'empty' ? '' : raw.startsWith('`') ? raw.slice(1, -1) : p.type === 'limit' ? Number(raw) : raw;
    }
    if (p.type === 'limit') {
      Object.assign(p, { min: 1, max: 500, highmax: 5000 });
      if (p.default === undefined && !/no default/.test(text)) p.default = 10;
    }
    const min = /\bmin (\d+)/.exec(text);
    if (min) p.min = Number(min[1]);
    if (p.type === 'namespace' && p.multi) p.allSpecifier = '*';
    const all = /allspecifier `([^`]*)`/.exec(text);
    if (all) p.allSpecifier = all[1];
    if (/with extra -2 and -1/.test(text)) p.extraNamespaces = [-2, -1];
    if (p.type === 'user') {
      const subtypes = /with subtypes? ([a-z, ]+)/.exec(text);
      p.subtypes = subtypes ? list(subtypes[1]!) : /USERSUB/.test(text) ? usersub : undefined;
    }
    if (info) p.info = info;
    return p;
  }

  /** `a S, b I (marker m)` or `a TS and b TS (modes 1 and 2)`: several parameters sharing a marker. */
  function parseSegment(segment: string): ExpectedParam[] {
    const marked = /^(.*?)\s*\((marker [a-z]+|modes? [\d and]+|singlepageonly)\)$/.exec(segment);
    if (!marked) return [parseParam(segment)];
    const label = marked[2]!;
    const info = label.startsWith('mode')
      ? [{ name: 'modes', values: list(label.replace(/^modes? /, '')).map(Number) }]
      : [{ name: label.replace(/^marker /, '') }];
    return splitTop(marked[1]!, ', ').flatMap((part) => splitTop(part, ' and ')).map((part) => parseParam(part, info));
  }

  const revsetText = bullet('REVSET');
  const [revsetParams, templated] = revsetText.split('. Templated parameter ');
  const revset = splitTop(revsetParams!, '; ').map((s) => parseParam(s));
  const contentformat = revset.find((p) => p.name === 'contentformat')!;
  const templateMatch = /`([^`]+)` \((\w+) from (\w+)\) with the same enumeration/.exec(templated!)!;
  const slotParam: ExpectedParam = {
    ...contentformat,
    name: templateMatch[1]!,
    deprecated: false,
    templateVars: { [templateMatch[2]!]: templateMatch[3]! },
  };
  // The format reference places the templated parameter third (index 3).
  revset.splice(2, 0, slotParam);

  const setParams = (label: string) => splitTop(bullet(label).replace(/\.$/, ''), '; ');

  const modules: ExpectedModule[] = [];
  for (const line of spec.split('\n')) {
    const m = /^(\d+)\. `([a-z]+)` \(([^)]*)\): (.*)$/.exec(line);
    if (!m) continue;
    const [, number, name, header, rawBody] = m;
    const [headParts, ...notes] = header!.split('; ');
    const head = headParts!.split(', ');
    const prefixToken = head.find((t, i) => i > 0 && t !== 'G') ?? '';
    const prefix = prefixToken === 'prefix empty' ? '' : prefixToken.replace(/^prefix /, '');
    let body = rawBody!.replace(/\.$/, '');
    if (name === 'codexicons') body = body.slice(0, body.indexOf('. Suffixes:'));
    const segments = splitTop(body, '; ');
    let params: ExpectedParam[] = [];
    const own = () => segments.slice(1).flatMap(parseSegment);

    if (segments[0]!.startsWith('REVSET')) {
      params = revset.map((p) => ({ ...p }));
      if (/limit carrying marker (\w+)/.test(segments[0]!)) {
        params.find((p) => p.name === 'limit')!.info = [{ name: /marker (\w+)/.exec(segments[0]!)![1]! }];
      }
      params.push(...own());
    } else if (segments[0]!.startsWith('LINKSHERE set')) {
      params = setParams('LINKSHERE set').map((s) => parseParam(s));
    } else if (segments[0]!.startsWith('BACKLINKS set')) {
      const texts = setParams('BACKLINKS set');
      const addition = /^([a-z]+) and ([a-z]+) add (.*)$/.exec(texts.at(-1)!)!;
      params = texts.slice(0, -1).map((s) => parseParam(s));
      if ([addition[1], addition[2]].includes(name)) params.push(parseParam(addition[3]!));
    } else if (segments[0]!.startsWith('ALLLINKS set')) {
      const withProp = /with (prop .*), no namespace/.exec(segments[0]!);
      const mine = withProp ? [parseParam(withProp[1]!)] : own();
      params = setParams('ALLLINKS set').flatMap((s) => {
        if (s === 'prop') return mine.filter((p) => p.name === 'prop');
        if (s.startsWith('namespace')) return mine.filter((p) => p.name === 'namespace');
        return [parseParam(s)];
      });
    } else {
      params = segments.flatMap(parseSegment);
    }

    modules.push({
      number: Number(number),
      name: name!,
      group: head[0]!,
      generator: head.includes('G'),
      prefix,
      readRights: !notes.includes('no readrights'),
      deprecated: notes.some((n) => n.includes('deprecated')),
      noHelpUrls: notes.includes('no help addresses'),
      params,
    });
  }
  return { modules, sets };
}
