import type { ApiModuleInput } from '../../../shared/catalogue-schema.js';
import { queryModule } from '../define-module.js';
import {
  bool, dep, int, limit, marker, nss, someOf, str, strs, ts, user, withExtraNamespaces,
} from '../param-builders.js';
import { DIR, linksHereSet, NO, revisionSet, USERSUB } from '../shared-sets.js';

const singlePageOnly = marker('singlepageonly');

/** Prop modules about a page's links and revisions, and stashed-file info. */
export const linkPropModules: ApiModuleInput[] = [
  queryModule({
    name: 'iwlinks',
    group: 'prop',
    prefix: 'iw',
    className: 'ApiQueryIWLinks',
    parameters: [
      someOf('prop', ['url']),
      str('prefix'),
      str('title'),
      DIR,
      limit(),
      str('continue'),
      bool('url', dep),
    ],
  }),
  queryModule({
    name: 'langlinks',
    group: 'prop',
    prefix: 'll',
    className: 'ApiQueryLangLinks',
    parameters: [
      someOf('prop', ['autonym', 'langname', 'url']),
      str('lang'),
      str('title'),
      DIR,
      str('inlanguagecode', { default: 'en-gb' }),
      limit(),
      str('continue'),
      bool('url', dep),
    ],
  }),
  queryModule({
    name: 'links',
    group: 'prop',
    generator: true,
    prefix: 'pl',
    className: 'ApiQueryLinks',
    parameters: [nss('namespace', withExtraNamespaces), limit(), str('continue'), strs('titles'), DIR],
  }),
  queryModule({
    name: 'linkshere',
    group: 'prop',
    generator: true,
    prefix: 'lh',
    className: 'ApiQueryBacklinksprop',
    parameters: linksHereSet(),
  }),
  queryModule({
    name: 'pageprops',
    group: 'prop',
    prefix: 'pp',
    className: 'ApiQueryPageProps',
    parameters: [str('continue'), strs('prop')],
  }),
  queryModule({
    name: 'redirects',
    group: 'prop',
    generator: true,
    prefix: 'rd',
    className: 'ApiQueryBacklinksprop',
    parameters: [
      someOf('prop', ['fragment', 'pageid', 'title'], { default: 'pageid|title' }),
      nss('namespace'),
      someOf('show', ['!fragment', 'fragment']),
      limit(),
      str('continue'),
    ],
  }),
  queryModule({
    name: 'revisions',
    group: 'prop',
    generator: true,
    prefix: 'rv',
    className: 'ApiQueryRevisions',
    parameters: [
      ...revisionSet(singlePageOnly),
      int('startid', singlePageOnly),
      int('endid', singlePageOnly),
      ts('start', singlePageOnly),
      ts('end', singlePageOnly),
      { ...NO, ...singlePageOnly },
      user('user', USERSUB, singlePageOnly),
      user('excludeuser', USERSUB, singlePageOnly),
      str('tag'),
      str('continue'),
    ],
  }),
  queryModule({
    name: 'stashimageinfo',
    group: 'prop',
    prefix: 'sii',
    className: 'ApiQueryStashImageInfo',
    parameters: [
      strs('filekey'),
      strs('sessionkey', dep),
      someOf(
        'prop',
        ['badfile', 'bitdepth', 'canonicaltitle', 'commonmetadata', 'dimensions', 'extmetadata', 'metadata', 'mime',
          'sha1', 'size', 'thumbmime', 'timestamp', 'url'],
        { default: 'timestamp|url' },
      ),
      int('urlwidth', { default: -1 }),
      int('urlheight', { default: -1 }),
      str('urlparam', { default: '' }),
    ],
  }),
  queryModule({
    name: 'templates',
    group: 'prop',
    generator: true,
    prefix: 'tl',
    className: 'ApiQueryLinks',
    parameters: [nss('namespace', withExtraNamespaces), limit(), str('continue'), strs('templates'), DIR],
  }),
  queryModule({
    name: 'transcludedin',
    group: 'prop',
    generator: true,
    prefix: 'ti',
    className: 'ApiQueryBacklinksprop',
    parameters: linksHereSet(),
  }),
];
