import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppRouter } from '../../../server/http/trpc/app-router';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * Scheduled release (issue 35, `not_before`). As in expiry.test.ts, only `Date` is faked: the
 * server runs in this process, so moving the clock moves the server's, over real HTTP, with no
 * sleeps.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let server: TestServer;
let owner: string;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2027-02-27T12:00:00Z') });
  server = await startServer({ EXPIRY_SWEEP_SECONDS: '1', PURGE_COMPACTION_SECONDS: '0' });
  ({ token: owner } = await createUserWithToken(server, 'release@example.com'));
});
afterAll(async () => {
  await server.stop();
  vi.useRealTimers();
});

const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();
const kinds = async (token: string) => (await api.get(server, `/api/v2/pushes/${token}/audit`, { token: owner })).body.logs.map((l: any) => l.kind);
const trpc = (token?: string) =>
  createTRPCClient<AppRouter>({ links: [httpLink({ url: `${server.url}/trpc`, headers: () => (token ? { authorization: `Bearer ${token}` } : {}) })] });

describe('scheduled release on the REST API', () => {
  it('before not_before: 425 Too Early with Retry-After and the time, no view counted; from it the push opens and views count', async () => {
    const opens = '2027-03-01T08:00:00+01:00'; // 1 March 07:00 UTC: 1 day 19 hours ahead
    const p = await createPush(server, { payload: 'new admin password', expire_after_days: 7, expire_after_views: 2, not_before: opens }, owner);
    expect(p.not_before).toBe('2027-03-01T07:00:00.000Z');
    expect(p.views_remaining).toBe(2);

    const early = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(early.status).toBe(425);
    expect(early.headers.get('retry-after')).toBe(String(43 * 3600));
    expect(early.body).toEqual({ error: 'This push opens at 2027-03-01T07:00:00.000Z. Please try again then.', not_before: '2027-03-01T07:00:00.000Z' });
    expect(early.text).not.toContain('new admin password');
    // The v1 JSON address and a second try are refused the same way, and still count nothing.
    expect((await api.get(server, `/p/${p.url_token}.json`)).status).toBe(425);

    advance(43 * HOUR - 1000); // one second before the release
    const last = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(last.status).toBe(425);
    expect(last.headers.get('retry-after')).toBe('1');

    advance(1000);
    const opened = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ payload: 'new admin password', views_remaining: 1, expired: false, not_before: '2027-03-01T07:00:00.000Z' });
    // Days count from creation (documented): 1 day 19 hours after a 7-day push's creation.
    expect(opened.body.days_remaining).toBe(6);
    expect(await kinds(p.url_token)).toEqual(['creation', 'view']);
  });

  it('the passphrase counts from the release: a guess before it is not judged, not counted, and cannot burn the push', async () => {
    const p = await createPush(server, { payload: 'guarded', passphrase: 'right horse', max_failed_passphrase_attempts: 1, not_before: inFuture(HOUR) }, owner);
    const guess = await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=wrong`);
    expect(guess.status).toBe(425);
    const receipt = (await api.get(server, '/api/v2/pushes/active', { token: owner })).body.find((r: any) => r.url_token === p.url_token);
    expect(receipt).toMatchObject({ failed_passphrase_attempts: 0, expired: false, not_before: p.not_before });
    advance(HOUR);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}?passphrase=right%20horse`)).body).toMatchObject({ payload: 'guarded' });
  });

  it('a recipient cannot delete it before the release (425: its passphrase is not judged there either); the owner can', async () => {
    const p = await createPush(server, { payload: 'not yet yours', passphrase: 'pass word', max_failed_passphrase_attempts: 1, deletable_by_viewer: true, not_before: inFuture(HOUR) }, owner);
    const byRecipient = await api.delete(server, `/api/v2/pushes/${p.url_token}?passphrase=wrong`);
    expect(byRecipient.status).toBe(425);
    expect(byRecipient.headers.get('retry-after')).toBe('3600');
    const stored = (await server.server.store.getPush(server.server.pushes.storageId(p.url_token)))!;
    expect(stored).toMatchObject({ expiredAt: null, failedPassphraseAttempts: 0 });
    expect((await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: owner })).status).toBe(200);
  });

  it('the owner may read the push before its release (an owner view, not counted)', async () => {
    const p = await createPush(server, { payload: 'mine early', expire_after_views: 1, not_before: inFuture(DAY) }, owner);
    const mine = await api.get(server, `/api/v2/pushes/${p.url_token}`, { token: owner });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ payload: 'mine early', views_remaining: 1 });
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).status).toBe(425);
    expect(await kinds(p.url_token)).toEqual(['creation', 'owner_view']);
  });

  it('a push expired before its release (deleted by its owner) answers as any expired push, not 425', async () => {
    const p = await createPush(server, { payload: 'withdrawn', not_before: inFuture(DAY) }, owner);
    expect((await api.delete(server, `/api/v2/pushes/${p.url_token}`, { token: owner })).status).toBe(200);
    const gone = await api.get(server, `/api/v2/pushes/${p.url_token}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ payload: null, expired: true });
  });

  it('records carry not_before only when a release is scheduled (Password Pusher clients see their keys)', async () => {
    const plain = await createPush(server, { payload: 'now' });
    expect(plain).not.toHaveProperty('not_before');
    // A time already past (a sender's clock a little behind): the push opens at once.
    const past = await createPush(server, { payload: 'past', not_before: inFuture(-MINUTE) });
    expect(past).not.toHaveProperty('not_before');
    expect((await api.get(server, `/api/v2/pushes/${past.url_token}`)).body).toMatchObject({ payload: 'past' });
    // The v1 JSON API's body takes it through the same service.
    const v1 = await api.post(server, '/p.json', { json: { password: { payload: 'v1 later', not_before: inFuture(HOUR) } } });
    expect(v1.status).toBe(201);
    expect(v1.body.not_before).toBe(inFuture(HOUR));
    expect((await api.get(server, `/p/${v1.body.url_token}.json`)).status).toBe(425);
    // An empty form field means no schedule.
    expect(await createPush(server, { payload: 'empty', not_before: '' })).not.toHaveProperty('not_before');
  });

  it('expire_from_release: the days count from the release (all remain before it), so a release beyond the days is allowed, up to the longest lifetime ahead', async () => {
    const p = await createPush(server, { payload: 'far', expire_after_days: 2, not_before: inFuture(10 * DAY), expire_from_release: true }, owner);
    expect(p.days_remaining).toBe(2);
    advance(10 * DAY);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body).toMatchObject({ payload: 'far', days_remaining: 2, expired: false });
    advance(2 * DAY - MINUTE);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body).toMatchObject({ payload: 'far', days_remaining: 1, expired: false });
    advance(2 * MINUTE);
    expect((await api.get(server, `/api/v2/pushes/${p.url_token}`)).body).toMatchObject({ payload: null, expired: true });
    // Without a schedule it changes nothing.
    expect((await createPush(server, { payload: 'now', expire_after_days: 1, expire_from_release: true })).days_remaining).toBe(1);
    // At most the instance's longest lifetime (90 days here) ahead.
    const tooFar = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x', not_before: inFuture(91 * DAY), expire_from_release: true } } });
    expect(tooFar.status).toBe(422);
    expect(tooFar.body.not_before[0]).toBe('must be at most 90 days ahead');
  });

  it('bad not_before values: 422 with the field named, nothing stored', async () => {
    const refused = async (push: Record<string, unknown>) => {
      const res = await api.post(server, '/api/v2/pushes', { json: { push } });
      expect(res.status, JSON.stringify(push)).toBe(422);
      return res.body.not_before as string[];
    };
    expect((await refused({ payload: 'x', not_before: 'tomorrow' }))[0]).toMatch(/date and time with its offset/);
    expect((await refused({ payload: 'x', not_before: '2027-03-01T08:00:00' }))[0]).toMatch(/offset/);
    expect((await refused({ payload: 'x', not_before: '2027-02-30T08:00:00Z' }))[0]).toMatch(/offset/);
    expect((await refused({ payload: 'x', not_before: 1780000000 }))[0]).toMatch(/date and time/);
    // Released at or after its expiry: nobody could ever open it.
    expect((await refused({ payload: 'x', expire_after_days: 1, not_before: inFuture(DAY) }))[0]).toMatch(/must be before the push expires/);
    expect((await refused({ payload: 'x', expire_after_duration: 0, not_before: inFuture(20 * MINUTE) }))[0]).toMatch(/must be before the push expires/);
  });
});

describe('scheduled release over tRPC', () => {
  it('create takes not_before; retrieve before it fails with HTTP 425, Retry-After and the time, and opens after', async () => {
    const created = await trpc(owner).pushes.create.mutate({ payload: 'trpc later', not_before: inFuture(2 * HOUR) } as never);
    expect((created as any).not_before).toBe(new Date(Date.now() + 2 * HOUR).toISOString());
    const raw = await fetch(`${server.url}/trpc/pushes.retrieve`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url_token: (created as any).url_token }) });
    expect(raw.status).toBe(425);
    expect(raw.headers.get('retry-after')).toBe(String(2 * 3600));
    const body = await raw.json();
    expect(body.error.data).toMatchObject({ httpStatus: 425, notBefore: (created as any).not_before });
    let error: unknown;
    await trpc().pushes.retrieve.mutate({ url_token: (created as any).url_token }).catch((e) => (error = e));
    expect(error).toBeInstanceOf(TRPCClientError);
    advance(2 * HOUR);
    // The extension learns from `limits` that this server takes not_before (older servers would ignore it).
    expect(await trpc().limits.query()).toMatchObject({ scheduled_release: true });
    expect(await trpc().pushes.retrieve.mutate({ url_token: (created as any).url_token })).toMatchObject({ payload: 'trpc later', views_remaining: 4 });
  });
});
