import type { ParamInput, UserSubtype } from '../../shared/catalogue-schema.js';
import { bool, dep, int, limit, ns, nss, oneOf, someOf, str } from './param-builders.js';

/**
 * The spec's shared sets (REVSET, RIGHTS, GROUPS, PROTO, DIR, NO, USERSUB and the LINKSHERE,
 * BACKLINKS and ALLLINKS parameter sets), written once and used by every module that names them.
 */

/** DIR = {ascending|descending}=ascending */
export const DIR = oneOf('dir', ['ascending', 'descending'], { default: 'ascending' });
/** NO = {newer|older}=older */
export const NO = oneOf('dir', ['newer', 'older'], { default: 'older' });
/** USERSUB = subtypes name, ip, temp, interwiki, id */
export const USERSUB: readonly UserSubtype[] = ['name', 'ip', 'temp', 'interwiki', 'id'];

export const GROUPS = ['bot', 'bureaucrat', 'interface-admin', 'suppress', 'sysop'] as const;

/** RIGHTS (allusers). */
export const RIGHTS = [
  'apihighlimits', 'applychangetags', 'autoconfirmed', 'autocreateaccount', 'autopatrol', 'bigdelete',
  'block', 'blockemail', 'bot', 'browsearchive', 'changeemail', 'changetags', 'confirmemail',
  'createaccount', 'createpage', 'createtalk', 'createwithcontentmodel', 'delete', 'delete-redirect',
  'deletechangetags', 'deletedhistory', 'deletedtext', 'deletelogentry', 'deleterevision', 'edit',
  'editcontentmodel', 'editinterface', 'editmyoptions', 'editmyprivateinfo', 'editmyusercss', 'editmyuserjs',
  'editmyuserjson', 'editmyuserjsredirect', 'editmywatchlist', 'editprotected', 'editsemiprotected',
  'editsitecss', 'editsitejs', 'editsitejson', 'editusercss', 'edituserjs', 'edituserjson', 'hideuser',
  'ignore-restricted-groups', 'import', 'importupload', 'interwiki', 'ipblock-exempt', 'linkpurge',
  'logentryimport', 'mailpassword', 'managechangetags', 'markbotedits', 'mergehistory', 'minoredit', 'move',
  'move-categorypages', 'move-rootuserpages', 'move-subpages', 'movefile', 'nominornewtalk', 'noratelimit',
  'override-export-depth', 'pagelang', 'patrol', 'patrolmarks', 'protect', 'purge', 'read', 'renameuser',
  'renameuser-global', 'renderfile', 'renderfile-nonstandard', 'reupload', 'reupload-own', 'reupload-shared',
  'rollback', 'sendemail', 'siteadmin', 'stashbasehtml', 'stashedit', 'suppressionlog', 'suppressredirect',
  'suppressrevision', 'unblockself', 'undelete', 'unwatchedpages', 'upload', 'upload_by_url', 'userrights',
  'userrights-interwiki', 'viewmyprivateinfo', 'viewmywatchlist', 'viewsuppressed',
] as const;

/** RIGHTS-C (contributors): the rights a contributor can be filtered by, without these. */
const notContributorRights = new Set([
  'changeemail', 'confirmemail', 'linkpurge', 'mailpassword', 'purge', 'renderfile',
  'renderfile-nonstandard', 'stashbasehtml', 'stashedit',
]);
export const RIGHTS_C = RIGHTS.filter((right) => !notContributorRights.has(right));

/** PROTO (extlinks, exturlusage): URL protocols; the empty string means any. */
export const PROTO = [
  '', 'bitcoin', 'ftp', 'ftps', 'geo', 'git', 'gopher', 'http', 'https', 'irc', 'ircs', 'magnet', 'mailto',
  'matrix', 'mms', 'news', 'nntp', 'redis', 'sftp', 'sip', 'sips', 'sms', 'ssh', 'svn', 'tel', 'telnet',
  'urn', 'wikipedia', 'worldwind', 'xmpp',
] as const;

/** Content formats of REVSET's contentformat and contentformat-{slot}. */
export const CONTENT_FORMATS = [
  'application/json', 'application/octet-stream', 'application/unknown', 'application/vue+xml',
  'application/x-binary', 'text/css', 'text/javascript', 'text/plain', 'text/unknown', 'text/x-wiki',
  'unknown/unknown',
] as const;

/** Codex icon suffixes listed by the spec. */
const CODEX_ICON_SUFFIXES = [
  'Add', 'Alert', 'AlignCenter', 'AlignLeft', 'AlignRight', 'Appearance', 'ArrowDown', 'ArrowNext',
  'ArrowPrevious', 'ArrowUp', 'Article', 'ArticleAdd', 'ArticleCheck', 'ArticleDisambiguation',
  'ArticleNotFound', 'ArticleRedirect', 'ArticleSearch', 'Articles', 'ArticlesSearch', 'Attachment', 'Bell',
  'BellOutline', 'Bigger', 'Block', 'Bold', 'Book', 'Bookmark', 'BookmarkList', 'BookmarkOutline', 'Bright',
  'Browser', 'Calendar', 'Camera', 'Cancel', 'Chart', 'Check', 'CheckAll', 'Clear', 'Clock', 'Close', 'Code',
  'Collapse', 'Configure', 'Copy', 'Cut', 'Database', 'Die', 'DoubleChevronEnd', 'DoubleChevronStart',
  'DownTriangle', 'Download', 'Draggable', 'Edit', 'EditLock', 'EditUndo', 'Ellipsis', 'Error',
  'ExitFullscreen', 'Expand', 'Eye', 'EyeClosed', 'Feedback', 'Flag', 'FolderPlaceholder', 'Fullscreen',
  'Function', 'FunctionArgument', 'Funnel', 'Globe', 'HalfBright', 'HalfStar', 'Hand', 'Heart', 'Help',
  'HelpNotice', 'Hieroglyph', 'Highlight', 'History', 'Home', 'Image', 'ImageAdd', 'ImageBroken',
  'ImageGallery', 'ImageLayoutBasic', 'ImageLayoutFrame', 'ImageLayoutFrameless', 'ImageLayoutThumbnail',
  'ImageLock', 'Indent', 'Info', 'InfoFilled', 'Instance', 'Italic', 'Journal', 'Key', 'Keyboard',
  'LabFlask', 'Language', 'LargerText', 'Layout', 'Lightbulb', 'Link', 'LinkExternal', 'LinkSecure',
  'ListBullet', 'ListNumbered', 'Literal', 'Lock', 'LogIn', 'LogOut', 'Map', 'MapPin', 'MapPinAdd',
  'MapTrail', 'Markup', 'Mathematics', 'MathematicsDisplayBlock', 'MathematicsDisplayDefault',
  'MathematicsDisplayInline', 'Menu', 'Merge', 'Message', 'Moon', 'Move', 'MoveFirst', 'MoveLast',
  'MusicalScore', 'Network', 'NetworkOff', 'NewWindow', 'Newline', 'Newspaper', 'Next', 'NoWikitext',
  'NotBright', 'Notice', 'OngoingConversation', 'Outdent', 'Outline', 'PageSettings', 'Palette', 'Paste',
  'Pause', 'Play', 'Power', 'Previous', 'Printer', 'PushPin', 'Puzzle', 'QrCode', 'Quotes', 'RecentChanges',
  'Redo', 'Reference', 'ReferenceExisting', 'References', 'Reload', 'Restore', 'Robot', 'Sandbox', 'Search',
  'SearchCaseSensitive', 'SearchDiacritics', 'SearchRegularExpression', 'Settings', 'Share', 'Signature',
  'Smaller', 'SmallerText', 'SortVertical', 'SpecialCharacter', 'SpecialPages', 'SpeechBubble',
  'SpeechBubbleAdd', 'SpeechBubbles', 'Star', 'Stop', 'Strikethrough', 'Subscript', 'Subtract', 'Success',
  'Superscript', 'Table', 'TableAddColumnAfter', 'TableAddColumnBefore', 'TableAddRowAfter',
  'TableAddRowBefore', 'TableCaption', 'TableMergeCells', 'TableMoveColumnAfter', 'TableMoveColumnBefore',
  'TableMoveRowAfter', 'TableMoveRowBefore', 'Tag', 'TemplateAdd', 'TextDirLTR', 'TextDirRTL', 'TextFlow',
  'TextStyle', 'TextSummary', 'Trash', 'Tray', 'UnBlock', 'UnFlag', 'UnLink', 'UnLock', 'UnStar',
  'Underline', 'Undo', 'UpTriangle', 'Update', 'Upload', 'UserActive', 'UserAdd', 'UserAnonymous',
  'UserAvatar', 'UserAvatarOutline', 'UserBlocked', 'UserContributions', 'UserGroup', 'UserRights',
  'UserTalk', 'UserTemporary', 'UserTemporaryLocation', 'ViewCompact', 'ViewDetails', 'VisionSimulator',
  'VolumeDown', 'VolumeOff', 'VolumeUp', 'Watchlist', 'Wikitext', 'Window', 'ZoomIn', 'ZoomOut',
] as const;

/**
 * The project-logo family the spec leaves out, from @wikimedia/codex-icons 2.x
 * (dist/codex-icons.json); cdxIconLogoCodex exists in 2.x only.
 */
const CODEX_LOGO_SUFFIXES = [
  'LogoCC', 'LogoCodex', 'LogoMediaWiki', 'LogoMetaWiki', 'LogoWikibooks', 'LogoWikidata', 'LogoWikifunctions',
  'LogoWikimedia', 'LogoWikimediaCommons', 'LogoWikimediaDiscovery', 'LogoWikinews', 'LogoWikipedia',
  'LogoWikiquote', 'LogoWikisource', 'LogoWikispecies', 'LogoWikiversity', 'LogoWikivoyage', 'LogoWiktionary',
] as const;

export const CODEX_ICONS = [...CODEX_ICON_SUFFIXES, ...CODEX_LOGO_SUFFIXES].map((suffix) => `cdxIcon${suffix}`);

/**
 * REVSET (alldeletedrevisions, allrevisions, deletedrevisions, revisions). contentformat-{slot}
 * sits third, so it takes index 3 and the plain parameters jump from 2 to 4.
 */
export function revisionSet(limitExtra: Omit<ParamInput, 'name' | 'type'> = {}): ParamInput[] {
  return [
    someOf(
      'prop',
      ['comment', 'content', 'contentmodel', 'flags', 'ids', 'parsedcomment', 'roles', 'sha1', 'size',
        'slotsha1', 'slotsize', 'tags', 'timestamp', 'user', 'userid', 'parsetree'],
      { default: 'ids|timestamp|flags|comment|user', deprecatedValues: ['parsetree'] },
    ),
    someOf('slots', ['main'], { allSpecifier: '*' }),
    oneOf('contentformat-{slot}', CONTENT_FORMATS, { templateVars: { slot: 'slots' } }),
    limit({ default: undefined, ...limitExtra }),
    bool('expandtemplates', dep),
    bool('generatexml', dep),
    bool('parse', dep),
    str('section'),
    str('diffto', dep),
    str('difftotext', dep),
    bool('difftotextpst', dep),
    oneOf('contentformat', CONTENT_FORMATS, dep),
  ];
}

/** LINKSHERE set (linkshere, transcludedin, fileusage). */
export function linksHereSet(): ParamInput[] {
  return [
    someOf('prop', ['pageid', 'redirect', 'title'], { default: 'pageid|title|redirect' }),
    nss('namespace'),
    someOf('show', ['!redirect', 'redirect']),
    limit(),
    str('continue'),
  ];
}

/** BACKLINKS set (backlinks, embeddedin, imageusage); backlinks and imageusage add redirect. */
export function backlinksSet({ redirect }: { redirect: boolean }): ParamInput[] {
  return [
    str('title'),
    int('pageid'),
    str('continue'),
    nss('namespace'),
    DIR,
    oneOf('filterredir', ['all', 'nonredirects', 'redirects'], { default: 'all' }),
    limit(),
    ...(redirect ? [bool('redirect')] : []),
  ];
}

/**
 * ALLLINKS set (allfileusages, alllinks, allredirects, alltransclusions): the prop values and
 * the namespace parameter (absent on allfileusages) differ per module.
 */
export function allLinksSet(propValues: readonly string[], namespaceDefault: number | null): ParamInput[] {
  return [
    str('continue'),
    str('from'),
    str('to'),
    str('prefix'),
    bool('unique'),
    someOf('prop', propValues, { default: 'title' }),
    ...(namespaceDefault === null ? [] : [ns('namespace', { default: namespaceDefault, extraNamespaces: [-2, -1] })]),
    limit(),
    DIR,
  ];
}
