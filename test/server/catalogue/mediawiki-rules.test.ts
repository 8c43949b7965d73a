import { describe, expect, it } from 'vitest';
import { createCatalogueService } from '../../../server/catalogue/catalogue-service.js';
import { parseTimestamp } from '../../../server/catalogue/timestamp.js';

/**
 * One test per MediaWiki behaviour the validator and api.php model, each named after the
 * MediaWiki code that has it. The expected texts are MediaWiki 1.39's (the agreement test
 * checks them against recorded answers too).
 */
const fixedNow = new Date('2024-05-06T07:08:09Z');
const catalogue = createCatalogueService({ wikiBaseUrl: 'https://wiki.example/wiki', now: () => fixedNow });
const API = 'https://wiki.example/api.php';
const api = (query: string, body?: [string, string][]) => {
  const answer = catalogue.answerApi({ query, body, apiUrl: API });
  return { ...answer, json: JSON.parse(answer.body) as Record<string, any> };
};
/** The error a wiki stops at, in errorformat=plaintext (formatversion 2). */
const errorOf = (query: string) => api(`format=json&formatversion=2&errorformat=plaintext&${query}`).json.errors?.[0];
const warningsOf = (query: string) =>
  (api(`format=json&formatversion=2&errorformat=plaintext&${query}`).json.warnings ?? []) as Record<string, unknown>[];

describe('ApiBase::requireOnlyOneParameter and friends', () => {
  it('one of title and pageid is required (getTitleOrPageId), in generator mode with the g prefix', () => {
    expect(errorOf('action=query&list=backlinks')).toEqual({
      code: 'missingparam', text: 'One of the parameters "bltitle" and "blpageid" is required.', module: 'query+backlinks',
    });
    expect(errorOf('action=query&generator=backlinks').text).toBe('One of the parameters "gbltitle" and "gblpageid" is required.');
    expect(errorOf('action=query&list=usercontribs').text).toBe(
      'One of the parameters "ucuserprefix", "ucuserids", "uciprange" and "ucuser" is required.',
    );
  });

  it('more than one is invalidparammix, named in the order the module defines them', () => {
    expect(errorOf('action=query&list=categorymembers&cmtitle=Category:X&cmpageid=5')).toEqual({
      code: 'invalidparammix', text: 'The parameters "cmtitle" and "cmpageid" can not be used together.', module: 'query+categorymembers',
    });
    expect(errorOf('action=query&list=usercontribs&ucuserids=1&ucuser=Foo').text).toBe(
      'The parameters "ucuser" and "ucuserids" can not be used together.',
    );
    expect(errorOf('action=query&list=allusers&augroup=sysop&auexcludegroup=bot').code).toBe('invalidparammix');
  });

  it('mustusewith and cannotusewith (ApiQueryAllImages, ApiQueryAllLinks, ApiQueryIWBacklinks)', () => {
    expect(errorOf('action=query&list=allimages&aiuser=Foo').text).toBe('The "aiuser" parameter may only be used with "aisort=timestamp".');
    expect(errorOf('action=query&list=alllinks&alunique=1&alprop=ids').text).toBe('The "alprop=ids" parameter cannot be used with "alunique".');
    expect(errorOf('action=query&list=langbacklinks&lbltitle=x')).toMatchObject({ code: 'nolang' });
  });

  it('ApiPageSet: titles, pageids and revids are one source (multisource)', () => {
    expect(errorOf('action=query&prop=info&pageids=1&titles=Main_Page')).toEqual({
      code: 'multisource', text: 'The "pageids" parameter cannot be used with "titles".', module: 'query',
    });
  });
});

describe('ParamValidator', () => {
  it('StringDef: an empty required string is missing; an empty enumeration value is a badvalue', () => {
    expect(errorOf('action=query&list=search&srsearch=')).toMatchObject({ code: 'missingparam', text: 'The "srsearch" parameter must be set.' });
    expect(errorOf('action=query&list=querypage&qppage=')).toMatchObject({ code: 'badvalue', text: 'Unrecognized value for parameter "qppage": .' });
  });

  it('NamespaceDef: 01, +1 and -0 are integers; unknown namespaces are refused', () => {
    expect(catalogue.validate('action=query&list=allpages&apnamespace=01').parameters['query+allpages']!.apnamespace).toBe(1);
    expect(catalogue.validate('action=query&list=allpages&apnamespace=%2B1').parameters['query+allpages']!.apnamespace).toBe(1);
    expect(catalogue.validate('action=query&list=allpages&apnamespace=-0').parameters['query+allpages']!.apnamespace).toBe(0);
    expect(errorOf('action=query&list=allpages&apnamespace=100').text).toBe('Unrecognized value for parameter "apnamespace": 100.');
    expect(warningsOf('action=query&list=search&srsearch=x&srnamespace=0|200')).toContainEqual(
      expect.objectContaining({ code: 'unrecognizedvalues', text: 'Unrecognized value for parameter "srnamespace": 200' }),
    );
  });

  it('UserDef: User: prefixes go, first letters go up, #0 is an id, > makes an interwiki name', () => {
    const users = (v: string) => catalogue.validate(`action=query&list=usercontribs&ucuser=${encodeURIComponent(v)}`);
    expect(users('User:foo_bar').parameters['query+usercontribs']!.ucuser).toEqual(['Foo bar']);
    expect(users('Talk:Foo').errors[0]).toMatchObject({ code: 'baduser', text: 'Invalid value "Talk:Foo" for user parameter "ucuser".' });
    expect(catalogue.validate('action=query&list=logevents&leuser=%230').valid).toBe(true);
    expect(catalogue.validate('action=query&list=logevents&leuser=Foo%3E').valid).toBe(true);
  });

  it('TimestampDef: years 0-99 stay in those years', () => {
    expect(parseTimestamp('00500101000000')).toBe('0050-01-01T00:00:00Z');
    expect(parseTimestamp('0001-01-01T00:00:00Z')).toBe('0001-01-01T00:00:00Z');
  });

  it('TitleDef: paramvalidator-badtitle; a module\'s own title check: apierror-invalidtitle with the value escaped', () => {
    expect(errorOf('action=query&prop=info&titles=A&inlinkcontext=%7C')).toMatchObject({
      code: 'badtitle', text: 'Invalid value "|" for title parameter "inlinkcontext": not a valid title string.',
    });
    const raw = api('format=json&formatversion=2&errorformat=raw&action=query&list=backlinks&bltitle=%7C').json.errors[0];
    expect(raw).toEqual({ code: 'invalidtitle', key: 'apierror-invalidtitle', params: ['&#124;'], module: 'query+backlinks' });
    expect(errorOf('action=query&list=backlinks&bltitle=%7C').text).toBe('Bad title "|".');
    // Entities are decoded and fragments cut off before a title is judged.
    expect(catalogue.validate('action=query&list=backlinks&bltitle=a%26amp%3Bb').valid).toBe(true);
  });

  it('ApiParamValidatorCallbacks: values that are not valid NFC UTF-8 are cleaned, with badutf8', () => {
    expect(warningsOf('action=query&list=allpages&apfrom=%FF')).toContainEqual({
      code: 'badutf8',
      text: 'The value passed for "apfrom" contains invalid or non-normalized data. Textual data should be valid, NFC-normalized Unicode without C0 control characters other than HT (\\t), LF (\\n), and CR (\\r).',
      module: 'query+allpages',
    });
    // U+001F that starts a multi-value is a separator, not a control character.
    expect(warningsOf('action=query&titles=%1FA%1FB')).toEqual([]);
  });

  it('ApiMain::getVal: PHP array syntax is refused with unsupportedarray', () => {
    expect(warningsOf('action=query&list[]=allpages')).toEqual([
      { code: 'unsupportedarray', text: 'Parameter "list" uses unsupported PHP array syntax.', module: 'main' },
    ]);
  });
});

describe('module checks', () => {
  it('ApiQueryRevisionsBase: content caps rvlimit at 50 for users; no rvslots means the legacy format', () => {
    const warnings = warningsOf('action=query&prop=revisions&titles=Main_Page&rvprop=content&rvlimit=100');
    expect(warnings).toEqual([
      { code: 'outofrange', text: 'The value "100" for parameter "rvlimit" must be between 1 and 50.', data: { min: 1, curmax: 50, max: 50, highmax: 500 }, module: 'query+revisions' },
      {
        code: 'deprecation',
        text: 'Because "rvslots" was not specified, a legacy format has been used for the output. This format is deprecated, and in the future the new format will always be used.',
        data: { feature: 'action=query&prop=revisions&!rvslots' },
        module: 'query+revisions',
      },
      expect.objectContaining({ code: 'deprecation-help', module: 'main' }),
    ]);
    expect(warningsOf('action=query&prop=revisions&titles=Main_Page&rvprop=content&rvlimit=max&rvslots=main')).toEqual([]);
  });

  it('show: contradictory values are apierror-show; patrol flags need the patrol right', () => {
    expect(errorOf('action=query&list=recentchanges&rcshow=minor|!minor')).toEqual({
      code: 'show', text: 'Incorrect parameter - mutually exclusive values may not be supplied.', module: 'query+recentchanges',
    });
    expect(errorOf('action=query&list=blocks&bkshow=ip|!ip').code).toBe('show');
    expect(errorOf('action=query&list=recentchanges&rcshow=unpatrolled')).toMatchObject({
      code: 'permissiondenied', text: 'You need the "patrol" or "patrolmarks" right to request the patrolled flag.',
    });
  });

  it('cidrtoobroad: $wgBlockCIDRLimit for blocks, $wgRangeContributionsCIDRLimit for usercontribs', () => {
    expect(errorOf('action=query&list=blocks&bkip=1.0.0.0/8').text).toBe('IPv4 CIDR ranges broader than /16 are not accepted.');
    expect(errorOf('action=query&list=blocks&bkip=2001:db8::/16').text).toBe('IPv6 CIDR ranges broader than /19 are not accepted.');
    expect(errorOf('action=query&list=usercontribs&uciprange=2001:db8::/16').text).toBe('IPv6 CIDR ranges broader than /32 are not accepted.');
    expect(errorOf('action=query&list=usercontribs&uciprange=foo')).toMatchObject({ code: 'invalidiprange', text: 'Invalid CIDR range "foo".' });
  });

  it('badcontinue: ApiContinuationManager wants "a||b"; modules count their continue fields', () => {
    expect(errorOf('action=query&list=allpages&continue=garbage')).toEqual({
      code: 'badcontinue', text: 'Invalid continue param. You should pass the original value returned by the previous query.', module: 'main',
    });
    expect(catalogue.validate('action=query&list=allpages&continue=-||').valid).toBe(true);
    expect(errorOf('action=query&list=recentchanges&rccontinue=bad').code).toBe('badcontinue');
  });

  it('ApiQueryLogEvents: an unknown leaction is unknown_leaction', () => {
    expect(errorOf('action=query&list=logevents&leaction=foo/bar')).toEqual({
      code: 'unknown_leaction', text: 'Unrecognized value for parameter "leaction": foo/bar.', module: 'query+logevents',
    });
  });

  it('ApiMain::checkAsserts: anonymous callers fail assert=user, assert=bot and assertuser, before any parameter error', () => {
    expect(errorOf('action=query&assert=user&list=allpages&aplimit=abc')).toEqual({
      code: 'assertuserfailed', text: 'You are no longer logged in, so the action could not be completed.', module: 'main',
    });
    expect(errorOf('action=query&assert=bot').text).toBe('You do not have the "bot" right, so the action could not be completed.');
    expect(errorOf('action=query&assertuser=Foo').text).toBe('You are no longer logged in as "Foo", so the action could not be completed.');
    expect(errorOf('action=query&assert=anon')).toBeUndefined();
  });

  it('ApiBase::addDeprecation: each deprecation warning brings deprecation-help on main, with data.feature', () => {
    expect(warningsOf('action=query&list=random&rnredirect=1')).toEqual([
      { code: 'deprecation', text: 'The parameter "rnredirect" has been deprecated.', data: { feature: 'action=query&list=random&rnredirect' }, module: 'query+random' },
      {
        code: 'deprecation-help',
        text: 'Subscribe to the mediawiki-api-announce mailing list at <https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/> for notice of API deprecations and breaking changes.',
        module: 'main',
      },
    ]);
  });
});

describe('ApiErrorFormatter envelopes', () => {
  const query = 'format=json&action=query&list=allpages&aplimit=1000&foo=1';

  it('formatversion=1 puts plaintext, wikitext and html texts under "*"', () => {
    const plain = api(`${query}&errorformat=plaintext`).json.warnings;
    expect(plain[0]).toEqual({
      code: 'outofrange', data: { min: 1, curmax: 500, max: 500, highmax: 5000 }, module: 'query+allpages',
      '*': 'The value "1000" for parameter "aplimit" must be between 1 and 500.',
    });
    expect(plain[1]).toEqual({ code: 'unrecognizedparams', module: 'main', '*': 'Unrecognized parameter: foo.' });
    expect(api(`${query}&errorformat=none`).json.warnings[1]).toEqual({ code: 'unrecognizedparams', module: 'main' });
  });

  it('raw gives the message key and its typed parameters; wikitext keeps markup; html links URLs', () => {
    const raw = api(`${query}&errorformat=raw&formatversion=2`).json.warnings;
    expect(raw[0]).toEqual({
      code: 'outofrange', key: 'paramvalidator-outofrange-minmax',
      params: [{ plaintext: 'aplimit' }, { plaintext: '1000' }, { num: 1 }, { num: 500 }],
      data: { min: 1, curmax: 500, max: 500, highmax: 5000 }, module: 'query+allpages',
    });
    // apierror-unrecognizedparams lists the names keyed by their position in the request.
    expect(raw[1]).toEqual({ code: 'unrecognizedparams', key: 'apierror-unrecognizedparams', params: [{ list: { 4: 'foo' }, type: 'comma' }, 1], module: 'main' });
    const dep = 'format=json&formatversion=2&action=query&list=random&rnredirect=1&errorformat=';
    expect(api(`${dep}wikitext`).json.warnings[1].text).toContain('&lt;https://lists.wikimedia.org/');
    expect(api(`${dep}html`).json.warnings[1].html).toContain(
      '&lt;<a rel="nofollow" class="external free" href="https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/">',
    );
  });

  it('bc errors carry their data members inline', () => {
    const titles = Array.from({ length: 51 }, (_, i) => `T${i}`).join('|');
    expect(api(`format=json&action=query&titles=${titles}`).json.error).toEqual({
      code: 'toomanyvalues', info: 'Too many values supplied for parameter "titles". The limit is 50.',
      limit: 50, lowlimit: 50, highlimit: 500,
      '*': `See ${API} for API usage. Subscribe to the mediawiki-api-announce mailing list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; for notice of API deprecations and breaking changes.`,
    });
  });

  it('echoes requestid, curtimestamp and responselanginfo, on errors too', () => {
    const ok = api('format=json&action=query&meta=siteinfo&requestid=r1&curtimestamp=1&responselanginfo=1').json;
    expect(ok).toMatchObject({ requestid: 'r1', curtimestamp: '2024-05-06T07:08:09Z', uselang: 'en', errorlang: 'en' });
    const failed = api('format=json&action=query&list=allpages&aplimit=abc&requestid=r2&curtimestamp=1').json;
    expect(failed).toMatchObject({ requestid: 'r2', curtimestamp: '2024-05-06T07:08:09Z' });
    expect(failed.error.code).toBe('badinteger');
  });

  it('paraminfo: main has no help URLs and json needs read rights, as in MediaWiki', () => {
    const [main, json] = api('format=json&formatversion=2&action=paraminfo&modules=main|json').json.paraminfo.modules;
    expect(main.helpurls).toEqual([]);
    expect(json.readrights).toBe(true);
  });

  it('a POST body wins over the query string, and its fields come first', () => {
    const answer = api('format=json&action=query&list=allpages&aplimit=5&foo=1', [['aplimit', 'abc']]);
    expect(answer.errorCode).toBe('badinteger');
  });
});
