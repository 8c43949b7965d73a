import type { ParamValue } from '../../shared/catalogue-schema.js';
import type { JsonValue } from './api-json.js';
import { namespaceAliases, namespaces, SITE_NAME } from './site-facts.js';

/**
 * The meta modules wiki clients ask for before anything else (mwclient: siteinfo general and
 * namespaces with userinfo; mwn: siteinfo general, namespaces, namespacealiases with tokens and
 * userinfo; pywikibot: siteinfo), answered the way MediaWiki 1.39 shapes them, and honest about
 * this wiki: it holds no pages, no users and no extensions, takes no edits (read-only), and
 * every caller is anonymous with only the `read` right.
 */
export const answeredMetaModules = ['meta=siteinfo', 'meta=userinfo', 'meta=tokens'];

/**
 * The release `generator` names. The spec gives no version; its modules are a recent release's
 * (codexicons, temporary accounts), and clients only check a minimum (mwclient: 1.16).
 */
export const MEDIAWIKI_VERSION = '1.45.0';

const list = (v: ParamValue | undefined): string[] => (Array.isArray(v) ? v.map(String) : []);

export interface SiteContext {
  apiUrl: string;
  now: () => Date;
  /** The caller's address: an anonymous user's name. */
  clientIp?: string;
  formatversion: 1 | 2;
}

function general(site: SiteContext): JsonValue {
  const server = new URL(site.apiUrl).origin;
  const script = new URL(site.apiUrl).pathname.replace(/\/api\.php$/, '');
  return {
    mainpage: 'Main Page',
    base: `${server}${script}/index.php/Main_Page`,
    sitename: SITE_NAME,
    mainpageisdomainroot: false,
    logo: '',
    generator: `MediaWiki ${MEDIAWIKI_VERSION}`,
    phpversion: '',
    phpsapi: '',
    dbtype: 'none',
    dbversion: '',
    imagewhitelistenabled: false,
    langconversion: false,
    linkconversion: false,
    titleconversion: false,
    linkprefixcharset: '',
    linkprefix: '',
    linktrail: '/^([a-z]+)(.*)$/sD',
    legaltitlechars: ' %!"$&\'()*,\\-.\\/0-9:;=?@A-Z\\\\^_`a-z~\\x80-\\xFF+',
    invalidusernamechars: '@:>',
    allunicodefixes: false,
    fixarabicunicode: true,
    fixmalayalamunicode: true,
    case: 'first-letter',
    lang: 'en',
    fallback: [],
    rtl: false,
    fallback8bitEncoding: 'windows-1252',
    // Nothing here can be edited: the catalogue answers questions about its API only.
    readonly: true,
    readonlyreason: 'This wiki is a catalogue of query modules: it holds no pages and takes no edits.',
    writeapi: false,
    maxarticlesize: 2097152,
    timezone: 'UTC',
    timeoffset: 0,
    articlepath: `${script}/index.php/$1`,
    scriptpath: script,
    script: `${script}/index.php`,
    variantarticlepath: false,
    server,
    servername: new URL(site.apiUrl).hostname,
    wikiid: 'secretpush',
    time: site.now().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    misermode: false,
    uploadsenabled: false,
    maxuploadsize: 0,
    minuploadchunksize: 1024,
    thumblimits: [120, 150, 180, 200, 250, 300],
    imagelimits: [
      { width: 320, height: 240 }, { width: 640, height: 480 }, { width: 800, height: 600 },
      { width: 1024, height: 768 }, { width: 1280, height: 1024 }, { width: 2560, height: 2048 },
    ],
    favicon: '',
    centralidlookupprovider: 'local',
    allcentralidlookupproviders: ['local'],
    interwikimagic: true,
    magiclinks: { ISBN: false, PMID: false, RFC: false },
    categorycollation: 'uppercase',
    nofollowlinks: true,
    nofollownsexceptions: [],
    nofollowdomainexceptions: [],
    externallinktarget: false,
  };
}

/** ApiResult's content value: `*` in formatversion 1, a named member in 2. */
const contentKey = (site: SiteContext, name: string) => (site.formatversion === 1 ? '*' : name);

function namespaceEntries(site: SiteContext): JsonValue {
  const out: { [id: string]: JsonValue } = {};
  for (const ns of namespaces) {
    const entry: { [key: string]: JsonValue } = {
      id: ns.id,
      case: 'first-letter',
      [contentKey(site, 'name')]: ns.name,
      subpages: ns.subpages,
      content: ns.content,
      nonincludable: false,
    };
    // The main namespace's canonical name is empty, and MediaWiki leaves it out.
    if (ns.canonical !== '') entry.canonical = ns.canonical;
    if (ns.protection) entry.namespaceprotection = ns.protection;
    out[String(ns.id)] = entry;
  }
  return out;
}

/** Every caller is anonymous: the `*` group, which may read and nothing else. */
const ANONYMOUS_RIGHTS = ['read'];

function siteinfo(props: readonly string[], site: SiteContext): { [key: string]: JsonValue } {
  const out: { [key: string]: JsonValue } = {};
  for (const prop of props) {
    switch (prop) {
      case 'general':
        out.general = general(site);
        break;
      case 'namespaces':
        out.namespaces = namespaceEntries(site);
        break;
      case 'namespacealiases':
        out.namespacealiases = namespaceAliases.map((a) => ({ id: a.id, [contentKey(site, 'alias')]: a.alias }));
        break;
      case 'interwikimap':
        out.interwikimap = [];
        break;
      case 'statistics':
        out.statistics = { pages: 0, articles: 0, edits: 0, images: 0, users: 0, activeusers: 0, admins: 0, jobs: 0 };
        break;
      case 'usergroups':
        out.usergroups = [{ name: '*', rights: ANONYMOUS_RIGHTS }];
        break;
      case 'rightsinfo':
        out.rightsinfo = { url: '', text: '' };
        break;
      case 'restrictions':
        out.restrictions = {
          types: ['edit', 'move', 'upload'],
          levels: ['', 'autoconfirmed', 'sysop'],
          cascadinglevels: ['sysop'],
          semiprotectedlevels: ['autoconfirmed'],
        };
        break;
      case 'dbrepllag':
        out.dbrepllag = [{ host: '', lag: 0 }];
        break;
      case 'defaultoptions':
      case 'languagevariants':
      case 'autopromote':
      case 'autopromoteonce':
        out[prop] = {};
        break;
      case 'autocreatetempuser':
        out.autocreatetempuser = { enabled: false };
        break;
      default:
        // Lists of things this wiki has none of: extensions, skins, hooks, magic words, ...
        out[prop] = [];
    }
  }
  return out;
}

function userinfo(props: readonly string[], site: SiteContext): JsonValue {
  const out: { [key: string]: JsonValue } = { id: 0, name: site.clientIp ?? '127.0.0.1', anon: true };
  const all = props.includes('*');
  const has = (p: string) => all || props.includes(p);
  if (has('hasmsg')) out.messages = false;
  if (has('groups')) out.groups = ['*'];
  if (has('groupmemberships')) out.groupmemberships = [];
  if (has('implicitgroups')) out.implicitgroups = ['*'];
  if (has('rights')) out.rights = ANONYMOUS_RIGHTS;
  if (has('changeablegroups')) out.changeablegroups = { add: [], remove: [], 'add-self': [], 'remove-self': [] };
  if (has('options')) out.options = {};
  if (has('editcount')) out.editcount = 0;
  if (has('ratelimits')) out.ratelimits = {};
  if (has('theoreticalratelimits')) out.theoreticalratelimits = {};
  if (has('realname')) out.realname = '';
  if (has('email')) out.email = '';
  if (has('acceptlang')) out.acceptlang = [];
  if (has('unreadcount')) out.unreadcount = 0;
  if (has('centralids')) {
    out.centralids = { local: 0 };
    out.attachedlocal = { local: false };
  }
  if (has('cancreateaccount')) out.cancreateaccount = false;
  return out;
}

/** Anonymous tokens: `+\` for every type (no session, so login and account creation cannot follow). */
function tokens(types: readonly string[]): JsonValue {
  return Object.fromEntries(types.map((t) => [`${t}token`, '+\\']));
}

/** The `query` member for the answered meta modules, from their validated parameters. */
export function answerMetaModules(
  modules: ReadonlyMap<string, ReadonlyMap<string, ParamValue>>,
  site: SiteContext,
): { [key: string]: JsonValue } {
  const query: { [key: string]: JsonValue } = {};
  const si = modules.get('query+siteinfo');
  if (si) Object.assign(query, siteinfo(list(si.get('prop')), site));
  const ui = modules.get('query+userinfo');
  if (ui) query.userinfo = userinfo(list(ui.get('prop')), site);
  const tk = modules.get('query+tokens');
  if (tk) query.tokens = tokens(list(tk.get('type')));
  return query;
}
