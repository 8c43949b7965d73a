import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../../server/http/trpc/app-router.js';
import { startServer, type TestServer } from '../../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const get = async (path: string) => {
  const response = await fetch(server.url + path);
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
};

describe('GET /api.php', () => {
  it('answers paraminfo for query+allpages|query+links in formatversion 1 and 2', async () => {
    const v1 = await get('/api.php?action=paraminfo&modules=query%2Ballpages|query%2Blinks&format=json');
    expect(v1.status).toBe(200);
    expect(v1.headers.get('content-type')).toContain('application/json');
    expect(v1.headers.get('mediawiki-api-error')).toBeNull();
    expect(v1.json.paraminfo.helpformat).toBe('none');
    expect(v1.json.paraminfo.modules.map((m: any) => m.path)).toEqual(['query+allpages', 'query+links']);
    expect(v1.json.paraminfo.modules[0].generator).toBe('');
    const v2 = await get('/api.php?action=paraminfo&modules=query%2Ballpages&format=json&formatversion=2');
    expect(v2.json.paraminfo.modules[0].generator).toBe(true);
    expect(v2.json.paraminfo.modules[0].parameters[0].multi).toBe(false);
  });

  it('answers query+* with all 64 modules', async () => {
    const all = await get('/api.php?action=paraminfo&modules=query%2B*&format=json');
    expect(all.json.paraminfo.modules).toHaveLength(64);
  });

  it('names the error code in MediaWiki-API-Error, with status 200', async () => {
    const bad = await get('/api.php?action=delete&format=json');
    expect(bad.status).toBe(200);
    expect(bad.headers.get('mediawiki-api-error')).toBe('badvalue');
    expect(bad.json.error.info).toBe('Unrecognized value for parameter "action": delete.');
    expect(bad.json.error['*']).toContain(`${server.url}/api.php`);
  });

  it('answers hostile input with an API error, never a 500', async () => {
    for (const path of [
      '/api.php?action=paraminfo&modules=' + '%F0%9F%98%80'.repeat(200),
      '/api.php?action=paraminfo&modules=%00%1F%7C',
      '/api.php?%zz',
      '/api.php?action=paraminfo&modules=' + 'x|'.repeat(2000),
    ]) {
      const r = await get(path);
      expect(r.status).toBe(200);
      expect(r.json).toBeTypeOf('object');
    }
    const huge = await fetch(`${server.url}/api.php?action=paraminfo&modules=${'a'.repeat(100_000)}`);
    expect(huge.status).toBeLessThan(500);
  });

  it('allows any origin only when asked with origin=*', async () => {
    expect((await get('/api.php?action=paraminfo&modules=main&origin=*')).headers.get('access-control-allow-origin')).toBe('*');
    expect((await get('/api.php?action=paraminfo&modules=main')).headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('REST /api/catalogue', () => {
  it('lists modules with filters', async () => {
    const all = await get('/api/catalogue/modules');
    expect(all.json.modules).toHaveLength(64);
    const meta = await get('/api/catalogue/modules?group=meta');
    expect(meta.json.modules.map((m: any) => m.name)).toEqual([
      'allmessages', 'authmanagerinfo', 'filerepoinfo', 'languageinfo', 'siteinfo', 'tokens', 'userinfo',
    ]);
    const deprecated = await get('/api/catalogue/modules?deprecated=true');
    expect(deprecated.json.modules.map((m: any) => m.name)).toEqual(['deletedrevs']);
    const generators = await get('/api/catalogue/modules?generator=true&group=prop');
    expect(generators.json.modules.every((m: any) => m.generator && m.group === 'prop')).toBe(true);
    // Free text reaches parameter names, prefixed or not.
    expect((await get('/api/catalogue/modules?q=aplimit')).json.modules.map((m: any) => m.name)).toEqual(['allpages']);
    expect((await get('/api/catalogue/modules?q=generatexml')).json.modules).toHaveLength(4);
  });

  it('refuses bad filters with 400 and a JSON error', async () => {
    const bad = await get('/api/catalogue/modules?group=nope');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/group/);
    expect((await get('/api/catalogue/modules?generator=maybe')).status).toBe(400);
  });

  it('returns one module, or 404 with a JSON error', async () => {
    const one = await get('/api/catalogue/modules/allpages');
    expect(one.json).toMatchObject({ name: 'allpages', path: 'query+allpages', prefix: 'ap' });
    expect((await get('/api/catalogue/modules/query%2Ballpages')).json.name).toBe('allpages');
    const missing = await get('/api/catalogue/modules/nope');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: 'There is no query module named "nope".' });
  });

  it('validates a query string', async () => {
    const r = await get('/api/catalogue/validate?action=query&list=allpages&aplimit=1000&apfilterredir=foo');
    expect(r.status).toBe(200);
    expect(r.json.valid).toBe(false);
    expect(r.json.errors.map((e: any) => e.code)).toEqual(['badvalue']);
    expect(r.json.warnings.map((e: any) => e.code)).toEqual(['outofrange']);
    expect(r.json.parameters['query+allpages'].aplimit).toBe(500);
    const generator = await get('/api/catalogue/validate?action=query&generator=allpages&gaplimit=5');
    expect(generator.json).toMatchObject({ valid: true, errors: [], warnings: [] });
  });
});

describe('tRPC catalogue procedures', () => {
  const client = () => createTRPCClient<AppRouter>({ links: [httpLink({ url: `${server.url}/trpc` })] });

  it('lists, gets, answers paraminfo and validates', async () => {
    const trpc = client();
    expect(await trpc.catalogue.list.query({ group: 'meta' })).toHaveLength(7);
    expect((await trpc.catalogue.get.query({ name: 'links' })).prefix).toBe('pl');
    const info = (await trpc.catalogue.paraminfo.query({ modules: ['query+links'], formatversion: 2 })) as any;
    expect(info.paraminfo.modules[0].path).toBe('query+links');
    const result = await trpc.catalogue.validate.query('action=query&list=search');
    expect(result.errors[0]!.code).toBe('missingparam');
    expect((await trpc.catalogue.validate.query({ action: 'query', list: 'allpages' })).valid).toBe(true);
    await expect(trpc.catalogue.get.query({ name: 'nope' })).rejects.toThrow(/no query module/);
    await expect(trpc.catalogue.paraminfo.query({ modules: Array(51).fill('main'), formatversion: 1 })).rejects.toThrow();
  });
});

describe('/catalogue pages', () => {
  it('lists and searches modules with a plain GET form', async () => {
    const page = await get('/catalogue');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('<form method="get" action="/catalogue"');
    expect(page.text).toContain('href="/catalogue/allpages"');
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const search = await get('/catalogue?q=aplimit');
    expect(search.text).toContain('1 of 64 modules match');
    const escaped = await get('/catalogue?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(escaped.text).not.toContain('<script>alert(1)</script>');
  });

  it('shows a module with full prefixed parameter names, types, defaults, limits and flags', async () => {
    const page = await get('/catalogue/allpages');
    expect(page.status).toBe(200);
    for (const text of ['aplimit', 'apfilterredir', 'nonredirects', '1–500', '5000 with raised limits', 'multi-valued', 'query+allpages']) {
      expect(page.text).toContain(text);
    }
    expect((await get('/catalogue/revisions')).text).toContain('rvcontentformat-{slot}');
  });

  it('answers an unknown module with an HTML 404', async () => {
    const page = await get('/catalogue/%3Cb%3Enope');
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('&lt;b>nope');
    expect(page.text).not.toContain('<b>nope');
  });
});
