import { describe, expect, it } from 'vitest';
import { createCatalogueService } from '../../../server/catalogue/catalogue-service.js';

const catalogue = createCatalogueService({ wikiBaseUrl: 'https://www.mediawiki.org/wiki' });
const names = (q: string) => catalogue.listModules({ q }).map((m) => m.name);

describe('catalogue free-text search: every name a parameter is written under', () => {
  it('finds plain, prefixed and generator-mode names', () => {
    expect(names('aplimit')).toEqual(['allpages']);
    expect(names('gaplimit')).toEqual(['allpages']);
    // Generator mode exists only for generator modules: `gsilimit` is nobody's.
    expect(names('gsiprop')).toEqual([]);
    expect(names('siprop')).toEqual(['siteinfo']);
  });

  it('finds templated parameters by their expanded names', () => {
    // Substring search: arv-, drv- and rv-contentformat-main all contain it.
    expect(names('rvcontentformat-main')).toEqual(['allrevisions', 'deletedrevisions', 'revisions']);
    expect(names('contentformat-main').sort()).toEqual(['alldeletedrevisions', 'allrevisions', 'deletedrevisions', 'revisions']);
  });

  it('every word must match, in any case', () => {
    expect(names('ALLPAGES filterredir')).toEqual(['allpages']);
    expect(names('allpages rvprop')).toEqual([]);
  });
});
