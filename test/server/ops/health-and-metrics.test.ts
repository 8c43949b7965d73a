import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { api, createPush, secret } from '../../support/http.js';
import { createUserWithToken, startServer, testStore, type TestServer } from '../../support/server.js';

/**
 * What a load balancer and Prometheus see: /healthz, /readyz and /metrics, on a real server
 * (both stores: the server-postgres project runs this file again on PostgreSQL).
 */

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
let server: TestServer;
let limited: TestServer;
let plain: TestServer;

beforeAll(async () => {
  server = await startServer({ METRICS_TOKEN });
  // A rate limit of 3 a minute: health checks and scrapes must never count against it.
  limited = await startServer({ METRICS_TOKEN, RATE_LIMIT_PER_MINUTE: '3' });
  plain = await startServer({});
});
afterAll(async () => {
  await server?.stop();
  await limited?.stop();
  await plain?.stop();
});

/** The limit counts per fixed minute: start a counted sequence well inside one. */
async function insideOneMinute() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 5_000) await new Promise((r) => setTimeout(r, left + 50));
}

/** A value from the Prometheus text, by metric name and exact label set (`{}` for none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (JSON.stringify(Object.entries(got).sort()) === JSON.stringify(Object.entries(labels).sort())) return Number(m[4]);
  }
  return undefined;
}

const scrape = async (s: TestServer = server) => {
  const res = await api.get(s, '/metrics', { token: METRICS_TOKEN });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
};

describe('health and readiness', () => {
  it('/healthz and /readyz answer 200 with no store detail, are never rate limited nor logged as requests; rejections are counted', async () => {
    await insideOneMinute();
    for (let i = 0; i < 10; i++) {
      const live = await api.get(limited, '/healthz');
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ status: 'ok' });
      const ready = await api.get(limited, '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ready' });
      expect(ready.headers.get('cache-control')).toBe('no-store');
      expect((await api.get(limited, '/metrics', { token: METRICS_TOKEN })).status).toBe(200);
    }
    expect((await fetch(`${limited.url}/readyz`, { method: 'HEAD' })).status).toBe(200);
    // The API's own limit is untouched by the probes: three requests pass, then it limits.
    const rejectedBefore = sample(await scrape(limited), 'secretpush_rate_limit_rejections_total') ?? NaN;
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await api.get(limited, '/api/v2/version')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // …and counts what it refused.
    expect((sample(await scrape(limited), 'secretpush_rate_limit_rejections_total') ?? NaN) - rejectedBefore).toBe(2);
    const logged = limited.logs.map((l) => JSON.parse(l)).filter((e) => e.msg === 'request');
    expect(logged.some((e) => /healthz|readyz/.test(e.route))).toBe(false);
  });

  it.runIf(testStore === 'postgres')('turns 503 when the database stops taking writes, and back when it does again', async () => {
    const db = new pg.Client({ connectionString: server.databaseUrl });
    await db.connect();
    try {
      const name = (await db.query('SELECT current_database() AS d')).rows[0].d as string;
      await db.query(`ALTER DATABASE "${name}" SET default_transaction_read_only = on`);
      // The server's connections keep their session settings: end them, the pool makes new ones.
      await db.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      // The first probes may meet a connection that was just ended ("unreachable"); the pool then reconnects.
      let ready = await api.get(server, '/readyz');
      for (let i = 0; i < 5 && ready.body.reason !== 'the store cannot be written'; i++) ready = await api.get(server, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'not ready', reason: 'the store cannot be written' });
      expect(ready.headers.get('retry-after')).toBe('5');
      await db.query(`ALTER DATABASE "${name}" RESET default_transaction_read_only`);
      await db.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      let back = await api.get(server, '/readyz');
      for (let i = 0; i < 5 && back.status !== 200; i++) back = await api.get(server, '/readyz');
      expect(back.body).toEqual({ status: 'ready' });
    } finally {
      await db.end();
    }
  });
});

describe('metrics', () => {
  it('are off without METRICS_TOKEN, and need the token with it', async () => {
    expect((await api.get(plain, '/metrics')).status).toBe(404);
    expect((await api.get(plain, '/metrics', { token: METRICS_TOKEN })).status).toBe(404);
    const none = await api.get(server, '/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(none.body.error).toMatch(/METRICS_TOKEN/);
    expect((await api.get(server, '/metrics', { token: METRICS_TOKEN.slice(0, -1) + 'x' })).status).toBe(401);
    expect((await api.get(server, '/metrics', { token: METRICS_TOKEN + 'x' })).status).toBe(401);
  });

  it('count pushes created, viewed and expired by kind, failed passphrases, requests by route pattern and store operations; no token in any label', async () => {
    const { token: owner } = await createUserWithToken(server, 'metrics@example.com');
    const before = await scrape();
    const created = (k: string, t = before) => sample(t, 'secretpush_pushes_created_total', { kind: k }) ?? NaN;
    const viewed = (k: string, t = before) => sample(t, 'secretpush_pushes_viewed_total', { kind: k }) ?? NaN;
    const expired = (k: string, t = before) => sample(t, 'secretpush_pushes_expired_total', { kind: k }) ?? NaN;
    const failures = (t = before) => sample(t, 'secretpush_passphrase_failures_total') ?? NaN;
    expect(created('text')).toBe(0);

    const payload = secret('metrics-payload');
    const one = await createPush(server, { payload, expire_after_views: 1 }, owner);
    const url = await createPush(server, { payload: 'https://example.com/' + secret('u'), kind: 'url', expire_after_views: 3 }, owner);
    const locked = await createPush(server, { payload: secret('p'), passphrase: 'open sesame', expire_after_views: 3 }, owner);
    expect((await api.get(server, `/api/v2/pushes/${one.url_token}`)).status).toBe(200); // the last view: expires
    expect((await api.get(server, `/api/v2/pushes/${one.url_token}`)).status).toBe(200); // already expired: no view
    expect((await api.get(server, `/api/v2/pushes/${url.url_token}`)).status).toBe(200);
    expect((await api.get(server, `/api/v2/pushes/${url.url_token}`, { token: owner })).status).toBe(200); // the owner's: no view
    expect((await api.get(server, `/api/v2/pushes/${locked.url_token}?passphrase=wrong`)).status).toBe(401);
    expect((await api.delete(server, `/api/v2/pushes/${url.url_token}`, { token: owner })).status).toBe(200);

    const after = await scrape();
    expect(created('text', after) - created('text')).toBe(2);
    expect(created('url', after) - created('url')).toBe(1);
    expect(viewed('text', after) - viewed('text')).toBe(1);
    expect(viewed('url', after) - viewed('url')).toBe(1);
    expect(expired('text', after) - expired('text')).toBe(1);
    expect(expired('url', after) - expired('url')).toBe(1);
    expect(failures(after) - failures()).toBe(1);

    const route = (status: string) => sample(after, 'secretpush_http_requests_total', { method: 'GET', route: '/api/v2/pushes/:token', status }) ?? 0;
    expect(route('200')).toBeGreaterThanOrEqual(4);
    expect(route('401')).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(/secretpush_http_request_duration_seconds_bucket\{le="0\.005",method="POST",route="\/api\/v2\/pushes"\}/);
    expect(sample(after, 'secretpush_store_operation_duration_seconds_count', { operation: 'insertPush', outcome: 'ok' })).toBeGreaterThanOrEqual(3);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds \S+$/m);
    expect(after).toMatch(/^process_resident_memory_bytes \S+$/m);
    for (const t of [one.url_token, url.url_token, locked.url_token, owner, payload, 'open sesame', 'wrong']) {
      expect(after.includes(t), `${t} in the metrics`).toBe(false);
    }
  });
});
