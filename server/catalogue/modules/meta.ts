import type { ApiModuleInput } from '../../../shared/catalogue-schema.js';
import { queryModule } from '../define-module.js';
import { bool, oneOf, someOf, str, strs } from '../param-builders.js';

const fileRepoProps = [
  'canUpload', 'displayname', 'favicon', 'initialCapital', 'local', 'name', 'rootUrl', 'scriptDirUrl', 'thumbUrl',
  'url',
];

/** The meta modules: facts about the wiki, the caller and the API itself rather than pages. */
export const metaModules: ApiModuleInput[] = [
  queryModule({
    name: 'allmessages',
    group: 'meta',
    prefix: 'am',
    className: 'ApiQueryAllMessages',
    parameters: [
      strs('messages', { default: '*' }),
      someOf('prop', ['default']),
      bool('enableparser'),
      bool('nocontent'),
      bool('includelocal'),
      strs('args', { allowsDuplicates: true }),
      str('filter'),
      oneOf('customised', ['all', 'modified', 'unmodified'], { default: 'all' }),
      str('lang'),
      str('from'),
      str('to'),
      str('title'),
      str('prefix'),
    ],
  }),
  queryModule({
    name: 'authmanagerinfo',
    group: 'meta',
    prefix: 'ami',
    className: 'ApiQueryAuthManagerInfo',
    // Clients ask it how to log in, so it must answer callers without the read right.
    readRights: false,
    parameters: [
      str('securitysensitiveoperation'),
      oneOf('requestsfor', [
        'change', 'create', 'create-continue', 'link', 'link-continue', 'login', 'login-continue', 'remove', 'unlink',
      ]),
      bool('mergerequestfields'),
      oneOf('messageformat', ['html', 'none', 'raw', 'wikitext'], { default: 'wikitext' }),
    ],
  }),
  queryModule({
    name: 'filerepoinfo',
    group: 'meta',
    prefix: 'fri',
    className: 'ApiQueryFileRepoInfo',
    parameters: [someOf('prop', fileRepoProps, { default: fileRepoProps.join('|') })],
  }),
  queryModule({
    name: 'languageinfo',
    group: 'meta',
    prefix: 'li',
    className: 'ApiQueryLanguageinfo',
    helpUrls: [],
    parameters: [
      someOf('prop', ['autonym', 'bcp47', 'code', 'dir', 'fallbacks', 'name', 'variantnames', 'variants'], {
        default: 'code',
      }),
      strs('code', { default: '*' }),
      str('continue'),
    ],
  }),
  queryModule({
    name: 'siteinfo',
    group: 'meta',
    prefix: 'si',
    className: 'ApiQuerySiteinfo',
    parameters: [
      someOf(
        'prop',
        ['autocreatetempuser', 'autopromote', 'autopromoteonce', 'clientlibraries', 'copyuploaddomains', 'dbrepllag',
          'defaultoptions', 'doubleunderscores', 'extensions', 'extensiontags', 'fileextensions', 'functionhooks',
          'general', 'interwikimap', 'languages', 'languagevariants', 'libraries', 'magicwords', 'namespacealiases',
          'namespaces', 'protocols', 'restrictions', 'rightsinfo', 'sbom', 'showhooks', 'skins',
          'specialpagealiases', 'statistics', 'uploaddialog', 'usergroups', 'variables'],
        { default: 'general' },
      ),
      oneOf('filteriw', ['!local', 'local']),
      bool('showalldb'),
      bool('numberingroup'),
      str('inlanguagecode'),
    ],
  }),
  queryModule({
    name: 'tokens',
    group: 'meta',
    prefix: '',
    className: 'ApiQueryTokens',
    // Clients fetch a login token before they have any rights.
    readRights: false,
    parameters: [
      someOf('type', ['createaccount', 'csrf', 'login', 'patrol', 'rollback', 'userrights', 'watch'], {
        default: 'csrf',
        allSpecifier: '*',
      }),
    ],
  }),
  queryModule({
    name: 'userinfo',
    group: 'meta',
    prefix: 'ui',
    className: 'ApiQueryUserInfo',
    parameters: [
      someOf(
        'prop',
        ['acceptlang', 'blockinfo', 'cancreateaccount', 'centralids', 'changeablegroups', 'editcount', 'email',
          'groupmemberships', 'groups', 'hasmsg', 'implicitgroups', 'latestcontrib', 'options', 'ratelimits',
          'realname', 'registrationdate', 'rights', 'theoreticalratelimits', 'unreadcount', 'watchlistlabels'],
        { allSpecifier: '*' },
      ),
      str('attachedwiki'),
    ],
  }),
];
