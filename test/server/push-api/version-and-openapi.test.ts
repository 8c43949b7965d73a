import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe('GET /api/v2/version', () => {
  it('is the reference document with nested features (defaults)', async () => {
    const res = await api.get(server, '/api/v2/version');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['application_version', 'api_version', 'edition', 'features', 'secret_push_version']);
    // application_version is the Password Pusher release whose API we match (server/version.ts);
    // our own release is beside it.
    expect(res.body.application_version).toMatch(/^2\.\d+\.\d+$/);
    expect(res.body.secret_push_version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(res.body).toMatchObject({ api_version: '2.1', edition: 'oss' });
    expect(res.body.features).toEqual({
      anonymous_access: true,
      api_token_authentication: true,
      accounts: { enabled: false },
      pushes: {
        enabled: true,
        email_auto_dispatch: false,
        file_attachments: { enabled: true, requires_authentication: true },
        url_pushes: { enabled: true },
        qr_code_pushes: { enabled: true },
      },
      requests: { enabled: false },
    });
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
  });

  it('answers on /api/v2/version.json too', async () => {
    const res = await api.get(server, '/api/v2/version.json');
    expect(res.status).toBe(200);
    expect(res.body.api_version).toBe('2.1');
  });
});

describe('GET /api/v2/openapi.json', () => {
  let doc: any;
  beforeAll(async () => {
    const res = await api.get(server, '/api/v2/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });

  it('is an OpenAPI 3 document for this server', () => {
    expect(doc.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(typeof doc.info.title).toBe('string');
    expect(typeof doc.info.version).toBe('string');
    expect(doc.servers[0].url).toBe(`${server.url}/api/v2`);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('has every v2 path and method', () => {
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).filter((m) => m !== 'servers').map((m) => `${m.toUpperCase()} ${path}`),
    );
    // The administration's paths have their own check against their route table (test/server/admin/admin-area.test.ts).
    expect(ops.filter((op) => !op.includes(' /admin/')).sort()).toEqual(
      [
        'GET /version',
        'POST /pushes',
        'POST /pushes/batch',
        'POST /pushes/{url_token}/email',
        'GET /pushes/{url_token}',
        'DELETE /pushes/{url_token}',
        'GET /pushes/{url_token}/preview',
        'GET /pushes/{url_token}/audit',
        'GET /pushes/active',
        'GET /pushes/expired',
        'GET /webhooks',
        'POST /webhooks',
        'DELETE /webhooks/{id}',
        'GET /webhooks/deliveries',
        'GET /secret-requests',
        'POST /secret-requests',
        'GET /secret-requests/{url_token}',
        'DELETE /secret-requests/{url_token}',
        'POST /secret-requests/{url_token}/answer',
        'POST /uploads',
        'GET /uploads/{upload}',
        'DELETE /uploads/{upload}',
        'PUT /uploads/{upload}/files/{index}',
        'POST /uploads/{upload}/finish',
        'POST /extension/token',
      ].sort(),
    );
    // At the site's root, not under /api/v2 (the extension's connect, beside its page).
    expect(doc.paths['/extension/token'].servers[0].url).toBe(server.url);
    // Path parameters are declared where used.
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      if (!path.includes('{url_token}')) continue;
      for (const op of Object.values(item)) expect(op.parameters.some((p: any) => p.name === 'url_token' && p.in === 'path' && p.required)).toBe(true);
    }
    for (const path of ['/pushes/active', '/pushes/expired', '/pushes/{url_token}/audit']) {
      const page = doc.paths[path].get.parameters.find((p: any) => p.name === 'page');
      expect(page).toMatchObject({ in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200 } });
    }
  });

  it('every $ref resolves, and the PushInput schema lists every input field', () => {
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(5);
    for (const ref of refs) {
      const target = ref.slice('"$ref":"#/'.length, -1).split('/');
      let node: any = doc;
      for (const part of target) node = node?.[part];
      expect.soft(node, ref).toBeDefined();
    }
    const input = doc.components.schemas.PushInput;
    expect(input.type).toBe('object');
    expect(Object.keys(input.properties).sort()).toEqual(
      ['payload', 'kind', 'expire_after_days', 'expire_after_views', 'expire_after_duration', 'deletable_by_viewer', 'retrieval_step', 'passphrase', 'name', 'note', 'end_to_end', 'max_failed_passphrase_attempts', 'not_before', 'expire_from_release', 'email_on_open', 'email_on_expired_unopened', 'notify_emails', 'notify_note', 'follows', 'follows_until'].sort(),
    );
    const create = doc.paths['/pushes'].post;
    expect(create.requestBody.content['application/json'].schema.properties.push.$ref).toBe('#/components/schemas/PushInput');
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '413', '422']));
    // Scheduled release: the retrieval's 425, its body and its Retry-After.
    const retrieve = doc.paths['/pushes/{url_token}'].get;
    expect(retrieve.responses['425'].content['application/json'].schema.$ref).toBe('#/components/schemas/TooEarly');
    expect(retrieve.responses['425'].headers['Retry-After']).toBeDefined();
    expect(Object.keys(doc.components.schemas.TooEarly.properties)).toEqual(['error', 'not_before']);
    expect(input.properties.not_before.type).toBe('string');
  });

  it('describes the record shapes with the reference keys', () => {
    const rec = doc.components.schemas.RetrievedPush;
    expect(Object.keys(rec.properties)).toEqual(
      expect.arrayContaining(['expire_after_views', 'expired', 'url_token', 'passphrase', 'views_remaining', 'json_url', 'html_url', 'payload', 'files']),
    );
    expect(Object.keys(doc.components.schemas.Version.properties)).toEqual(['application_version', 'api_version', 'edition', 'features', 'secret_push_version', 'secret_push_name']);
    // The owner's records: Password Pusher's keys, then file_names (optional: file pushes only).
    const owner = doc.components.schemas.OwnerPushRecord;
    expect(owner.properties.file_names).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(owner.required).not.toContain('file_names');
    expect(owner.required).toEqual(expect.arrayContaining(['note', 'name', 'html_url']));
  });

  it('is public even on a closed instance', async () => {
    const closed = await startServer({ ALLOW_ANONYMOUS: 'false' });
    try {
      expect((await api.get(closed, '/api/v2/openapi.json')).status).toBe(200);
      expect((await api.get(closed, '/api/v2/version')).status).toBe(200);
    } finally {
      await closed.stop();
    }
  });
});
