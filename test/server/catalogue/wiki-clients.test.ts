import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * Real wiki clients' start-up, request by request as their sources send them, against a real
 * server: mwclient (Site.site_init: a form POST of siteinfo general|namespaces with userinfo,
 * formatversion 1), mwn (getTokensAndSiteInfo: tokens|siteinfo|userinfo as multipart/form-data,
 * formatversion 2, maxlag=5) and pywikibot's paraminfo and siteinfo requests.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const api = () => `${server.url}/api.php`;
const json = async (response: Response) => {
  expect(response.status).toBe(200);
  expect(response.headers.get('mediawiki-api-error')).toBeNull();
  return (await response.json()) as Record<string, any>;
};

describe('mwclient start-up (Site.site_init)', () => {
  it('reads siteinfo and userinfo from a form POST in formatversion 1', async () => {
    // mwclient's api() adds continue= and userinfo with blockinfo|hasmsg to every query.
    const body = new URLSearchParams({
      action: 'query',
      meta: 'siteinfo|userinfo|userinfo',
      siprop: 'general|namespaces',
      uiprop: 'groups|rights|blockinfo|hasmsg',
      continue: '',
      format: 'json',
    });
    const answer = await json(await fetch(api(), { method: 'POST', body }));
    expect(answer.warnings).toBeUndefined();
    expect(answer.batchcomplete).toBe('');
    const { general, namespaces, userinfo } = answer.query;
    // mwclient parses "MediaWiki X.Y..." and requires at least 1.16.
    expect(general.generator).toMatch(/^MediaWiki 1\.\d+\.\d+$/);
    expect(general.sitename).toBe('Secret Push');
    // formatversion 1: a namespace's name sits under "*", false booleans are left out.
    expect(namespaces['0']).toEqual({ id: 0, case: 'first-letter', '*': '', content: '' });
    expect(namespaces['4']).toMatchObject({ id: 4, '*': 'Secret Push', canonical: 'Project', subpages: '' });
    expect(Object.keys(namespaces)).toHaveLength(18);
    // Anonymous, not blocked, no new messages: mwclient reads 'anon', 'blockedby' and 'messages'.
    expect(userinfo).toEqual({ id: 0, name: '127.0.0.1', anon: '', groups: ['*'], rights: ['read'] });
  });
});

describe('mwn start-up (getTokensAndSiteInfo, getSiteInfo)', () => {
  it('reads tokens, siteinfo and userinfo from a multipart POST in formatversion 2', async () => {
    const form = new FormData();
    for (const [name, value] of Object.entries({
      action: 'query',
      meta: 'tokens|siteinfo|userinfo',
      type: 'csrf|createaccount|login|patrol|rollback|userrights|watch',
      siprop: 'general|namespaces|namespacealiases',
      uiprop: 'rights',
      format: 'json',
      formatversion: '2',
      maxlag: '5',
    })) form.append(name, value);
    const answer = await json(await fetch(api(), { method: 'POST', body: form }));
    expect(answer.warnings).toBeUndefined();
    const { general, namespaces, namespacealiases, userinfo, tokens } = answer.query;
    // mwn's Title needs legaltitlechars and every namespace's name and canonical name.
    expect(general.legaltitlechars).toBe(' %!"$&\'()*,\\-.\\/0-9:;=?@A-Z\\\\^_`a-z~\\x80-\\xFF+');
    expect(namespaces['6']).toEqual({
      id: 6, case: 'first-letter', name: 'File', subpages: false, canonical: 'File', content: false, nonincludable: false,
    });
    expect(namespacealiases).toEqual([{ id: 6, alias: 'Image' }, { id: 7, alias: 'Image talk' }]);
    // No apihighlimits: mwn keeps its limits low.
    expect(userinfo).toEqual({ id: 0, name: '127.0.0.1', anon: true, rights: ['read'] });
    expect(tokens.csrftoken).toBe('+\\');
    expect(Object.keys(tokens).sort()).toEqual([
      'createaccounttoken', 'csrftoken', 'logintoken', 'patroltoken', 'rollbacktoken', 'userrightstoken', 'watchtoken',
    ]);
  });

  it('reads paraminfo from a multipart POST, its fields winning over the query string', async () => {
    const form = new FormData();
    form.append('action', 'paraminfo');
    form.append('modules', 'query+allpages');
    form.append('formatversion', '2');
    form.append('format', 'json');
    const answer = await json(await fetch(`${api()}?modules=query%2Blinks`, { method: 'POST', body: form }));
    expect(answer.paraminfo.modules.map((m: any) => m.path)).toEqual(['query+allpages']);
  });

  it('reports errors in a multipart request as a wiki does', async () => {
    const form = new FormData();
    for (const [name, value] of [['action', 'query'], ['list', 'allpages'], ['aplimit', 'abc'], ['format', 'json'], ['formatversion', '2'], ['errorformat', 'plaintext']]) {
      form.append(name!, value!);
    }
    const response = await fetch(api(), { method: 'POST', body: form });
    expect(response.headers.get('mediawiki-api-error')).toBe('badinteger');
    expect((await response.json()).errors).toEqual([
      { code: 'badinteger', text: 'Invalid value "abc" for integer parameter "aplimit".', module: 'query+allpages' },
    ]);
  });

  it('refuses a malformed multipart body with 400 naming the problem, and an oversized one with 413', async () => {
    const bad = await fetch(api(), {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data' },
      body: 'no boundary here',
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/multipart/i);
    const form = new FormData();
    form.append('action', 'query');
    form.append('titles', 'x'.repeat(1024 * 1024 + 1));
    const big = await fetch(api(), { method: 'POST', body: form });
    expect(big.status).toBe(413);
  });
});

describe('pywikibot start-up', () => {
  it('reads main, paraminfo and query from paraminfo, then siteinfo', async () => {
    const info = await json(await fetch(`${api()}?action=paraminfo&modules=main|paraminfo|query&format=json&formatversion=2`));
    expect(info.paraminfo.modules.map((m: any) => m.path)).toEqual(['main', 'paraminfo', 'query']);
    const site = await json(
      await fetch(`${api()}?action=query&meta=siteinfo&siprop=general|namespaces|namespacealiases|interwikimap|statistics&format=json&formatversion=2`),
    );
    expect(site.query.interwikimap).toEqual([]);
    expect(site.query.statistics).toEqual({ pages: 0, articles: 0, edits: 0, images: 0, users: 0, activeusers: 0, admins: 0, jobs: 0 });
    expect(site.query.general).toMatchObject({ lang: 'en', case: 'first-letter', readonly: true, writeapi: false });
  });

  it('still refuses the queries it cannot run, after checking them', async () => {
    const response = await fetch(`${api()}?action=query&list=allpages&aplimit=1000&format=json&formatversion=2`);
    expect(response.headers.get('mediawiki-api-error')).toBe('moduledisabled');
    const answer = await response.json();
    expect(answer.warnings.allpages.warnings).toBe('The value "1000" for parameter "aplimit" must be between 1 and 500.');
  });
});

/** Debian's python3-mwclient, when installed (`apt-get install -y python3-mwclient`). */
const python = '/usr/bin/python3';
const hasMwclient = spawnSync(python, ['-c', 'import mwclient'], { stdio: 'ignore' }).status === 0;
if (!hasMwclient) console.warn('python3-mwclient is not installed: the real mwclient test is skipped (apt-get install -y python3-mwclient).');

describe('the real mwclient', () => {
  it.skipIf(!hasMwclient)('connects, reads the site and the user, and gets API errors as APIError', async () => {
    const script = `
import json, sys, mwclient
host = sys.argv[1]
site = mwclient.Site(host, path='/', scheme='http')
out = {'version': list(site.version), 'namespaces': {str(k): v for k, v in site.namespaces.items()},
       'username': site.username, 'groups': site.groups, 'rights': site.rights, 'logged_in': site.logged_in,
       'paraminfo': [m['path'] for m in site.api('paraminfo', modules='query+allpages')['paraminfo']['modules']]}
try:
    site.api('query', list='search', srsearch='')
except mwclient.errors.APIError as e:
    out['error'] = [e.code, e.info]
print(json.dumps(out))
`;
    const { stdout } = await promisify(execFile)(python, ['-c', script, new URL(server.url).host]);
    const result = JSON.parse(stdout) as Record<string, any>;
    expect(result.version[0]).toBe(1);
    expect(result.version[1]).toBeGreaterThanOrEqual(16);
    expect(result.namespaces).toMatchObject({ '0': '', '4': 'Secret Push', '-1': 'Special' });
    expect(result).toMatchObject({ username: '127.0.0.1', groups: ['*'], rights: ['read'], logged_in: false });
    expect(result.paraminfo).toEqual(['query+allpages']);
    expect(result.error).toEqual(['missingparam', 'The "srsearch" parameter must be set.']);
  });
});
