import type { ParamValue } from '../../shared/catalogue-schema.js';
import { messages, type Message } from './messages.js';
import { namespaces } from './site-facts.js';
import { parseTitle } from './title-value.js';
import { parseIpOrRange } from './user-value.js';

/**
 * What a query module's execute() checks in MediaWiki 1.39 before it reads the database, in the
 * order it checks them, for an anonymous caller on a wiki whose given pages exist. Each rule
 * names the MediaWiki class it follows. Parameter names are unprefixed; messages add
 * `c.prefix`, the prefix the module was called with (`bl`, or `gbl` in generator mode).
 */
export interface ModuleContext {
  prefix: string;
  /**
   * The module's own prefix, without the generator's `g`: the names some modules put in their
   * messages (getModulePrefix(), where others use encodeParamName()).
   */
  modulePrefix: string;
  /** The module's parameter names in their defined order. */
  order: readonly string[];
  /** A parameter's value after validation (defaults filled in). */
  value(name: string): ParamValue | undefined;
  /** Whether the request carries the parameter at all (WebRequest::getCheck). */
  given(name: string): boolean;
  /** The request's text for the parameter. */
  raw(name: string): string | undefined;
  /** Called as a generator (`generator=...`). */
  generator: boolean;
  /** The page set's sources. */
  pages: Record<string, ParamValue | undefined>;
  /** Whether the query names any page (titles, pageids, revids or a generator). */
  hasPages: boolean;
  /** The first error ends the module, as dieWithError() does. */
  error(message: Message): void;
  warn(message: Message): void;
  stopped(): boolean;
}

type Rule = (c: ModuleContext) => void;

// ApiBase::parameterNotEmpty: set means neither null nor false.
const isSet = (c: ModuleContext, name: string) => {
  const v = c.value(name);
  return v !== undefined && v !== false;
};
const list = (v: ParamValue | undefined): string[] => (Array.isArray(v) ? v.map(String) : []);

/** The names that are set, in the module's parameter order (as array_intersect keeps it). */
const setInOrder = (c: ModuleContext, names: readonly string[]) =>
  c.order.filter((n) => names.includes(n) && isSet(c, n));

/** ApiBase::requireOnlyOneParameter. */
function onlyOne(c: ModuleContext, ...names: string[]) {
  const set = setInOrder(c, names);
  if (set.length > 1) c.error(messages.invalidParamMix(set.map((n) => c.prefix + n)));
  else if (set.length === 0) c.error(messages.missingOneOf(names.map((n) => c.prefix + n)));
}

/** ApiBase::requireMaxOneParameter. */
function maxOne(c: ModuleContext, ...names: string[]) {
  const set = setInOrder(c, names);
  if (set.length > 1) c.error(messages.invalidParamMix(set.map((n) => c.prefix + n)));
}

/** `show` values that contradict each other: apierror-show. */
function showConflict(c: ModuleContext, pairs: [string, string][], values = list(c.value('show'))) {
  const show = new Set(values);
  if (pairs.some(([a, b]) => show.has(a) && show.has(b))) c.error(messages.show());
}

const negations = (...names: string[]): [string, string][] => names.map((n) => [n, `!${n}`]);

/** Title::newFromText as a module uses it: an invalid title is apierror-invalidtitle. */
function title(c: ModuleContext, name: string) {
  const value = c.value(name);
  if (typeof value !== 'string') return undefined;
  const parsed = parseTitle(value);
  if (!parsed || parsed.interwiki) {
    c.error(messages.invalidTitle(value));
    return undefined;
  }
  return parsed;
}

/** `continue` values are `|`-separated fields; a wrong count is badcontinue. */
function continueFields(c: ModuleContext, count: number | ((n: number) => boolean)) {
  const value = c.value('continue');
  if (typeof value !== 'string') return;
  const n = value.split('|').length;
  if (typeof count === 'number' ? n !== count : !count(n)) c.error(messages.badContinue());
}

/** PHP's (int) cast of a string: leading whitespace, a sign and digits; anything else is 0. */
const phpIntval = (v: string) => {
  const m = /^[ \t\n\r\v\f]*([+-]?\d+)/.exec(v);
  return m ? Number(m[1]) : 0;
};
/** A PHP 8 numeric string: optional surrounding whitespace around a decimal or float. */
const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/;
/** `(int)$v != $v` in PHP 8: a non-numeric string never equals an integer. */
const looseIntMismatch = (v: string) => !PHP_NUMERIC.test(v) || phpIntval(v) !== Number(v);
/** `strval( (int)$v ) !== $v`: only an integer's canonical text round-trips. */
const strictIntMismatch = (v: string) => String(phpIntval(v)) !== v;

/**
 * dieContinueUsageIf over a `|`-separated continue value: the number of fields, and the fields
 * that must read back as integers, loosely (`!=`) or strictly (`strval((int)…) !==`).
 */
function continueShape(c: ModuleContext, count: number, checks: { loose?: number[]; strict?: number[]; test?: (f: string[]) => boolean } = {}) {
  const value = c.value('continue');
  if (typeof value !== 'string') return;
  const fields = value.split('|');
  if (fields.length !== count) return c.error(messages.badContinue());
  if (checks.loose?.some((i) => looseIntMismatch(fields[i]!))) return c.error(messages.badContinue());
  if (checks.strict?.some((i) => strictIntMismatch(fields[i]!))) return c.error(messages.badContinue());
  if (checks.test && !checks.test(fields)) c.error(messages.badContinue());
}

/**
 * ApiBase::getTitleOrPageId / getTitleFromTitleOrPageId. Like a title, a page id is taken to
 * name a page that exists; its namespace cannot be known, so it is taken to be the main one.
 */
function titleOrPageId(c: ModuleContext, canExist = false) {
  onlyOne(c, 'title', 'pageid');
  if (c.stopped()) return undefined;
  if (isSet(c, 'title')) {
    const root = title(c, 'title');
    // getTitleOrPageId (not getTitleFromTitleOrPageId) makes a page of it: Title::canExist()
    // refuses a fragment alone (`#frag`) or a special page, before any check of what the page
    // should be (a category).
    if (canExist && root && (root.text === '' || root.namespace < 0)) {
      c.error(messages.pageCannotExist());
      return undefined;
    }
    return root;
  }
  return { text: '', namespace: 0, interwiki: false };
}

/** Anonymous callers have no watchlist (ApiQueryBase::getWatchlistUser); an owner needs a token. */
function watchlistUser(c: ModuleContext) {
  const owner = c.value('owner');
  if (typeof owner === 'string' && isSet(c, 'token')) {
    // Like every page, a user a query names is taken to exist, unless the name cannot be an
    // account's (an IP address, an invalid name). An account's watchlist token is empty until
    // its owner sets one, and an empty token matches nothing: bad_wltoken.
    const account = !parseIpOrRange(owner) && parseTitle(owner) !== null;
    c.error(account ? messages.badWatchlistToken() : messages.noSuchUser('bad_wlowner', owner));
  } else c.error(messages.notLoggedInWatchlist());
}

/** Patrol flags need the patrol right, which anonymous callers lack. */
const patrolFlags = ['patrolled', '!patrolled', 'unpatrolled', 'autopatrolled', '!autopatrolled'];

/** IP ranges wider than this many bits are refused ($wgBlockCIDRLimit, $wgRangeContributionsCIDRLimit). */
function cidrLimit(c: ModuleContext, value: string, limits: { IPv4: number; IPv6: number }, invalid: Message) {
  const ip = parseIpOrRange(value);
  if (!ip) {
    c.error(invalid);
    return;
  }
  if (ip.bits !== undefined && ip.bits < limits[ip.family]) c.error(messages.cidrTooBroad(ip.family, limits[ip.family]));
}

const backlinks: Rule = (c) => {
  titleOrPageId(c);
  // "ns|title|..." with 2 to 8 fields, by how far the last answer got.
  if (!c.stopped()) continueFields(c, (n) => n >= 2 && n <= 8);
};

/** ApiQueryBacklinks in imageusage mode: the root must be a file. */
const imageUsage: Rule = (c) => {
  const root = titleOrPageId(c);
  if (root && root.namespace !== 6) c.error(messages.imageUsageTitle('imageusage'));
  if (!c.stopped()) continueFields(c, (n) => n >= 2 && n <= 8);
};

/**
 * ApiQueryBase::titlePartToKey: Title::makeTitleSafe( $namespace, $text . 'x' ), so the text may
 * be empty or end in a space, but may not be an invalid title or leave the namespace.
 */
function titleIn(c: ModuleContext, name: string, namespace = 0) {
  const value = String(c.value(name));
  const prefix = namespace === 0 ? '' : `${namespaces.find((n) => n.id === namespace)?.name ?? ''}:`;
  const parsed = parseTitle(`${prefix}${value}x`);
  // A '#' would make the text a fragment.
  if (!parsed || value.includes('#') || parsed.namespace !== namespace || parsed.interwiki) c.error(messages.invalidTitle(value));
}

/**
 * ApiQueryLinks: each title it filters on must be one, or it is skipped with a warning; titles
 * outside the namespace filter are dropped. Returns whether any title is left to filter on
 * (none left means no results, and the module ends before its continue check).
 */
function titlesFilter(c: ModuleContext, name: string): boolean {
  if (!isSet(c, name) || list(c.value(name)).length === 0) return true;
  const namespaces = c.value('namespace');
  let kept = 0;
  for (const value of list(c.value(name))) {
    const t = parseTitle(value);
    if (!t) c.warn(messages.notValidTitleWarning(value));
    else if (!Array.isArray(namespaces) || namespaces.map(Number).includes(t.namespace)) kept++;
  }
  return kept > 0;
}

/** SHA-1 filters: 40 hex digits, or 31 base-36 digits. */
function sha1Checks(c: ModuleContext) {
  const sha1 = c.value('sha1');
  const sha1base36 = c.value('sha1base36');
  if (typeof sha1 === 'string') {
    if (!/^[0-9a-f]{40}$/.test(sha1.toLowerCase())) c.error(messages.invalidSha1());
  } else if (typeof sha1base36 === 'string' && !/^[0-9a-z]{31}$/.test(sha1base36.toLowerCase())) {
    c.error(messages.invalidSha1Base36());
  }
}

/** Deleted revisions: comments need deletedhistory, content deletedtext (anonymous callers have neither). */
function deletedRevisionRights(c: ModuleContext) {
  if (c.stopped()) return;
  const prop = new Set(list(c.value('prop')));
  if (prop.has('comment') || prop.has('parsedcomment')) {
    return c.error(messages.cantViewDeleted('comment', "You don't have permission to view deleted comments."));
  }
  if (prop.has('content') || prop.has('parsetree') || isSet(c, 'diffto') || isSet(c, 'difftotext')) {
    c.error(messages.cantViewDeleted('revision-content', "You don't have permission to view content of deleted revisions."));
  }
}

/** ApiQueryAllLinks: unique lists titles only. */
const allLinks = (props: string[]): Rule => (c) => {
  if (c.value('unique') === true) {
    const matches = list(c.value('prop')).filter((p) => props.includes(p) || p === 'ids');
    if (matches.length > 0) {
      c.error(messages.cannotUseWith(`${c.modulePrefix}prop=${matches.join('|')}`, `${c.modulePrefix}unique`));
      return;
    }
    continueFields(c, 1);
  } else continueFields(c, 2);
  for (const name of ['from', 'to', 'prefix']) if (!c.stopped() && isSet(c, name)) titleIn(c, name);
};

/**
 * ApiQueryRevisionsBase::parseParameters, which the revision modules call only when they are
 * not the generator: what cannot go with `slots`, the diffto value, content limits and the
 * legacy slot format.
 */
function revisionParameters(c: ModuleContext, group: string, module: string) {
  const p = c.prefix;
  const prop = new Set(list(c.value('prop')));
  if (isSet(c, 'slots')) {
    if (prop.has('parsetree')) return c.error(messages.cannotUseWith(`${p}prop=parsetree`, `${p}slots`));
    for (const name of ['expandtemplates', 'generatexml', 'parse', 'diffto', 'difftotext', 'difftotextpst', 'contentformat']) {
      if (isSet(c, name)) return c.error(messages.cannotUseWith(`${p}${name}`, `${p}slots`));
    }
  }
  const diffto = c.value('diffto');
  // A revision number (taken to exist), prev, next or cur; difftotext wins over it.
  if (!isSet(c, 'difftotext') && typeof diffto === 'string' && !/^\d+$/.test(diffto) && !['prev', 'next', 'cur'].includes(diffto)) {
    return c.error(messages.badDiffTo(p));
  }
  const fetchContent = prop.has('content') || prop.has('parsetree') || isSet(c, 'diffto') || isSet(c, 'difftotext');
  const parse = fetchContent && c.value('parse') === true;
  const userMax = parse ? 1 : fetchContent ? 50 : 500;
  const limit = c.value('limit');
  if (typeof limit === 'number' && c.raw('limit') !== 'max' && limit > userMax) {
    c.warn(messages.outOfRange(`${c.prefix}limit`, String(limit), 1, userMax, parse ? 1 : fetchContent ? 500 : 5000));
  }
  const needSlots = fetchContent || prop.has('contentmodel') || prop.has('slotsize') || prop.has('slotsha1');
  if (needSlots && !c.given('slots')) {
    c.warn(messages.legacySlots(`${c.prefix}slots`, `action=query&${group}=${module}&!${c.prefix}slots`));
  }
}

/**
 * ApiQueryBacklinksprop (redirects, linkshere, transcludedin, fileusage), for one good page:
 * the continue value holds the linking page's id, and before it its namespace when several
 * namespaces are asked for by a module that keeps them; every field is an integer. Then the
 * `show` contradiction.
 */
const linkedFrom = (flag: string, fromNamespace: boolean, onlyFiles = false): Rule => (c) => {
  if (!c.hasPages) return;
  // fileusage looks at file pages only; page and revision ids are taken to name main-namespace pages.
  if (onlyFiles && !list(c.pages.titles).some((t) => parseTitle(t)?.namespace === 6)) return;
  const namespaces = c.value('namespace');
  if (Array.isArray(namespaces) && namespaces.length === 0) return;
  const count = 1 + (fromNamespace && Array.isArray(namespaces) && namespaces.length > 1 ? 1 : 0);
  continueShape(c, count, { loose: Array.from({ length: count }, (_, i) => i) });
  if (!c.stopped()) showConflict(c, negations(flag));
};

export const moduleRules: Record<string, Rule> = {
  allcategories: (c) => {
    continueFields(c, 1);
    for (const name of ['from', 'to', 'prefix']) if (!c.stopped() && isSet(c, name)) titleIn(c, name);
  },
  alldeletedrevisions: (c) => {
    const p = c.modulePrefix;
    if (isSet(c, 'user')) {
      for (const name of ['from', 'to', 'prefix', 'excludeuser']) {
        if (isSet(c, name)) return c.error(messages.cannotUseWith(`${p}${name}`, `${p}user`));
      }
    } else {
      for (const name of ['start', 'end']) {
        if (isSet(c, name)) return c.error(messages.mustUseWith(`${p}${name}`, `${p}user`));
      }
    }
    if (c.generator) return;
    revisionParameters(c, 'list', 'alldeletedrevisions');
    deletedRevisionRights(c);
  },
  allfileusages: allLinks([]),
  allimages: (c) => {
    const p = c.modulePrefix;
    if (c.value('sort') === 'name') {
      for (const name of ['start', 'end', 'user']) {
        if (isSet(c, name)) return c.error(messages.mustUseWith(`${p}${name}`, `${p}sort=timestamp`));
      }
      if (c.value('filterbots') !== 'all') return c.error(messages.mustUseWith(`${p}filterbots`, `${p}sort=timestamp`));
      continueFields(c, 1);
      for (const name of ['from', 'to', 'prefix']) if (!c.stopped() && isSet(c, name)) titleIn(c, name, 6);
    } else {
      for (const name of ['from', 'to', 'prefix']) {
        if (isSet(c, name)) return c.error(messages.mustUseWith(`${p}${name}`, `${p}sort=name`));
      }
      if (isSet(c, 'user') && c.value('filterbots') !== 'all') {
        // Called without a code, so the code comes from the message key.
        return c.error(messages.cannotUseWith(`${p}user`, `${p}filterbots`, 'invalidparammix-cannotusewith'));
      }
      continueFields(c, 2);
    }
    if (!c.stopped()) sha1Checks(c);
  },
  alllinks: allLinks([]),
  allmessages: (c) => {
    // The title only matters when messages are parsed.
    if (c.value('enableparser') === true && isSet(c, 'title')) title(c, 'title');
  },
  allpages: (c) => {
    continueFields(c, 1);
    if (c.stopped()) return;
    const ns = Number(c.value('namespace') ?? 0);
    for (const name of ['from', 'continue', 'to']) if (!c.stopped() && isSet(c, name)) titleIn(c, name, ns);
    if (!c.stopped() && isSet(c, 'prefix')) titleIn(c, 'prefix', ns);
    if (c.stopped()) return;
    // ApiQueryAllPages names these two without the module prefix.
    if (!isSet(c, 'prtype') && isSet(c, 'prlevel')) c.error(messages.mustUseWith('prlevel', 'prtype'));
  },
  allredirects: allLinks(['fragment', 'interwiki']),
  allrevisions: (c) => {
    maxOne(c, 'user', 'excludeuser');
    if (!c.stopped() && !c.generator) revisionParameters(c, 'list', 'allrevisions');
    if (!c.stopped()) continueShape(c, 2, { strict: [1] });
  },
  alltransclusions: allLinks([]),
  images: (c) => {
    if (!c.hasPages) return;
    // ApiQueryImages checks its continue value before its filter.
    continueFields(c, 2);
    if (c.stopped()) return;
    for (const value of list(c.value('images'))) {
      const t = parseTitle(value);
      if (!t || t.namespace !== 6) c.warn(messages.notFileWarning(value));
    }
  },
  links: (c) => {
    if (c.hasPages && titlesFilter(c, 'titles')) continueFields(c, 3);
  },
  templates: (c) => {
    if (c.hasPages && titlesFilter(c, 'templates')) continueFields(c, 3);
  },
  pageswithprop: (c) => continueFields(c, 1),
  pagepropnames: (c) => continueFields(c, 1),
  protectedtitles: (c) => continueShape(c, 3, { loose: [1] }),
  // ApiQueryPageProps reads a truthy continue as a page id, pages or not.
  pageprops: (c) => {
    const value = c.value('continue');
    if (typeof value === 'string' && value !== '' && value !== '0' && strictIntMismatch(value)) c.error(messages.badContinue());
  },
  info: (c) => {
    // Checked whether or not there are pages. makeTitleSafe( (int)ns, title ): a title that
    // cannot be made is badcontinue.
    continueShape(c, 2, { test: ([, text]) => parseTitle(text!) !== null && parseTitle(text!)!.text !== '' });
  },
  langlinks: (c) => {
    if (!c.hasPages) return;
    if (isSet(c, 'title') && !isSet(c, 'lang')) c.error(messages.mustUseWith(`${c.prefix}title`, `${c.prefix}lang`));
    // The deprecated url flag stands for prop=url.
    if (!c.stopped()) maxOne(c, 'url', 'prop');
    if (!c.stopped()) continueFields(c, 2);
  },
  // One page: ordered by link id, and by the URL index unless a query pins it down.
  extlinks: (c) => {
    if (c.hasPages) continueFields(c, 2);
  },
  exturlusage: (c) => continueFields(c, 2),
  // ApiQueryContributors checks these before it looks for pages.
  contributors: (c) => {
    maxOne(c, 'group', 'excludegroup', 'rights', 'excluderights');
    if (!c.stopped()) continueFields(c, 2);
  },
  allusers: (c) => maxOne(c, 'group', 'excludegroup'),
  backlinks,
  blocks: (c) => {
    maxOne(c, 'users', 'ip');
    if (c.stopped()) return;
    continueShape(c, 2, { loose: [1] });
    const ip = c.value('ip');
    if (!c.stopped() && typeof ip === 'string') cidrLimit(c, ip, { IPv4: 16, IPv6: 19 }, messages.paramIp());
    if (!c.stopped()) showConflict(c, negations('account', 'ip', 'range', 'temp'));
  },
  categories: (c) => {
    if (!c.hasPages) return;
    const given = list(c.value('categories'));
    let kept = 0;
    for (const value of given) {
      const t = parseTitle(value);
      if (!t || t.namespace !== 14) c.warn(messages.notCategoryWarning(value));
      else kept++;
    }
    // No category left to filter on: no results, and the module ends here.
    if (given.length > 0 && kept === 0) return;
    continueFields(c, 2);
    if (!c.stopped()) showConflict(c, negations('hidden'));
  },
  categorymembers: (c) => {
    const root = titleOrPageId(c, true);
    if (root && root.namespace !== 14) c.error(messages.invalidCategory());
  },
  deletedrevisions: (c) => {
    if (!c.hasPages) return;
    // Revisions it is given are taken to exist as live ones: none is deleted, nothing to do.
    if (c.pages.revids !== undefined) return;
    maxOne(c, 'user', 'excludeuser');
    if (c.stopped()) return;
    if (c.generator) return;
    revisionParameters(c, 'prop', 'deletedrevisions');
    deletedRevisionRights(c);
  },
  deletedrevs: (c) => c.error(messages.permissionDenied('deletedhistory', "view a page's deleted history")),
  embeddedin: backlinks,
  filearchive: (c) => {
    const prop = list(c.value('prop'));
    if (prop.includes('description') || prop.includes('parseddescription')) {
      return c.error(messages.cantViewDeleted('description', "You don't have permission to view descriptions of deleted files."));
    }
    if (prop.includes('metadata')) {
      return c.error(messages.cantViewDeleted('metadata', "You don't have permission to view metadata of deleted files."));
    }
    continueShape(c, 3, { strict: [2] });
    for (const name of ['from', 'to', 'prefix']) if (!c.stopped() && isSet(c, name)) titleIn(c, name, 6);
    if (!c.stopped()) sha1Checks(c);
  },
  fileusage: linkedFrom('redirect', true, true),
  imageusage: imageUsage,
  iwbacklinks: (c) => {
    if (isSet(c, 'title') && !isSet(c, 'prefix')) c.error(messages.mustUseWith(`${c.prefix}title`, `${c.prefix}prefix`));
    if (!c.stopped()) continueFields(c, 3);
  },
  iwlinks: (c) => {
    if (!c.hasPages) return;
    if (isSet(c, 'title') && !isSet(c, 'prefix')) c.error(messages.mustUseWith(`${c.prefix}title`, `${c.prefix}prefix`));
    // The deprecated url flag stands for prop=url.
    if (!c.stopped()) maxOne(c, 'url', 'prop');
    if (!c.stopped()) continueFields(c, 3);
  },
  languageinfo: (c) => {
    // MediaWiki's language list is not kept here; the languages ICU can name stand in for it.
    const codes = list(c.value('code'));
    const known = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
    const unknown = codes.includes('*') ? [] : codes.filter((code) => {
      try {
        return known.of(code) === undefined;
      } catch {
        return true;
      }
    });
    if (unknown.length > 0) c.warn(messages.unrecognizedCodes(`${c.prefix}code`, unknown));
  },
  langbacklinks: (c) => {
    if (isSet(c, 'title') && !isSet(c, 'lang')) c.error(messages.mustUseWith(`${c.prefix}title`, `${c.prefix}lang`, 'nolang'));
    if (!c.stopped()) continueFields(c, 3);
  },
  linkshere: linkedFrom('redirect', true),
  logevents: (c) => {
    maxOne(c, 'title', 'prefix', 'namespace');
    if (c.stopped()) return;
    continueShape(c, 2, { loose: [1] });
    if (!c.stopped() && isSet(c, 'title')) title(c, 'title');
    if (!c.stopped() && isSet(c, 'prefix')) title(c, 'prefix');
  },
  mystashedfiles: (c) => c.error(messages.uploadStashLoggedOut('stashnotloggedin')),
  random: (c) => {
    if (c.given('filterredir')) maxOne(c, 'filterredir', 'redirect');
    const random = (v: string) => /^0\.\d+$/.test(v);
    if (!c.stopped()) {
      continueShape(c, 4, { strict: [2], test: ([rand, start, , end]) => random(rand!) && random(start!) && (end === '0' || end === '1') });
    }
  },
  recentchanges: (c) => {
    continueShape(c, 2, { loose: [1] });
    if (c.stopped()) return;
    if (isSet(c, 'title')) title(c, 'title');
    if (c.stopped()) return;
    showConflict(c, [
      ...negations('minor', 'bot', 'anon', 'redirect', 'patrolled', 'autopatrolled'),
      ['patrolled', 'unpatrolled'], ['!patrolled', 'unpatrolled'], ['autopatrolled', 'unpatrolled'], ['autopatrolled', '!patrolled'],
    ]);
    if (!c.stopped() && list(c.value('show')).some((s) => patrolFlags.includes(s))) c.error(messages.patrolFlagDenied());
    if (!c.stopped()) maxOne(c, 'user', 'excludeuser');
  },
  redirects: linkedFrom('fragment', false),
  revisions: (c) => {
    if (!c.hasPages) return;
    const p = c.prefix;
    // ApiQueryRevisions::run: list options make it enumerate one page's revisions.
    const enumMode = ['user', 'excludeuser', 'limit', 'startid', 'endid', 'start', 'end'].some((n) => isSet(c, n)) || c.value('dir') === 'newer';
    const revids = list(c.pages.revids).length;
    const pageCount = c.pages.titles !== undefined ? list(c.pages.titles).length : c.pages.pageids !== undefined ? list(c.pages.pageids).length : 1;
    if (!c.generator && enumMode && revids > 0) return c.error(messages.revisionsNoRevids(p));
    if (!c.generator && enumMode && revids === 0 && pageCount > 1) return c.error(messages.revisionsSinglePage(p));
    if (!c.generator) revisionParameters(c, 'prop', 'revisions');
    if (c.stopped()) return;
    if (enumMode) {
      maxOne(c, 'startid', 'start');
      if (!c.stopped()) maxOne(c, 'endid', 'end');
      if (!c.stopped()) maxOne(c, 'user', 'excludeuser');
      if (!c.stopped()) continueFields(c, 2);
    }
  },
  siteinfo: (c) => {
    if (list(c.value('prop')).includes('dbrepllag') && c.value('showalldb') === true) c.error(messages.includeAllDenied());
  },
  stashimageinfo: (c) => c.error(messages.uploadStashLoggedOut('notloggedin')),
  transcludedin: linkedFrom('redirect', true),
  usercontribs: (c) => {
    onlyOne(c, 'userprefix', 'userids', 'iprange', 'user');
    if (c.stopped()) return;
    const users = c.value('user');
    if (Array.isArray(users) && users.length === 0) return c.error(messages.paramEmpty(`${c.prefix}user`));
    const ids = c.value('userids');
    if (Array.isArray(ids)) {
      if (ids.length === 0) return c.error(messages.paramEmpty(`${c.prefix}userids`));
      const bad = ids.map(Number).find((id) => id <= 0);
      if (bad !== undefined) return c.error(messages.invalidUserId(String(bad)));
    }
    const iprange = c.value('iprange');
    if (typeof iprange === 'string') {
      cidrLimit(c, iprange, { IPv4: 16, IPv6: 32 }, messages.invalidIpRange(iprange));
      if (c.stopped()) return;
    }
    // ApiQueryUserContribs::prepareQuery: one user's continue value is "timestamp|id"; several
    // users' (a prefix, a range, a list) "mode|user|timestamp|id"; the id must be an integer.
    const several = isSet(c, 'userprefix') || isSet(c, 'iprange') || list(c.value('user')).length > 1 || list(c.value('userids')).length > 1;
    if (several) continueShape(c, 4, { loose: [3], test: ([mode]) => ['name', 'id', 'actor'].includes(mode!) });
    else continueShape(c, 2, { loose: [1] });
    // These run per batch of users found. The users a query names are taken to exist; a prefix
    // or a range names none, so nothing is known to be found.
    if (c.stopped() || isSet(c, 'userprefix') || isSet(c, 'iprange')) return;
    const show = list(c.value('show'));
    if (c.value('toponly') === true) show.push('top');
    showConflict(c, [...negations('minor', 'patrolled', 'autopatrolled', 'top', 'new'), ['autopatrolled', '!patrolled']], show);
    if (!c.stopped() && (show.some((s) => patrolFlags.includes(s)) || list(c.value('prop')).includes('patrolled'))) {
      c.error(messages.patrolFlagDenied());
    }
  },
  users: (c) => maxOne(c, 'userids', 'users'),
  watchlist: watchlistUser,
  watchlistraw: watchlistUser,
};
