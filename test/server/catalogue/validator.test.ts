import { describe, expect, it } from 'vitest';
import { createCatalogueService } from '../../../server/catalogue/catalogue-service.js';
import { parseTimestamp } from '../../../server/catalogue/timestamp.js';
import { parseUserValue } from '../../../server/catalogue/user-value.js';

const fixedNow = new Date('2024-05-06T07:08:09Z');
const catalogue = createCatalogueService({ wikiBaseUrl: 'https://wiki.example/wiki', now: () => fixedNow });
const check = (query: string) => catalogue.validate(query);

describe('validator: codes and texts', () => {
  it('badvalue for an unknown value of a single-valued enumeration (error)', () => {
    const r = check('action=query&list=allpages&apfilterredir=foo');
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual([
      { code: 'badvalue', text: 'Unrecognized value for parameter "apfilterredir": foo.', module: 'query+allpages' },
    ]);
  });

  it('unrecognizedvalues for unknown values of a multi-valued enumeration (warning, values dropped)', () => {
    const one = check('action=query&list=foo|allpages');
    expect(one.valid).toBe(true);
    expect(one.warnings).toContainEqual({ code: 'unrecognizedvalues', text: 'Unrecognized value for parameter "list": foo', module: 'query' });
    expect(one.parameters.query!.list).toEqual(['allpages']);
    const two = check('action=query&prop=info&inprop=url|bar|baz');
    expect(two.warnings).toContainEqual({
      code: 'unrecognizedvalues',
      text: 'Unrecognized values for parameter "inprop": bar, baz',
      module: 'query+info',
    });
    expect(two.parameters['query+info']!.inprop).toEqual(['url']);
  });

  it('toomanyvalues above 50 values', () => {
    const titles = Array.from({ length: 51 }, (_, i) => `T${i}`).join('|');
    expect(check(`action=query&titles=${titles}`).errors).toEqual([
      { code: 'toomanyvalues', text: 'Too many values supplied for parameter "titles". The limit is 50.', module: 'query' },
    ]);
    expect(check(`action=query&titles=${titles.split('|').slice(0, 50).join('|')}`).valid).toBe(true);
  });

  it('missingparam for a required parameter', () => {
    expect(check('action=query&list=search').errors).toEqual([
      { code: 'missingparam', text: 'The "srsearch" parameter must be set.', module: 'query+search' },
    ]);
  });

  it('badinteger for a value that is not an integer', () => {
    expect(check('action=query&list=allpages&aplimit=abc').errors).toEqual([
      { code: 'badinteger', text: 'Invalid value "abc" for integer parameter "aplimit".', module: 'query+allpages' },
    ]);
    expect(check('action=query&list=allpages&apminsize=99999999999999999999').errors[0]!.code).toBe('badinteger');
  });

  it('outofrange clamps with a warning', () => {
    const r = check('action=query&list=allpages&aplimit=1000');
    expect(r.valid).toBe(true);
    expect(r.warnings).toEqual([
      { code: 'outofrange', text: 'The value "1000" for parameter "aplimit" must be between 1 and 500.', module: 'query+allpages' },
    ]);
    expect(r.parameters['query+allpages']!.aplimit).toBe(500);
    const low = check('action=query&list=prefixsearch&pssearch=a&psoffset=-5');
    expect(low.warnings[0]!.text).toBe('The value "-5" for parameter "psoffset" must be no less than 0.');
    expect(low.parameters['query+prefixsearch']!.psoffset).toBe(0);
  });

  it('badtimestamp for a value that is no timestamp', () => {
    expect(check('action=query&list=recentchanges&rcstart=a%20potato').errors).toEqual([
      { code: 'badtimestamp', text: 'Invalid value "a potato" for timestamp parameter "rcstart".', module: 'query+recentchanges' },
    ]);
  });

  it('baduser for a value that is no user of the accepted kinds', () => {
    expect(check('action=query&list=logevents&leuser=%7C').errors).toEqual([
      { code: 'baduser', text: 'Invalid value "|" for user parameter "leuser".', module: 'query+logevents' },
    ]);
    // watchlist's owner takes names only.
    expect(check('action=query&list=watchlist&wlowner=127.0.0.1').errors[0]!.code).toBe('baduser');
  });

  it('deprecation for deprecated parameters and values', () => {
    const r = check('action=query&list=categorymembers&cmtitle=Category:X&cmstartsortkey=a&prop=revisions&rvprop=ids|parsetree');
    expect(r.warnings).toContainEqual({ code: 'deprecation', text: 'The parameter "cmstartsortkey" has been deprecated.', module: 'query+categorymembers' });
    expect(r.warnings).toContainEqual({ code: 'deprecation', text: 'The value "parsetree" to parameter "rvprop" has been deprecated.', module: 'query+revisions' });
    // ApiBase::addDeprecation: main points at the mailing list beside every deprecation.
    expect(r.warnings).toContainEqual({
      code: 'deprecation-help',
      text: 'Subscribe to the mediawiki-api-announce mailing list at <https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/> for notice of API deprecations and breaking changes.',
      module: 'main',
    });
    // ApiQueryDeletedrevs checks the deletedhistory right before it says it is deprecated, so an
    // anonymous caller only hears that it may not (defaults never warn).
    const dr = check('action=query&list=deletedrevs');
    expect(dr.warnings).toEqual([]);
    expect(dr.errors).toEqual([
      { code: 'permissiondenied', text: "You don't have permission to view a page's deleted history.", module: 'query+deletedrevs' },
    ]);
  });

  it('unrecognizedparams for parameters no chosen module reads (on main)', () => {
    const r = check('action=query&list=allpages&foo=1&bar=2&rclimit=5');
    expect(r.warnings).toEqual([{ code: 'unrecognizedparams', text: 'Unrecognized parameters: foo, bar, rclimit.', module: 'main' }]);
    expect(check('action=query&foo').warnings).toEqual([{ code: 'unrecognizedparams', text: 'Unrecognized parameter: foo.', module: 'main' }]);
  });

  it('badgenerator for unknown modules and modules that are no generators', () => {
    expect(check('action=query&generator=info').errors).toEqual([
      { code: 'badgenerator', text: 'Module "info" cannot be used as a generator.', module: 'query' },
    ]);
    expect(check('action=query&generator=nope').errors).toEqual([
      { code: 'badgenerator', text: 'Unknown "generator=nope".', module: 'query' },
    ]);
  });
});

describe('validator: reading values', () => {
  it('generator mode: g before the prefix', () => {
    const r = check('action=query&generator=allpages&gaplimit=5&prop=info');
    expect(r.valid).toBe(true);
    expect(r.warnings).toEqual([]);
    expect(r.parameters.query!.generator).toBe('allpages');
    expect(r.parameters['query+allpages']).toMatchObject({ gaplimit: 5, gapnamespace: 0, gapdir: 'ascending' });
    expect(r.parameters['query+allpages']!.aplimit).toBeUndefined();
    // The unprefixed form is not read in generator mode.
    expect(check('action=query&generator=allpages&aplimit=5').warnings[0]!.code).toBe('unrecognizedparams');
    // A module used as list and as generator reads both sets of names.
    const both = check('action=query&list=allpages&aplimit=3&generator=allpages&gaplimit=7');
    expect(both.parameters['query+allpages']).toMatchObject({ aplimit: 3, gaplimit: 7 });
  });

  it('splits multi values on | and on U+001F when the value starts with it', () => {
    expect(check('action=query&titles=A|B|A').parameters.query!.titles).toEqual(['A', 'B']);
    expect(check('action=query&titles=%1FA|B%1FC').parameters.query!.titles).toEqual(['A|B', 'C']);
    expect(check('action=query&list=allpages&apfrom=%1Fx').errors[0]).toMatchObject({ code: 'badvalue', module: 'query+allpages' });
    // allowsduplicates keeps repeats.
    expect(check('action=query&meta=allmessages&amargs=a|a').parameters['query+allmessages']!.amargs).toEqual(['a', 'a']);
  });

  it('resolves max, fills defaults and splits multi defaults', () => {
    const r = check('action=query&list=allpages&aplimit=max&prop=revisions');
    expect(r.parameters['query+allpages']!.aplimit).toBe(500);
    expect(r.parameters['query+revisions']).toMatchObject({ rvprop: ['ids', 'timestamp', 'flags', 'comment', 'user'], rvdir: 'older' });
    expect(r.parameters['query+revisions']!.rvlimit).toBeUndefined();
    expect(check('action=query&prop=info').parameters['query+info']!.inlinkcontext).toBe('Main Page');
  });

  it('takes booleans as true whenever present', () => {
    expect(check('action=query&list=allusers&auwitheditsonly=false').parameters['query+allusers']!.auwitheditsonly).toBe(true);
    expect(check('action=query&list=allusers&auwitheditsonly=').parameters['query+allusers']!.auwitheditsonly).toBe(true);
    expect(check('action=query&list=allusers').parameters['query+allusers']!.auwitheditsonly).toBe(false);
  });

  it('takes * for every value of an enumeration', () => {
    const r = check('action=query&meta=tokens&type=*');
    expect(r.parameters['query+tokens']!.type).toEqual(['createaccount', 'csrf', 'login', 'patrol', 'rollback', 'userrights', 'watch']);
  });

  it('reads namespaces, with extra namespaces only where allowed', () => {
    expect(check('action=query&prop=links&plnamespace=0|-1|-2').parameters['query+links']!.plnamespace).toEqual([0, -1, -2]);
    const r = check('action=query&list=allpages&apnamespace=-1');
    expect(r.errors[0]!.text).toBe('Unrecognized value for parameter "apnamespace": -1.');
  });

  it('expands templated parameters from the values they depend on', () => {
    const r = check('action=query&prop=revisions&rvslots=main&rvcontentformat-main=text/x-wiki');
    expect(r.valid).toBe(true);
    expect(r.warnings).toEqual([]);
    expect(r.parameters['query+revisions']!['rvcontentformat-main']).toBe('text/x-wiki');
    expect(check('action=query&prop=revisions&rvcontentformat-main=text/x-wiki').warnings[0]!.code).toBe('unrecognizedparams');
  });

  it('normalizes timestamps and users', () => {
    const r = check('action=query&list=recentchanges&rcstart=20240102030405&rcend=now&rcuser=foo_bar');
    expect(r.parameters['query+recentchanges']).toMatchObject({
      rcstart: '2024-01-02T03:04:05Z',
      rcend: '2024-05-06T07:08:09Z',
      rcuser: 'Foo bar',
    });
  });

  it('never throws on odd input', () => {
    for (const query of ['', '&&&', '%', '%zz=1', 'action=query&list=%F0%9F%98%80', 'a[]=1&action[]=query', 'action=query&titles=' + '|'.repeat(10000), '\u0000=\u0000']) {
      expect(() => check(query)).not.toThrow();
    }
    expect(check('').errors[0]!.code).toBe('missingparam');
  });
});

describe('timestamps as MediaWiki reads them', () => {
  it.each([
    ['20240102030405', '2024-01-02T03:04:05Z'],
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05Z'],
    ['2024-01-02T03:04:05+01:00', '2024-01-02T02:04:05Z'],
    ['2024-01-02 03:04:05', '2024-01-02T03:04:05Z'],
    ['1704164645', '2024-01-02T03:04:05Z'],
    ['1704164645.5', '2024-01-02T03:04:05Z'],
    ['Tue, 02 Jan 2024 03:04:05 GMT', '2024-01-02T03:04:05Z'],
    ['now', '2024-05-06T07:08:09Z'],
  ])('%s → %s', (input, output) => {
    expect(parseTimestamp(input, () => fixedNow)).toBe(output);
  });
  it.each(['a potato', '2024-01-02', '99999999999999999', 'T'])('refuses %s', (input) => {
    expect(parseTimestamp(input)).toBeNull();
  });
});

describe('user values as MediaWiki reads them', () => {
  const all = ['name', 'ip', 'temp', 'cidr', 'interwiki', 'id'] as const;
  it.each([
    ['#123', 'id', '#123'],
    ['en>Foo', 'interwiki', 'en>Foo'],
    ['foo_bar', 'name', 'Foo bar'],
    ['~2024-1', 'temp', '~2024-1'],
    ['127.000.0.1', 'ip', '127.0.0.1'],
    ['2001:db8::1', 'ip', '2001:DB8:0:0:0:0:0:1'],
    ['10.0.0.0/8', 'cidr', '10.0.0.0/8'],
    // UserDef parses a name as a title in the User namespace, so the prefix goes.
    ['User:Foo', 'name', 'Foo'],
    ['user:foo', 'name', 'Foo'],
    // #0 is an id (of "Unknown user"); any ">" makes an interwiki name (ExternalUserNames::isExternal).
    ['#0', 'id', '#0'],
    ['Foo>', 'interwiki', 'Foo>'],
  ])('%s is %s', (input, kind, value) => {
    expect(parseUserValue(input, all)).toEqual({ kind, value });
  });
  it.each(['|', '', 'a#b', 'Talk:Foo', 'a/b', '<b'])('refuses %s', (input) => {
    expect(parseUserValue(input, all)).toBeNull();
  });
  it('refuses a kind the parameter does not accept', () => {
    expect(parseUserValue('127.0.0.1', ['name'])).toBeNull();
  });
});
