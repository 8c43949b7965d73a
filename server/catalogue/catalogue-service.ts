// Placeholder: the catalogue helper replaces this with the real service.
export interface CatalogueServiceOptions {
  /** Base of licence links, e.g. https://www.mediawiki.org/wiki */
  wikiBaseUrl: string;
}
export type CatalogueService = ReturnType<typeof createCatalogueService>;
export function createCatalogueService(_options: CatalogueServiceOptions) {
  return {};
}
