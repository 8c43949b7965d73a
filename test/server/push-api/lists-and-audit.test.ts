import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, BASE_KEYS, OWNER_KEYS, createPush, ISO_MS } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let owner: string;
let other: string;
let lister: string;

beforeAll(async () => {
  server = await startServer();
  ({ token: owner } = await createUserWithToken(server, 'audit-owner@example.com'));
  ({ token: other } = await createUserWithToken(server, 'audit-other@example.com'));
  ({ token: lister } = await createUserWithToken(server, 'lister@example.com'));
});
afterAll(() => server.stop());

describe('GET /api/v2/pushes/:token/audit', () => {
  it('is for the owner only: 401 anonymous, 403 another user, 200 owner', async () => {
    const p = await createPush(server, { payload: 'audited' }, owner);
    const anon = await api.get(server, `/api/v2/pushes/${p.url_token}/audit`);
    expect(anon.status).toBe(401);
    expect(typeof anon.body.error).toBe('string');
    const foreign = await api.get(server, `/api/v2/pushes/${p.url_token}/audit`, { token: other });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ error: "That push doesn't belong to you." });
    const mine = await api.get(server, `/api/v2/pushes/${p.url_token}/audit`, { token: owner });
    expect(mine.status).toBe(200);
    expect(Object.keys(mine.body)).toEqual(['logs']);
  });

  it('anonymous pushes have no owner: even a signed-in user gets 403', async () => {
    const p = await createPush(server, { payload: 'anon' });
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}/audit`, { token: other })).status).toBe(403);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}/audit`)).status).toBe(401);
  });

  it('records ip, user agent and referrer, oldest first, with the reference shape; never the payload', async () => {
    const p = await createPush(server, { payload: 'audit-payload-xyz', passphrase: 'pw', expire_after_views: 1 }, owner);
    await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=bad`, { headers: { 'user-agent': 'BadGuess/1.0', referer: 'https://chat.example/room' } });
    await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=pw`, { headers: { 'user-agent': 'Viewer/2.0', referer: 'https://mail.example/inbox' } });
    await api.get(server, `/api/v2/pushes/${p.url_token}`, { headers: { 'user-agent': 'Late/3.0' } });
    await api.get(server, `/api/v2/pushes/${p.url_token}`, { token: owner, headers: { 'user-agent': 'Owner/4.0' } });
    await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: owner, headers: { 'user-agent': 'Deleter/5.0' } });
    const res = await api.get(server, `/api/v2/pushes/${p.url_token}/audit`, { token: owner });
    const logs = res.body.logs as any[];
    expect(logs.map((l) => l.kind)).toEqual(['creation', 'failed_passphrase', 'view', 'failed_view', 'failed_view', 'expire']);
    for (const l of logs) {
      expect(Object.keys(l)).toEqual(['ip', 'user_agent', 'referrer', 'kind', 'created_at', 'updated_at']);
      expect(l.created_at).toMatch(ISO_MS);
      expect(l.ip).toMatch(/127\.0\.0\.1/);
    }
    expect(logs[0]).toMatchObject({ referrer: '' });
    expect(logs[1]).toMatchObject({ user_agent: 'BadGuess/1.0', referrer: 'https://chat.example/room' });
    expect(logs[2]).toMatchObject({ user_agent: 'Viewer/2.0', referrer: 'https://mail.example/inbox' });
    expect(logs[3]).toMatchObject({ user_agent: 'Late/3.0', referrer: '' });
    expect(logs[5]).toMatchObject({ user_agent: 'Deleter/5.0' });
    expect(res.text).not.toContain('audit-payload-xyz');
    expect(res.text).not.toContain('"pw"');
  });

  it('cuts user agent and referrer to 255 characters', async () => {
    const p = await createPush(server, { payload: 'x' }, owner);
    const ua = 'U'.repeat(300);
    const ref = `https://example.com/${'r'.repeat(400)}`;
    await api.get(server, `/api/v2/pushes/${p.url_token}`, { headers: { 'user-agent': ua, referer: ref } });
    const logs = (await api.get(server, `/api/v2/pushes/${p.url_token}/audit`, { token: owner })).body.logs;
    expect(logs[1].user_agent).toBe(ua.slice(0, 255));
    expect(logs[1].referrer).toBe(ref.slice(0, 255));
  });

  it('pages audit entries 50 at a time and validates page', async () => {
    const p = await createPush(server, { payload: 'x', expire_after_views: 100 }, owner);
    // 1 creation + 60 owner views = 61 entries.
    await Promise.all(Array.from({ length: 60 }, () => api.get(server, `/api/v2/pushes/${p.url_token}`, { token: owner })));
    const one = await api.get(server, `/api/v2/pushes/${p.url_token}/audit`, { token: owner });
    expect(one.body.logs).toHaveLength(50);
    expect(one.body.logs[0].kind).toBe('creation');
    const two = await api.get(server, `/api/v2/pushes/${p.url_token}/audit?page=2`, { token: owner });
    expect(two.body.logs).toHaveLength(11);
    const three = await api.get(server, `/api/v2/pushes/${p.url_token}/audit?page=3`, { token: owner });
    expect(three.body.logs).toEqual([]);
    // Audit pages go far beyond the lists' 200: the whole trail is kept and reachable.
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}/audit?page=201`, { token: owner })).body).toEqual({ logs: [] });
    for (const bad of ['0', '1000001', 'abc', '1.5', '-1', '', ' 1']) {
      if (bad === '') continue; // empty means default
      const res = await api.get(server, `/api/v2/pushes/${p.url_token}/audit?page=${encodeURIComponent(bad)}`, { token: owner });
      expect.soft([bad, res.status, res.body]).toEqual([bad, 400, { error: 'Invalid page parameter' }]);
    }
  });

  it('unknown token is 404', async () => {
    expect((await api.get(server, '/api/v2/pushes/abcdefghijklmnopqrs/audit', { token: owner })).status).toBe(404);
  });

  it('X-Forwarded-For is ignored unless TRUST_PROXY is set (no spoofed audit addresses)', async () => {
    const p = await createPush(server, { payload: 'x' }, owner);
    await api.get(server, `/api/v2/pushes/${p.url_token}`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    const logs = (await api.get(server, `/api/v2/pushes/${p.url_token}/audit`, { token: owner })).body.logs;
    expect(logs[1].ip).not.toContain('203.0.113.9');
    expect(logs[1].ip).toMatch(/127\.0\.0\.1/);
  });

  it('with TRUST_PROXY the address the proxy appended (the last) is recorded', async () => {
    const s = await startServer({ TRUST_PROXY: 'true' });
    try {
      const { token } = await createUserWithToken(s, 'proxy@example.com');
      const p = await createPush(s, { payload: 'x' }, token);
      await api.get(s, `/api/v2/pushes/${p.url_token}`, { headers: { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' } });
      const logs = (await api.get(s, `/api/v2/pushes/${p.url_token}/audit`, { token })).body.logs;
      expect(logs[1].ip).toBe('203.0.113.7');
    } finally {
      await s.stop();
    }
  });
});

describe('GET /api/v2/pushes/active and /expired', () => {
  it('need authentication', async () => {
    for (const path of ['/api/v2/pushes/active', '/api/v2/pushes/expired', '/api/v2/pushes/active.json']) {
      const res = await api.get(server, path);
      expect.soft([path, res.status]).toEqual([path, 401]);
      expect(typeof res.body?.error).toBe('string');
    }
  });

  it('list only the caller own pushes, newest first, 50 a page, base keys + note + name', async () => {
    // 53 pushes, created one after another so that creation order is well defined.
    const created: string[] = [];
    for (let i = 0; i < 53; i++) created.push((await createPush(server, { payload: `p${i}`, note: `note ${i}`, name: `n${i}` }, lister)).url_token);
    await createPush(server, { payload: 'someone else' }, other);
    const page1 = await api.get(server, '/api/v2/pushes/active', { token: lister });
    expect(page1.status).toBe(200);
    expect(page1.body).toHaveLength(50);
    expect(Object.keys(page1.body[0])).toEqual([...OWNER_KEYS]);
    const page2 = await api.get(server, '/api/v2/pushes/active?page=2', { token: lister });
    expect(page2.body).toHaveLength(3);
    const all = [...page1.body, ...page2.body];
    expect(new Set(all.map((r: any) => r.url_token)).size).toBe(53);
    expect(new Set(all.map((r: any) => r.url_token))).toEqual(new Set(created));
    // Newest first.
    const times = all.map((r: any) => r.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all[0].url_token).toBe(created[created.length - 1]);
    expect(all[52].url_token).toBe(created[0]);
    // Notes are decrypted for the owner.
    const first = all.find((r: any) => r.url_token === created[0]);
    expect(first).toMatchObject({ note: 'note 0', name: 'n0' });
    expect((await api.get(server, '/api/v2/pushes/active?page=3', { token: lister })).body).toEqual([]);
    expect((await api.get(server, '/api/v2/pushes/expired', { token: lister })).body).toEqual([]);

    // Expire two: they move to the expired list, newest first, keeping note and name.
    await api.delete(server, `/api/v2/pushes/${created[0]}`, { token: lister });
    await api.delete(server, `/api/v2/pushes/${created[5]}`, { token: lister });
    const expired = await api.get(server, '/api/v2/pushes/expired', { token: lister });
    expect(expired.body.map((r: any) => r.url_token)).toEqual([created[5], created[0]]);
    expect(expired.body[1]).toMatchObject({ expired: true, deleted: true, note: 'note 0', name: 'n0', passphrase: '' });
    const active = [
      ...(await api.get(server, '/api/v2/pushes/active', { token: lister })).body,
      ...(await api.get(server, '/api/v2/pushes/active?page=2', { token: lister })).body,
    ];
    expect(active).toHaveLength(51);
    expect(active.map((r: any) => r.url_token)).not.toContain(created[0]);
  });

  it.each(['0', '201', 'abc', '1.5', '-3', '1e1', '0x1'])('page=%s is 400 Invalid page parameter', async (page) => {
    for (const list of ['active', 'expired']) {
      const res = await api.get(server, `/api/v2/pushes/${list}?page=${page}`, { token: lister });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid page parameter' });
    }
  });

  it('page 200 is accepted', async () => {
    const res = await api.get(server, '/api/v2/pushes/active?page=200', { token: lister });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});
