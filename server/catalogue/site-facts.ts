/**
 * The facts about this catalogue's wiki that its answers rely on: a default English MediaWiki
 * with no pages, no users and no extensions. The validator reads namespaces from here (as
 * MediaWiki's NamespaceDef does from the wiki's own list) and meta=siteinfo describes them.
 */
export const SITE_NAME = 'Secret Push';

export interface NamespaceFact {
  id: number;
  /** Local name ('' for the main namespace). */
  name: string;
  canonical: string;
  subpages: boolean;
  content: boolean;
  /** `protection` a namespace needs to be edited (MediaWiki: editinterface). */
  protection?: string;
}

const ns = (id: number, name: string, canonical = name, subpages = true, content = false, protection?: string): NamespaceFact =>
  protection ? { id, name, canonical, subpages, content, protection } : { id, name, canonical, subpages, content };

/** MediaWiki's built-in namespaces, as a new English wiki has them ($wgNamespacesWithSubpages defaults). */
export const namespaces: readonly NamespaceFact[] = [
  ns(-2, 'Media', 'Media', false),
  ns(-1, 'Special', 'Special', false),
  ns(0, '', '', false, true),
  ns(1, 'Talk'),
  ns(2, 'User'),
  ns(3, 'User talk'),
  ns(4, SITE_NAME, 'Project'),
  ns(5, `${SITE_NAME} talk`, 'Project talk'),
  ns(6, 'File', 'File', false),
  ns(7, 'File talk'),
  ns(8, 'MediaWiki', 'MediaWiki', true, false, 'editinterface'),
  ns(9, 'MediaWiki talk'),
  ns(10, 'Template'),
  ns(11, 'Template talk'),
  ns(12, 'Help'),
  ns(13, 'Help talk'),
  ns(14, 'Category', 'Category', false),
  ns(15, 'Category talk'),
];

/** The namespaces a namespace parameter accepts (-2 and -1 only where a parameter allows them). */
export const namespaceIds: readonly number[] = namespaces.filter((n) => n.id >= 0).map((n) => n.id);

export const namespaceAliases: readonly { id: number; alias: string }[] = [
  { id: 6, alias: 'Image' },
  { id: 7, alias: 'Image talk' },
];

/** Every name a title prefix may use for a namespace, lower-cased, with its id. */
export const namespaceByName: ReadonlyMap<string, number> = new Map([
  ...namespaces.filter((n) => n.id !== 0).flatMap((n) => [[n.name.toLowerCase(), n.id], [n.canonical.toLowerCase(), n.id]] as [string, number][]),
  ...namespaceAliases.map((a) => [a.alias.toLowerCase(), a.id] as [string, number]),
]);
