import type { JsonValue } from './api-json.js';

/**
 * MediaWiki's errors and warnings as its ApiErrorFormatter holds them: a code, the message key
 * with its parameters (what `errorformat=raw` shows), the English text in wikitext (what
 * `errorformat=wikitext` shows; `plaintext` and `html` are derived from it, see
 * message-format.ts) and the `data` members some of them carry. English texts are MediaWiki
 * 1.39's (languages/i18n, includes/api/i18n, ParamValidator/i18n), parameters filled in.
 * One place, so validator, api.php and tests agree on every word.
 */
export type RawParam = string | number | { [key: string]: JsonValue };

export interface Message {
  code: string;
  /** i18n key (`paramvalidator-badinteger`), for errorformat=raw. */
  key: string;
  /** The key's parameters as errorformat=raw writes them. */
  params: RawParam[];
  /** English wikitext with the parameters filled in. */
  wikitext: string;
  /**
   * The HTML form where it is not the wikitext's: ParamValidator passes values as plain-text
   * parameters, which the parser escapes.
   */
  html?: string;
  /** Extra members MediaWiki adds to the error or warning (`data`, or inline for bc errors). */
  data?: { [key: string]: JsonValue };
}

/** Language::formatNum for English: 5000 → "5,000". */
const num = (n: number) => n.toLocaleString('en-US');
/** A parameter value as ParamValidator passes it: typed as plain text. */
const plain = (value: string | number) => ({ plaintext: value });
const number = (n: number) => ({ num: n });
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** Message::listParam( ..., 'text' ): "a, b and c"; 'comma': "a, b, c". */
const textList = (items: readonly string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/**
 * wfEscapeWikiText: user input shown in a message may not become markup. The plain text form
 * turns the entities back into characters.
 */
export function escapeWikiText(text: string): string {
  let out = text.replace(/["&'<=>[\]{|}]/g, (c) => `&#${c.charCodeAt(0)};`);
  out = out.replace(/^([#*:; \n\r!])/, (c) => `&#${c.charCodeAt(0)};`);
  out = out.replace(/([\n\r])([#*:; \n\r!])/g, (_, a: string, b: string) => `${a}&#${b.charCodeAt(0)};`);
  out = out.replace(/(~{3,})/g, (t) => t.replace(/~/g, '&#126;'));
  out = out.replace(/__/g, '_&#95;');
  out = out.replace(/:\/\//g, '&#58;//');
  out = out.replace(/\b(ISBN|RFC|PMID) /g, '$1&#32;');
  return out;
}

const msg = (code: string, key: string, params: RawParam[], wikitext: string, data?: Message['data']): Message =>
  data ? { code, key, params, wikitext, data } : { code, key, params, wikitext };

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A ParamValidator message: its values are plain-text parameters, escaped in HTML. */
const pvMsg = (
  code: string,
  key: string,
  params: RawParam[],
  render: (value: (s: string) => string) => string,
  data?: Message['data'],
): Message => ({ ...msg(code, key, params, render((s) => s), data), html: render(escapeHtml) });

export const MAILING_LIST = 'https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/';

export const messages = {
  badValue: (param: string, value: string, allowed: readonly (string | number)[]): Message =>
    pvMsg(
      'badvalue',
      'paramvalidator-badvalue-enumnotmulti',
      [plain(param), plain(value), { list: allowed.map(plain), type: 'text' }, number(allowed.length)],
      (v) => `Unrecognized value for parameter "${v(param)}": ${v(value)}.`,
    ),
  notMulti: (param: string, value: string): Message =>
    pvMsg('badvalue', 'paramvalidator-notmulti', [plain(param), plain(value)],
      (v) => `Parameter "${v(param)}" accepts only a single value. U+001F multi-value separation may only be used for multi-valued parameters.`),
  unrecognizedValues: (param: string, raw: string, values: readonly string[]): Message =>
    pvMsg(
      'unrecognizedvalues',
      'paramvalidator-unrecognizedvalues',
      [plain(param), plain(raw), { list: values.map(plain), type: 'comma' }, number(values.length)],
      (v) => `Unrecognized ${plural(values.length, 'value', 'values')} for parameter "${v(param)}": ${values.map(v).join(', ')}`,
      { values: [...values] },
    ),
  tooManyValues: (param: string, limit: number, highLimit: number): Message =>
    pvMsg('toomanyvalues', 'paramvalidator-toomanyvalues', [plain(param), number(limit)],
      (v) => `Too many values supplied for parameter "${v(param)}". The limit is ${num(limit)}.`,
      { limit, lowlimit: limit, highlimit: highLimit }),
  missingParam: (param: string, value?: string): Message =>
    pvMsg('missingparam', 'paramvalidator-missingparam', value === undefined ? [plain(param)] : [plain(param), plain(value)],
      (v) => `The "${v(param)}" parameter must be set.`),
  missingOneOf: (params: readonly string[]): Message =>
    msg('missingparam', 'apierror-missingparam-one-of',
      [{ list: params.map((p) => `<var>${p}</var>`), type: 'text' }, params.length],
      `${plural(params.length, 'The parameter', 'One of the parameters')} ${textList(params.map((p) => `<var>${p}</var>`))} is required.`),
  invalidParamMix: (params: readonly string[]): Message =>
    msg('invalidparammix', 'apierror-invalidparammix',
      [{ list: params.map((p) => `<var>${p}</var>`), type: 'text' }, params.length],
      `The ${plural(params.length, 'parameter', 'parameters')} ${textList(params.map((p) => `<var>${p}</var>`))} can not be used together.`),
  cannotUseWith: (param: string, other: string, code = 'invalidparammix'): Message =>
    msg(code, 'apierror-invalidparammix-cannotusewith', [param, other],
      `The <kbd>${param}</kbd> parameter cannot be used with <kbd>${other}</kbd>.`),
  mustUseWith: (param: string, other: string, code = 'invalidparammix'): Message =>
    msg(code, 'apierror-invalidparammix-mustusewith', [param, other],
      `The <kbd>${param}</kbd> parameter may only be used with <kbd>${other}</kbd>.`),
  badInteger: (param: string, value: string): Message =>
    pvMsg('badinteger', 'paramvalidator-badinteger', [plain(param), plain(value)],
      (v) => `Invalid value "${v(value)}" for integer parameter "${v(param)}".`),
  outOfRange: (param: string, value: string, min: number | undefined, max: number | undefined, highmax?: number): Message => {
    const data: { [key: string]: JsonValue } = {};
    if (min !== undefined) data.min = min;
    if (max !== undefined) data.curmax = max;
    if (max !== undefined) data.max = max;
    if (highmax !== undefined) data.highmax = highmax;
    if (min !== undefined && max !== undefined) {
      return pvMsg('outofrange', 'paramvalidator-outofrange-minmax', [plain(param), plain(value), number(min), number(max)],
        (v) => `The value "${v(value)}" for parameter "${v(param)}" must be between ${num(min)} and ${num(max)}.`, data);
    }
    if (min !== undefined) {
      return pvMsg('outofrange', 'paramvalidator-outofrange-min', [plain(param), plain(value), number(min), ''],
        (v) => `The value "${v(value)}" for parameter "${v(param)}" must be no less than ${num(min)}.`, data);
    }
    return pvMsg('outofrange', 'paramvalidator-outofrange-max', [plain(param), plain(value), '', number(max ?? 0)],
      (v) => `The value "${v(value)}" for parameter "${v(param)}" must be no greater than ${num(max ?? 0)}.`, data);
  },
  badTimestamp: (param: string, value: string): Message =>
    pvMsg('badtimestamp', 'paramvalidator-badtimestamp', [plain(param), plain(value)],
      (v) => `Invalid value "${v(value)}" for timestamp parameter "${v(param)}".`),
  unclearNowTimestamp: (param: string, value: string): Message =>
    pvMsg('unclearnowtimestamp', 'paramvalidator-unclearnowtimestamp', [plain(param), plain(value)],
      (v) => `Passing "${v(value)}" for timestamp parameter "${v(param)}" has been deprecated. If for some reason you need to explicitly specify the current time without calculating it client-side, use "now".`),
  badUser: (param: string, value: string): Message =>
    pvMsg('baduser', 'paramvalidator-baduser', [plain(param), plain(value)],
      (v) => `Invalid value "${v(value)}" for user parameter <var>${v(param)}</var>.`),
  /** A title parameter (TitleDef) whose value is no title. */
  badTitleParam: (param: string, value: string): Message =>
    pvMsg('badtitle', 'paramvalidator-badtitle', [plain(param), plain(value)],
      (v) => `Invalid value "${v(value)}" for title parameter <var>${v(param)}</var>: not a valid title string.`),
  /** A module's own title check (Title::newFromText failed). */
  invalidTitle: (value: string): Message =>
    msg('invalidtitle', 'apierror-invalidtitle', [escapeWikiText(value)], `Bad title "${escapeWikiText(value)}".`),
  deprecatedParam: (param: string, value: string, feature: string): Message =>
    pvMsg('deprecation', 'paramvalidator-param-deprecated', [plain(param), plain(value)],
      (v) => `The parameter "${v(param)}" has been deprecated.`, { feature }),
  deprecatedValue: (param: string, value: string, feature: string): Message =>
    pvMsg('deprecation', 'paramvalidator-deprecated-value', [plain(param), plain(value)],
      (v) => `The value "${v(value)}" to parameter "${v(param)}" has been deprecated.`, { feature }),
  /** Said by main beside every deprecation warning. */
  deprecationHelp: (): Message =>
    msg('deprecation-help', 'api-usage-mailinglist-ref', [],
      `Subscribe to the mediawiki-api-announce mailing list at &lt;${MAILING_LIST}&gt; for notice of API deprecations and breaking changes.`),
  legacySlots: (param: string, feature: string): Message =>
    msg('deprecation', 'apiwarn-deprecation-missingparam', [param],
      `Because <var>${param}</var> was not specified, a legacy format has been used for the output. This format is deprecated, and in the future the new format will always be used.`,
      { feature }),
  unrecognizedParams: (params: readonly { name: string; position: number }[]): Message =>
    msg('unrecognizedparams', 'apierror-unrecognizedparams',
      [{ list: Object.fromEntries(params.map((p) => [String(p.position), escapeWikiText(p.name)])), type: 'comma' }, params.length],
      `Unrecognized ${plural(params.length, 'parameter', 'parameters')}: ${params.map((p) => escapeWikiText(p.name)).join(', ')}.`),
  unsupportedArray: (param: string): Message =>
    msg('unsupportedarray', 'apiwarn-unsupportedarray', [param], `Parameter <var>${param}</var> uses unsupported PHP array syntax.`),
  badUtf8: (param: string): Message =>
    msg('badutf8', 'apiwarn-badutf8', [param],
      `The value passed for <var>${param}</var> contains invalid or non-normalized data. Textual data should be valid, NFC-normalized Unicode without C0 control characters other than HT (\\t), LF (\\n), and CR (\\r).`),
  unknownGenerator: (name: string): Message =>
    msg('badgenerator', 'apierror-badgenerator-unknown', [name], `Unknown <kbd>generator=${name}</kbd>.`),
  notGenerator: (name: string): Message =>
    msg('badgenerator', 'apierror-badgenerator-notgenerator', [name], `Module <kbd>${name}</kbd> cannot be used as a generator.`),
  badSubmodule: (parent: string, name: string): Message =>
    msg('badmodule', 'apierror-badmodule-badsubmodule', [parent, escapeWikiText(name)],
      `The module <kbd>${parent}</kbd> does not have a submodule "${escapeWikiText(name)}".`),
  noSubmodules: (path: string): Message =>
    msg('badmodule', 'apierror-badmodule-nosubmodules', [path], `The module <kbd>${path}</kbd> has no submodules.`),
  moduleDisabled: (name: string): Message =>
    msg('moduledisabled', 'apierror-moduledisabled', [name], `The <kbd>${name}</kbd> module has been disabled.`),
  show: (): Message => msg('show', 'apierror-show', [], 'Incorrect parameter - mutually exclusive values may not be supplied.'),
  cidrTooBroad: (family: 'IPv4' | 'IPv6', limit: number): Message =>
    msg('cidrtoobroad', 'apierror-cidrtoobroad', [family, limit], `${family} CIDR ranges broader than /${limit} are not accepted.`),
  invalidIpRange: (value: string): Message =>
    // ApiQueryUserContribs passes the range unescaped.
    msg('invalidiprange', 'apierror-invalidiprange', [value], `Invalid CIDR range "${value}".`),
  badWatchlistToken: (): Message =>
    msg('bad_wltoken', 'apierror-bad-watchlist-token', [],
      'Incorrect watchlist token provided. Please set a correct token in [[Special:Preferences]].'),
  badDiffTo: (prefix: string): Message =>
    msg('diffto', 'apierror-baddiffto', [prefix],
      `<var>${prefix}diffto</var> must be set to a non-negative number, <kbd>prev</kbd>, <kbd>next</kbd> or <kbd>cur</kbd>.`),
  pageCannotExist: (): Message =>
    msg('pagecannotexist', 'apierror-pagecannotexist', [], "Namespace doesn't allow actual pages."),
  badContinue: (): Message =>
    msg('badcontinue', 'apierror-badcontinue', [],
      'Invalid continue param. You should pass the original value returned by the previous query.'),
  unrecognizedValueOf: (code: string, param: string, value: string): Message =>
    msg(code, 'apierror-unrecognizedvalue', [param, escapeWikiText(value)],
      `Unrecognized value for parameter <var>${param}</var>: ${escapeWikiText(value)}.`),
  paramEmpty: (param: string): Message =>
    msg(`paramempty_${param}`, 'apierror-paramempty', [param], `The parameter <var>${param}</var> may not be empty.`),
  assertUserFailed: (): Message =>
    msg('assertuserfailed', 'apierror-assertuserfailed', [], 'You are no longer logged in, so the action could not be completed.'),
  assertBotFailed: (): Message =>
    msg('assertbotfailed', 'apierror-assertbotfailed', [],
      'You do not have the <code>bot</code> right, so the action could not be completed.'),
  assertNamedUserFailed: (name: string): Message =>
    msg('assertnameduserfailed', 'apierror-assertnameduserfailed', [escapeWikiText(name)],
      `You are no longer logged in as "${escapeWikiText(name)}", so the action could not be completed.`),
  permissionDenied: (action: string, actionText: string): Message =>
    msg('permissiondenied', 'apierror-permissiondenied', [{ message: { key: `action-${action}`, params: [] } }],
      `You don't have permission to ${actionText}.`),
  patrolFlagDenied: (): Message =>
    msg('permissiondenied', 'apierror-permissiondenied-patrolflag', [],
      'You need the <code>patrol</code> or <code>patrolmarks</code> right to request the patrolled flag.'),
  notLoggedInWatchlist: (): Message =>
    msg('notloggedin', 'watchlistanontext', [], 'Please log in to view or edit items on your watchlist.'),
  noSuchUser: (code: string, name: string): Message =>
    msg(code, 'nosuchusershort', [escapeWikiText(name)], `There is no user by the name "${escapeWikiText(name)}". Check your spelling.`),
  invalidCategory: (): Message =>
    msg('invalidcategory', 'apierror-invalidcategory', [], 'The category name you entered is not valid.'),
  invalidSha1: (): Message => msg('invalidsha1hash', 'apierror-invalidsha1hash', [], 'The SHA1 hash provided is not valid.'),
  invalidSha1Base36: (): Message =>
    msg('invalidsha1base36hash', 'apierror-invalidsha1base36hash', [], 'The SHA1Base36 hash provided is not valid.'),
  multiSource: (param: string, other: string): Message =>
    msg('multisource', 'apierror-invalidparammix-cannotusewith', [param, other],
      `The <kbd>${param}</kbd> parameter cannot be used with <kbd>${other}</kbd>.`),
  invalidUserId: (id: string): Message =>
    msg('invaliduserid', 'apierror-invaliduserid', [id], `User ID <var>${id}</var> is not valid.`),
  revisionsNoRevids: (p: string): Message =>
    msg('invalidparammix', 'apierror-revisions-norevids', [p],
      `The <var>revids</var> parameter may not be used with the list options (<var>${p}limit</var>, <var>${p}startid</var>, <var>${p}endid</var>, <kbd>${p}dir=newer</kbd>, <var>${p}user</var>, <var>${p}excludeuser</var>, <var>${p}start</var>, and <var>${p}end</var>).`),
  revisionsSinglePage: (p: string): Message =>
    msg('invalidparammix', 'apierror-revisions-singlepage', [p],
      `<var>titles</var>, <var>pageids</var> or a generator was used to supply multiple pages, but the <var>${p}limit</var>, <var>${p}startid</var>, <var>${p}endid</var>, <kbd>${p}dir=newer</kbd>, <var>${p}user</var>, <var>${p}excludeuser</var>, <var>${p}start</var>, and <var>${p}end</var> parameters may only be used on a single page.`),
  paramIp: (): Message => msg('param_ip', 'apierror-badip', [], 'IP parameter is not valid.'),
  cantViewDeleted: (what: 'comment' | 'revision-content' | 'description' | 'metadata', text: string): Message =>
    msg('permissiondenied', `apierror-cantview-deleted-${what}`, [], text),
  uploadStashLoggedOut: (code: string): Message =>
    msg(code, 'apierror-mustbeloggedin-uploadstash', [], 'The upload stash is only available to logged-in users.'),
  imageUsageTitle: (module: string): Message =>
    msg('bad_image_title', 'apierror-imageusage-badtitle', [module], `The title for <kbd>${module}</kbd> must be a file.`),
  includeAllDenied: (): Message =>
    msg('includeAllDenied', 'apierror-siteinfo-includealldenied', [],
      "Cannot view all servers' info unless <var>$wgShowHostnames</var> is true."),
  unrecognizedCodes: (param: string, values: readonly string[]): Message =>
    msg('unrecognizedvalues', 'apiwarn-unrecognizedvalues', [param, { list: [...values], type: 'comma' }, values.length],
      `Unrecognized ${plural(values.length, 'value', 'values')} for parameter <var>${param}</var>: ${values.join(', ')}.`),
  notValidTitleWarning: (value: string): Message =>
    msg('invalidtitle', 'apiwarn-invalidtitle', [escapeWikiText(value)], `"${escapeWikiText(value)}" is not a valid title.`),
  notCategoryWarning: (value: string): Message =>
    msg('invalidcategory', 'apiwarn-invalidcategory', [escapeWikiText(value)], `"${escapeWikiText(value)}" is not a category.`),
  notFileWarning: (value: string): Message =>
    msg('notfile', 'apiwarn-notfile', [escapeWikiText(value)], `"${escapeWikiText(value)}" is not a file.`),
  errorPrinterFailed: (): Message =>
    msg('errorprinterfailed', 'apiwarn-errorprinterfailed', [], 'Error printer failed. Will retry without params.'),
};
