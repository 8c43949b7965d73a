import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * pwpush-cli 0.16.6 (pglombardo/pwpush-cli at ea820ab), run for real against this server through
 * test/support/recording-proxy.ts (docs/password-pusher-compat.md, "Clients run for real"), and
 * replayed here request by request: the same methods, paths, headers and bodies it sent (the
 * multipart body byte for byte, boundary included), with the checks the CLI makes on the answers
 * (pwpush/commands/*.py: status 200/201, the JSON keys it reads).
 *
 * What it sends: `GET /api/v2/version` with python-requests' own User-Agent to pick the API
 * (200 → v2); every other call with `User-Agent: pwpush-cli/0.16.6`, `Accept: *\/*` and, once
 * logged in, `Authorization: Bearer <token>` plus `X-User-Email` and `X-User-Token`. Days are
 * sent as `expire_after_duration` codes; files as multipart parts without a Content-Type.
 */
const CLI_UA = 'pwpush-cli/0.16.6';
const EMAIL = 'cli-user@example.com';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  ({ token } = await createUserWithToken(server, EMAIL));
});
afterAll(() => server.stop());

/** The CLI's headers: logged in (with the email it was given) or not. */
function cliHeaders(login: { email: string; token: string } | null, extra: Record<string, string> = {}): Record<string, string> {
  const auth: Record<string, string> = login ? { Authorization: `Bearer ${login.token}`, 'X-User-Email': login.email, 'X-User-Token': login.token } : {};
  return { 'User-Agent': CLI_UA, 'Accept-Encoding': 'gzip, deflate', Accept: '*/*', Connection: 'keep-alive', ...auth, ...extra };
}

async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await fetch(server.url + path, { method, headers, body });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

const loggedIn = () => ({ email: EMAIL, token });

describe('pwpush login', () => {
  it('probes the version (python-requests, Bearer only), then validates with the active list', async () => {
    const probe = await send('GET', '/api/v2/version', { 'User-Agent': 'python-requests/2.28.1', 'Accept-Encoding': 'gzip, deflate', Accept: '*/*', Authorization: `Bearer ${token}` });
    expect(probe.status).toBe(200); // anything else makes the CLI fall back to the legacy API
    expect(probe.json).toMatchObject({ api_version: '2.1', edition: 'oss' });
    const validate = await send('GET', '/api/v2/pushes/active', cliHeaders(loggedIn()));
    expect(validate.status).toBe(200);
    expect(Array.isArray(validate.json)).toBe(true);
  });

  it('with an email that is not the account\'s, the token still logs in (Password Pusher checks the token only)', async () => {
    const validate = await send('GET', '/api/v2/pushes/active', cliHeaders({ email: 'wrong-address@example.com', token }));
    expect(validate.status).toBe(200);
  });
});

describe('pwpush push, push-file, list, audit, expire, list --expired', () => {
  it('replays a session: the figures in the expired list are what Password Pusher would show', async () => {
    // pwpush push --secret "cli secret one" --days 3 --views 4 --note "cli note"
    const body = '{"push": {"payload": "cli secret one", "kind": "text", "expire_after_views": 4, "note": "cli note", "expire_after_duration": 8}}';
    const created = await send('POST', '/api/v2/pushes', cliHeaders(loggedIn(), { 'Content-Type': 'application/json' }), body);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ expire_after_days: 3, expire_after_views: 4, note: 'cli note', name: null });
    const urlToken: string = created.json.url_token;
    const preview = await send('GET', `/api/v2/pushes/${urlToken}/preview`, cliHeaders(loggedIn()));
    expect(preview.status).toBe(200);
    expect(preview.json).toEqual({ url: `${server.url}/p/${urlToken}/r` }); // what the CLI prints

    // pwpush push-file report.pdf --days 2: python-requests writes the file part without a Content-Type.
    const boundary = 'd89220a6460a6aa9213e451d81870642';
    const multipart = [
      `--${boundary}\r\nContent-Disposition: form-data; name="push[payload]"\r\n\r\n\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="push[kind]"\r\n\r\nfile\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="push[expire_after_duration]"\r\n\r\n7\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="push[files][]"; filename="wt12-report.pdf"\r\n\r\n%PDF-1.4 fake pdf bytes\n\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const file = await send('POST', '/api/v2/pushes', cliHeaders(loggedIn(), { 'Content-Type': `multipart/form-data; boundary=${boundary}` }), multipart);
    expect(file.status).toBe(201);
    expect(file.json).toMatchObject({ expire_after_days: 2 });
    const owned = await send('GET', `/api/v2/pushes/${file.json.url_token}`, cliHeaders(loggedIn())); // an owner view: not counted
    expect(owned.json.files.map((f: { filename: string; content_type: string }) => [f.filename, f.content_type])).toEqual([['wt12-report.pdf', 'application/octet-stream']]);
    expect(owned.json.views_remaining).toBe(5);

    // pwpush list: the table reads these keys; "Views" is expire_after_views − views_remaining.
    const active = await send('GET', '/api/v2/pushes/active', cliHeaders(loggedIn()));
    const row = active.json.find((p: { url_token: string }) => p.url_token === urlToken);
    for (const key of ['url_token', 'note', 'expire_after_views', 'views_remaining', 'expire_after_days', 'days_remaining', 'deletable_by_viewer', 'retrieval_step', 'created_at']) {
      expect.soft(row).toHaveProperty(key);
    }
    expect(Number.isNaN(Date.parse(row.created_at))).toBe(false);

    // Someone opens the link once (curl in the recorded session).
    expect((await send('GET', `/api/v2/pushes/${urlToken}`, { 'User-Agent': 'curl/7.88.1', Accept: '*/*' })).json.payload).toBe('cli secret one');

    // pwpush audit <token>: `logs` with ip, user_agent, referrer, created_at, kind.
    const audit = await send('GET', `/api/v2/pushes/${urlToken}/audit`, cliHeaders(loggedIn()));
    expect(audit.status).toBe(200);
    expect(audit.json.logs.map((l: { kind: string; user_agent: string }) => [l.kind, l.user_agent])).toEqual([
      ['creation', CLI_UA],
      ['view', 'curl/7.88.1'],
    ]);
    expect(Object.keys(audit.json.logs[0])).toEqual(['ip', 'user_agent', 'referrer', 'kind', 'created_at', 'updated_at']);

    // pwpush expire <token>
    const expired = await send('DELETE', `/api/v2/pushes/${urlToken}`, cliHeaders(loggedIn(), { 'Content-Length': '0' }));
    expect(expired.status).toBe(200);
    expect(expired.json).toMatchObject({ expired: true, deleted: true });

    // The link opened once more after expiry (a failed view), then pwpush list --expired.
    expect((await send('GET', `/p/${urlToken}.json`, { 'User-Agent': 'curl/7.88.1', Accept: '*/*' })).json.payload).toBeNull();
    const expiredList = await send('GET', '/api/v2/pushes/expired', cliHeaders(loggedIn()));
    const gone = expiredList.json.find((p: { url_token: string }) => p.url_token === urlToken);
    // The CLI shows Views 2/4 (one view, one failed view) and Days 0/3, as Password Pusher would;
    // forcing the figures to 0 made it show 4/4 and 3/3.
    expect(`${gone.expire_after_views - gone.views_remaining}/${gone.expire_after_views}`).toBe('2/4');
    expect(`${gone.expire_after_days - gone.days_remaining}/${gone.expire_after_days}`).toBe('0/3');
  });

  it('pushes a URL (--kind url) logged in, and text anonymously after logout', async () => {
    const url = await send('POST', '/api/v2/pushes', cliHeaders(loggedIn(), { 'Content-Type': 'application/json' }), '{"push": {"payload": "https://example.com/x", "kind": "url"}}');
    expect(url.status).toBe(201);
    expect(url.json.deletable_by_viewer).toBeNull();
    const anonymous = await send('POST', '/api/v2/pushes', cliHeaders(null, { 'Content-Type': 'application/json' }), '{"push": {"payload": "anon cli secret", "kind": "text", "expire_after_views": 1}}');
    expect(anonymous.status).toBe(201);
    const preview = await send('GET', `/api/v2/pushes/${anonymous.json.url_token}/preview`, cliHeaders(null));
    expect(preview.json.url).toBe(anonymous.json.html_url);
  });
});
