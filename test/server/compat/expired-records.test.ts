import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * Password Pusher computes `views_remaining` and `days_remaining` for every record, expired or
 * not (app/models/push.rb): `views_remaining = max(expire_after_views - (views + failed views), 0)`
 * and `days_remaining = max(expire_after_days - whole days since creation, 0)`. pwpush-cli shows
 * these figures for expired pushes too. Only `Date` is faked, so the server (in this process)
 * ages pushes without waiting.
 */
const DAY = 86_400_000;

let server: TestServer;
let owner: string;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  server = await startServer();
  ({ token: owner } = await createUserWithToken(server, 'expired-records@example.com'));
});
afterAll(async () => {
  await server.stop();
  vi.useRealTimers();
});

const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
const figures = (r: { views_remaining: number; days_remaining: number; expired: boolean }) => ({
  expired: r.expired,
  views_remaining: r.views_remaining,
  days_remaining: r.days_remaining,
});
const inList = async (state: 'active' | 'expired', token: string) =>
  (await api.get(server, `/api/v2/pushes/${state}`, { token: owner })).body.find((r: { url_token: string }) => r.url_token === token);

describe('a push deleted early', () => {
  it('keeps its own figures: views left, days left, and failed views count as views', async () => {
    const p = await createPush(server, { payload: 'early', expire_after_views: 5, expire_after_days: 7 }, owner);
    await api.get(server, `/api/v2/pushes/${p.url_token}`); // one view
    const deleted = await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: owner });
    expect(figures(deleted.body)).toEqual({ expired: true, views_remaining: 4, days_remaining: 7 });

    advance(2 * DAY + 60_000);
    // Each retrieval after expiry is a failed view and counts, as in Password Pusher.
    const failed = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(figures(failed.body)).toEqual({ expired: true, views_remaining: 3, days_remaining: 5 });
    const v1 = await api.get(server, `/p/${p.url_token}.json`);
    expect(figures(v1.body)).toEqual({ expired: true, views_remaining: 2, days_remaining: 5 });
    // The owner's expired list shows the same figures (the owner's view of an expired push is a failed view too).
    expect(figures(await inList('expired', p.url_token))).toEqual({ expired: true, views_remaining: 2, days_remaining: 5 });
    const audit = await api.get(server, `/api/v2/pushes/${p.url_token}/audit`, { token: owner });
    expect(audit.body.logs.map((l: { kind: string }) => l.kind)).toEqual(['creation', 'view', 'expire', 'failed_view', 'failed_view']);
  });
});

describe('a push expired by time', () => {
  it('has 0 days left and its unused views', async () => {
    const p = await createPush(server, { payload: 'one day', expire_after_views: 10, expire_after_days: 1 }, owner);
    await api.get(server, `/api/v2/pushes/${p.url_token}`);
    advance(DAY + 60_000);
    const after = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(after.body.payload).toBeNull();
    // 10 views − 1 view − this failed view.
    expect(figures(after.body)).toEqual({ expired: true, views_remaining: 8, days_remaining: 0 });
    advance(5 * DAY);
    expect(figures(await inList('expired', p.url_token))).toEqual({ expired: true, views_remaining: 8, days_remaining: 0 });
  });
});

describe('a push expired by views', () => {
  it('has 0 views left (never negative, however many failed views follow) and its unused days', async () => {
    const p = await createPush(server, { payload: 'twice', expire_after_views: 2, expire_after_days: 30 }, owner);
    await api.get(server, `/api/v2/pushes/${p.url_token}`);
    const last = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(last.body).toMatchObject({ payload: 'twice', expired: false, views_remaining: 0 });
    advance(3 * DAY + 60_000);
    for (let i = 0; i < 3; i++) await api.get(server, `/api/v2/pushes/${p.url_token}`);
    const after = await api.get(server, `/p/${p.url_token}.json`);
    expect(figures(after.body)).toEqual({ expired: true, views_remaining: 0, days_remaining: 27 });
  });
});

describe('an active push', () => {
  it('is unchanged: a preview counts nothing, views by the owner count nothing', async () => {
    const p = await createPush(server, { payload: 'live', expire_after_views: 3, expire_after_days: 3 }, owner);
    await api.get(server, `/api/v2/pushes/${p.url_token}/preview`);
    await api.get(server, `/api/v2/pushes/${p.url_token}`, { token: owner });
    expect(figures(await inList('active', p.url_token))).toEqual({ expired: false, views_remaining: 3, days_remaining: 3 });
  });
});
