import { describe, expect, it } from 'vitest';
import { createCatalogueService } from '../../../server/catalogue/catalogue-service.js';

const catalogue = createCatalogueService({ wikiBaseUrl: 'https://wiki.example/wiki/' });
const api = (query: string) => {
  const answer = catalogue.answerApi({ query, apiUrl: 'https://wiki.example/api.php' });
  return { ...answer, json: JSON.parse(answer.body) as Record<string, any> };
};
const modulesOf = (query: string) => api(query).json.paraminfo.modules as Record<string, any>[];

describe('action=paraminfo', () => {
  it('writes a module entry with MediaWiki key order (formatversion 2)', () => {
    const [allpages] = modulesOf('action=paraminfo&modules=query%2Ballpages&formatversion=2');
    expect(Object.keys(allpages!)).toEqual([
      'name', 'classname', 'path', 'group', 'prefix', 'source', 'sourcename', 'licensetag', 'licenselink',
      'readrights', 'generator', 'helpurls', 'parameters', 'templatedparameters',
    ]);
    expect(allpages).toMatchObject({
      name: 'allpages',
      classname: 'MediaWiki\\Api\\ApiQueryAllPages',
      path: 'query+allpages',
      group: 'list',
      prefix: 'ap',
      source: 'MediaWiki',
      sourcename: 'MediaWiki',
      licensetag: 'GPL-2.0-or-later',
      licenselink: 'https://wiki.example/wiki/Special:Version/License/MediaWiki',
      readrights: true,
      generator: true,
      helpurls: ['https://www.mediawiki.org/wiki/Special:MyLanguage/API:Allpages'],
      templatedparameters: [],
    });
    const limit = allpages!.parameters.find((p: any) => p.name === 'limit');
    expect(Object.keys(limit)).toEqual(['index', 'name', 'type', 'required', 'default', 'multi', 'min', 'max', 'highmax']);
    expect(limit).toEqual({ index: 14, name: 'limit', type: 'limit', required: false, default: 10, multi: false, min: 1, max: 500, highmax: 5000 });
    const prtype = allpages!.parameters.find((p: any) => p.name === 'prtype');
    expect(Object.keys(prtype)).toEqual(['index', 'name', 'type', 'required', 'multi', 'lowlimit', 'highlimit', 'limit']);
  });

  it('orders deprecated, sensitive, allspecifier, type keys and info as MediaWiki does', () => {
    const [deletedrevs, watchlist, rcs] = modulesOf('action=paraminfo&modules=query%2Bdeletedrevs|query%2Bwatchlist|query%2Brecentchanges&formatversion=2');
    expect(Object.keys(deletedrevs!).slice(9, 11)).toEqual(['deprecated', 'readrights']);
    const prop = deletedrevs!.parameters.find((p: any) => p.name === 'prop');
    expect(prop.type.at(-1)).toBe('token');
    expect(prop.deprecatedvalues).toEqual(['token']);
    expect(deletedrevs!.parameters[0].info).toEqual([{ name: 'modes', values: [1, 2] }]);
    const token = watchlist!.parameters.find((p: any) => p.name === 'token');
    expect(Object.keys(token)).toEqual(['index', 'name', 'type', 'required', 'sensitive', 'multi']);
    const ns = rcs!.parameters.find((p: any) => p.name === 'namespace');
    expect(Object.keys(ns)).toEqual([
      'index', 'name', 'type', 'required', 'multi', 'lowlimit', 'highlimit', 'limit', 'allspecifier', 'extranamespaces',
    ]);
    expect(ns).toMatchObject({ type: 'namespace', allspecifier: '*', extranamespaces: [-2, -1] });
    const user = rcs!.parameters.find((p: any) => p.name === 'user');
    expect(user.subtypes).toEqual(['name', 'ip', 'temp', 'interwiki', 'id']);
  });

  it('formatversion 1: true booleans are "", false ones are left out', () => {
    const [allpages] = modulesOf('action=paraminfo&modules=query%2Ballpages');
    expect(allpages!.readrights).toBe('');
    expect(allpages!.generator).toBe('');
    const from = allpages!.parameters[0];
    expect(from).toEqual({ index: 1, name: 'from', type: 'string' });
    expect('multi' in from).toBe(false);
    expect('required' in from).toBe(false);
    const prtype = allpages!.parameters.find((p: any) => p.name === 'prtype');
    expect(prtype.multi).toBe('');
    const [info] = modulesOf('action=paraminfo&modules=query%2Binfo');
    expect('mustExist' in info!.parameters.find((p: any) => p.name === 'linkcontext')).toBe(false);
    const [info2] = modulesOf('action=paraminfo&modules=query%2Binfo&formatversion=2');
    expect(info2!.parameters.find((p: any) => p.name === 'linkcontext').mustExist).toBe(false);
  });

  it('formatversion 1 escapes non-ASCII as \\uXXXX (lower-case hex); formatversion 2 writes UTF-8', () => {
    const v1 = api('action=paraminfo&modules=query%2Bfoo%C3%A9%F0%9F%98%80').body;
    expect(v1).toContain('foo\\u00e9\\ud83d\\ude00');
    expect(/[^\x00-\x7f]/.test(v1)).toBe(false);
    expect(api('action=paraminfo&modules=query%2Bfoo%C3%A9&utf8=1').body).toContain('fooé');
    expect(api('action=paraminfo&modules=query%2Bfoo%C3%A9&formatversion=2').body).toContain('fooé');
    expect(api('action=paraminfo&modules=query%2Bfoo%C3%A9&formatversion=2&ascii=1').body).toContain('foo\\u00e9');
    // Slashes are not escaped.
    expect(v1).not.toContain('\\/');
  });

  it('expands query+* to every query module sorted by name, and removes duplicates', () => {
    const all = modulesOf('action=paraminfo&modules=query%2B*&formatversion=2');
    expect(all).toHaveLength(64);
    const names = all.map((m) => m.name);
    expect(names).toEqual([...names].sort());
    const again = modulesOf('action=paraminfo&modules=query%2Blinks|query%2B*|query%2Blinks&formatversion=2');
    expect(again).toHaveLength(64);
    expect(again[0]!.name).toBe('links');
    // A `+` sent unencoded arrives as a space, which MediaWiki also takes as the separator.
    expect(modulesOf('action=paraminfo&modules=query+allpages|query+links').map((m) => m.name)).toEqual(['allpages', 'links']);
  });

  it('keeps request order', () => {
    expect(modulesOf('action=paraminfo&modules=query%2Blinks|query%2Ballpages').map((m) => m.path)).toEqual([
      'query+links', 'query+allpages',
    ]);
  });

  it('skips unknown modules with a badmodule warning', () => {
    const { json } = api('action=paraminfo&modules=query%2Bfoo|query%2Ballpages|nope|query%2Ballpages%2Bx');
    expect(json.warnings).toEqual({
      paraminfo: {
        '*': [
          'The module "query" does not have a submodule "foo".',
          'The module "main" does not have a submodule "nope".',
          'The module "query+allpages" has no submodules.',
        ].join('\n'),
      },
    });
    expect(json.paraminfo.modules.map((m: any) => m.name)).toEqual(['allpages']);
    const v2 = api('action=paraminfo&modules=query%2Bfoo&formatversion=2').json;
    expect(v2).toEqual({
      warnings: { paraminfo: { warnings: 'The module "query" does not have a submodule "foo".' } },
      paraminfo: { helpformat: 'none' },
    });
    expect(Object.keys(api('action=paraminfo&modules=query%2Bfoo').json)).toEqual(['warnings', 'paraminfo']);
  });

  it('refuses more than 50 module paths with toomanyvalues', () => {
    const paths = Array.from({ length: 51 }, (_, i) => `query%2Bm${i}`).join('|');
    const answer = api(`action=paraminfo&modules=${paths}`);
    expect(answer.errorCode).toBe('toomanyvalues');
    expect(answer.json.error).toMatchObject({
      code: 'toomanyvalues',
      info: 'Too many values supplied for parameter "modules". The limit is 50.',
    });
    expect(answer.json.error['*']).toContain('https://wiki.example/api.php');
    const fifty = modulesOf(`action=paraminfo&modules=${catalogue.listModules().slice(0, 50).map((m) => `query%2B${m.name}`).join('|')}`);
    expect(fifty).toHaveLength(50);
  });

  it('serves main and query entries that pywikibot can read', () => {
    const [main, paraminfo, query] = modulesOf('action=paraminfo&modules=main|paraminfo|query');
    expect(main).toMatchObject({ name: 'main', path: 'main', classname: 'MediaWiki\\Api\\ApiMain', prefix: '' });
    expect('group' in main!).toBe(false);
    const action = main!.parameters.find((p: any) => p.name === 'action');
    expect(action.type).toEqual(['paraminfo', 'query']);
    expect(action.submodules).toEqual({ paraminfo: 'paraminfo', query: 'query' });
    expect(paraminfo).toMatchObject({ path: 'paraminfo', group: 'action' });
    expect(query).toMatchObject({ path: 'query', group: 'action' });
    for (const group of ['prop', 'list', 'meta']) {
      const param = query!.parameters.find((p: any) => p.name === group);
      expect(param.multi).toBe('');
      expect(param.limit).toBe(50);
      for (const [name, path] of Object.entries(param.submodules)) expect(path).toBe(`query+${name}`);
    }
    const list = query!.parameters.find((p: any) => p.name === 'list');
    expect(list.type.at(-1)).toBe('deletedrevs');
    expect(list.deprecatedvalues).toEqual(['deletedrevs']);
    expect(Object.keys(list.submodules)).toHaveLength(37);
    const generator = query!.parameters.find((p: any) => p.name === 'generator');
    expect(generator.submoduleparamprefix).toBe('g');
    expect(generator.type).toContain('allpages');
    expect(generator.type).not.toContain('info');
    // formatversion 1 leaves out the false `required` and `multi`.
    expect(Object.keys(generator)).toEqual(['index', 'name', 'type', 'submodules', 'submoduleparamprefix']);
    // pywikibot: the generator modules are a subset of the prop/list/meta submodules.
    const all = new Set(['prop', 'list', 'meta'].flatMap((g) => Object.keys(query!.parameters.find((p: any) => p.name === g).submodules)));
    expect(generator.type.every((n: string) => all.has(n))).toBe(true);
  });

  it('writes the REVSET templated parameter with its shared index', () => {
    const [revisions] = modulesOf('action=paraminfo&modules=query%2Brevisions&formatversion=2');
    expect(revisions!.parameters.slice(0, 3).map((p: any) => p.index)).toEqual([1, 2, 4]);
    expect(revisions!.templatedparameters).toHaveLength(1);
    expect(Object.keys(revisions!.templatedparameters[0])).toEqual(['index', 'name', 'templatevars', 'type', 'required', 'multi']);
    expect(revisions!.templatedparameters[0]).toMatchObject({ index: 3, name: 'contentformat-{slot}', templatevars: { slot: 'slots' } });
    expect(revisions!.parameters.find((p: any) => p.name === 'limit').info).toEqual([{ name: 'singlepageonly' }]);
  });

  it('answers other actions with badvalue and the MediaWiki-API-Error header', () => {
    const answer = api('action=edit&format=json');
    expect(answer.errorCode).toBe('badvalue');
    expect(answer.json.error.info).toBe('Unrecognized value for parameter "action": edit.');
    expect(api('format=json').errorCode).toBe('missingparam');
    expect(api('action=query&list=allpages').json.error).toMatchObject({ code: 'moduledisabled' });
    const v2 = api('action=nope&formatversion=2').json;
    expect(Object.keys(v2.error)).toEqual(['code', 'info', 'docref']);
    // errorformat=plaintext puts the text under `*` in formatversion 1, under `text` in 2.
    const plain = api('action=nope&errorformat=plaintext').json;
    expect(plain.errors).toEqual([{ code: 'badvalue', module: 'main', '*': 'Unrecognized value for parameter "action": nope.' }]);
    const plain2 = api('action=nope&errorformat=plaintext&formatversion=2').json;
    expect(plain2.errors).toEqual([{ code: 'badvalue', text: 'Unrecognized value for parameter "action": nope.', module: 'main' }]);
  });

  it('warns on unknown parameters and supports the deprecated querymodules and mainmodule', () => {
    const { json } = api('action=paraminfo&querymodules=allpages&mainmodule=1&foo=1&formatversion=2');
    // main also carries the deprecation-help pointer that every deprecation brings.
    expect(json.warnings.main.warnings.split('\n')).toEqual([
      'Subscribe to the mediawiki-api-announce mailing list at <https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/> for notice of API deprecations and breaking changes.',
      'Unrecognized parameter: foo.',
    ]);
    expect(json.warnings.paraminfo.warnings).toContain('The parameter "querymodules" has been deprecated.');
    expect(json.paraminfo.querymodules[0]).toMatchObject({ name: 'allpages', querytype: 'list' });
    expect(json.paraminfo.mainmodule.name).toBe('main');
  });

  it('gives tRPC callers the same data as a value', () => {
    const value = catalogue.paraminfo({ modules: ['query+allpages', 'query+zzz'], formatversion: 2 }) as any;
    expect(value.paraminfo.modules[0].name).toBe('allpages');
    expect(value.warnings).toEqual([
      { code: 'badmodule', text: 'The module "query" does not have a submodule "zzz".', module: 'paraminfo' },
    ]);
  });
});
