import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyRing } from '../../../server/crypto/key-ring.js';
import { parseKey } from '../../../server/crypto/master-key.js';
import { UrlTokenIds } from '../../../server/pushes/url-token-id.js';
import { MIGRATION_LOCK } from '../../../server/storage/postgres/migrate.js';
import { api, request, waitFor } from '../../support/http.js';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres-database.js';
import { spawnBuilt, spawnBuiltServer, type SpawnedServer } from '../../support/spawn-server.js';

/**
 * Three server processes on one PostgreSQL database (this file's own cluster: stopping the
 * test run's shared one would break every other file), under a steady load of text pushes,
 * file pushes and views through all three, while the database goes through every kind of
 * fault an operator meets: a restart (`pg_ctl stop -m fast`), a crash (`-m immediate`, and
 * SIGKILL of the postmaster), every connection killed (`pg_terminate_backend`), and no
 * database at all when an instance starts.
 *
 * What must hold through each: no instance process ends; meanwhile answers are 2xx or 503 with
 * Retry-After (never a 500, never a refused connection); every push that was acknowledged is
 * still there (its preview through one instance, its payload and file through another); every
 * view that delivered a payload is counted, and no view is counted twice.
 */

const MASTER_KEY = randomBytes(32).toString('hex');
/** Views a push allows (the most there is): more than the load and the checks use on one push. */
const VIEWS = 100;
const FILE_BYTES = 300_000; // two chunks of the blob table
/**
 * Each load client's pause between requests: a steady load, not as much as two cores take (15 ms
 * before: 50 CPU-s for this file against 36; the faults now wait for requests in flight instead).
 */
const PACE_MS = 50;

let cluster: PostgresCluster;
let db: TestDatabase;
let servers: SpawnedServer[] = [];
/** Instance processes that ended: none may, whatever the database does. */
const exits: string[] = [];

const env = () => ({
  DATABASE_URL: db.url,
  MASTER_KEY,
  FILES_REQUIRE_AUTH: 'false',
  // The storage cap and the daily quota stay on (their counters are transactions too), out of reach.
  MAX_STORAGE_MB: '100000',
  ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '100000',
  LOG_LEVEL: 'error',
});
const at = (i: number) => servers[i % servers.length]!.url;

function watchExit(s: SpawnedServer, name: string) {
  void s.exited.then((code) => exits.push(`${name} exited (${code}):\n${s.output().slice(-3000)}`));
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  db = await createTestDatabase(cluster.url);
  servers = await Promise.all([0, 1, 2].map(() => spawnBuiltServer(env())));
  servers.forEach((s, i) => watchExit(s, `instance ${i}`));
}, 60_000);

afterAll(async () => {
  const running = servers.filter((s) => s.child.exitCode === null && s.child.signalCode === null);
  for (const s of running) s.child.kill('SIGKILL');
  await Promise.all(running.map((s) => s.exited));
  await cluster?.destroy();
});

interface Acknowledged {
  token: string;
  payload: string;
  file?: Buffer;
  /** The instance that acknowledged it. */
  by: number;
}

/** What the load saw: every acknowledged push, the views that delivered, the ones whose outcome is unknown. */
class Ledger {
  readonly pushes: Acknowledged[] = [];
  /** Views that answered 200 with the payload, per push. */
  readonly delivered = new Map<string, number>();
  /** Views that failed (503, or the request cut): the database may or may not have counted them. */
  readonly uncertain = new Map<string, number>();
  readonly statuses = new Map<number | string, number>();
  readonly problems: string[] = [];
  unchecked = 0;

  answer(res: { status: number; headers: Headers; text: string }, what: string) {
    this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
    if (res.status === 503) {
      if (!res.headers.get('retry-after')) this.problems.push(`${what}: 503 without Retry-After`);
    } else if (res.status >= 300) {
      this.problems.push(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
    }
  }

  acknowledge(p: Acknowledged) {
    this.pushes.push(p);
    this.unchecked++;
  }
}

const ledger = new Ledger();
let loadRunning = false;
/** While set, the load clients wait here (the checks after a fault run alone, so they keep up). */
let paused: { until: Promise<void>; resume: () => void } | undefined;
let inFlight = 0;
let inFlightWaiter: { n: number; reached: () => void } | undefined;

/**
 * Resolves at a moment when `n` load requests are in flight: each fault is made then, so that
 * every fault meets requests midway (an unsynchronised fault met none in a fifth of the faults
 * at the earlier, three times denser load, and in most at this one).
 */
function requestsInFlight(n = 2): Promise<void> {
  if (inFlight >= n) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no moment with ${n} load requests in flight in 10 s`)), 10_000);
    inFlightWaiter = { n, reached: () => (clearTimeout(timer), resolve()) };
  });
}

async function pauseLoad() {
  let resume!: () => void;
  paused = { until: new Promise<void>((r) => (resume = r)), resume };
  await waitFor(() => inFlight === 0, 30_000, 'the load to pause');
}

function resumeLoad() {
  paused?.resume();
  paused = undefined;
}

const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

/** A view of `p` through instance `i`: must deliver its payload (and file) when it answers 200. */
async function view(p: Acknowledged, i: number, what: string): Promise<'delivered' | 'failed'> {
  let res;
  try {
    res = await api.get(at(i), `/api/v2/pushes/${p.token}`, { timeoutMs: 30_000 });
  } catch (e) {
    bump(ledger.uncertain, p.token);
    ledger.problems.push(`${what}: view through instance ${i % 3} failed: ${(e as Error).message}`);
    return 'failed';
  }
  ledger.answer(res, `${what}: view through instance ${i % 3}`);
  if (res.status !== 200) {
    bump(ledger.uncertain, p.token);
    return 'failed';
  }
  bump(ledger.delivered, p.token);
  if (res.body.payload !== p.payload) ledger.problems.push(`${what}: ${p.token} (made by instance ${p.by}) viewed through ${i % 3}: payload ${JSON.stringify(res.body.payload)}`);
  if (p.file) {
    const url = new URL(res.body.files?.[0]?.url ?? 'http://missing/');
    const download = await fetch(`${at(i + 1)}${url.pathname}${url.search}`).catch((e: Error) => e);
    if (download instanceof Error) {
      ledger.problems.push(`${what}: file of ${p.token} failed: ${download.message}`);
    } else if (download.status === 503 && what === 'load') {
      await download.arrayBuffer();
      // The database went away between the view and the download: the file is checked after the fault.
    } else if (download.status !== 200 || !Buffer.from(await download.arrayBuffer()).equals(p.file)) {
      ledger.problems.push(`${what}: file of ${p.token} answered ${download.status} or other bytes`);
    }
  }
  return 'delivered';
}

/** One load client: creates text and file pushes and views earlier ones, through instance `w` and the others in turn. */
async function loadClient(w: number) {
  for (let n = 0; loadRunning; n++) {
    if (paused) {
      await paused.until;
      continue;
    }
    inFlight++;
    if (inFlightWaiter && inFlight >= inFlightWaiter.n) {
      inFlightWaiter.reached();
      inFlightWaiter = undefined;
    }
    const i = w + n;
    const step = n % 6;
    try {
      if ((step === 3 || step === 5) && ledger.pushes.length) {
        const p = ledger.pushes[(n * 7919 + w) % ledger.pushes.length]!;
        await view(p, p.by + 1 + (n % 2), 'load');
        continue;
      }
      const payload = `load ${w}-${n} ${randomBytes(6).toString('hex')}`;
      let res;
      let file: Buffer | undefined;
      if (step === 1) {
        file = randomBytes(FILE_BYTES);
        const fd = new FormData();
        fd.append('push[payload]', payload);
        fd.append('push[expire_after_views]', String(VIEWS));
        fd.append('push[files][]', new Blob([new Uint8Array(file)]), 'secret.bin');
        res = await request(at(i), 'POST', '/api/v2/pushes', { raw: fd, timeoutMs: 30_000 });
      } else {
        res = await api.post(at(i), '/api/v2/pushes', { json: { push: { payload, expire_after_views: VIEWS } }, timeoutMs: 30_000 });
      }
      ledger.answer(res, `create through instance ${i % 3}`);
      if (res.status === 201) ledger.acknowledge({ token: res.body.url_token, payload, file, by: i % 3 });
    } catch (e) {
      ledger.problems.push(`load client ${w}: ${(e as Error).message}`);
    } finally {
      inFlight--;
    }
    await new Promise((r) => setTimeout(r, PACE_MS));
  }
}

/**
 * Every push acknowledged since the last check (the load paused meanwhile): its preview answers
 * through the instance that made it, and a view through another instance gives its payload
 * (and its file, downloaded through the third).
 */
async function checkAcknowledged(what: string) {
  await pauseLoad();
  const fresh = ledger.pushes.slice(ledger.pushes.length - ledger.unchecked);
  ledger.unchecked = 0;
  const queue = [...fresh];
  const checker = async () => {
    for (let p = queue.shift(); p; p = queue.shift()) {
      // The preview from the instance that acknowledged it, the payload from another one.
      const preview = await api.get(at(p.by), `/api/v2/pushes/${p.token}/preview`, { timeoutMs: 30_000 });
      if (preview.status !== 200) ledger.problems.push(`${what}: preview of ${p.token} (made by instance ${p.by}) answered ${preview.status}`);
      if ((await view(p, p.by + 1 + (queue.length % 2), what)) !== 'delivered') ledger.problems.push(`${what}: ${p.token} (made by instance ${p.by}) not readable after the fault`);
    }
  };
  await Promise.all([0, 1, 2, 3].map(checker));
  resumeLoad();
  return fresh.length;
}

/** Seconds from the database being back until each instance acknowledges a create again. */
async function windowsAfterRecovery(): Promise<number[]> {
  const back = performance.now();
  return Promise.all(
    [0, 1, 2].map(async (i) => {
      for (;;) {
        const res = await api.post(at(i), '/api/v2/pushes', { json: { push: { payload: `probe ${i}`, expire_after_views: VIEWS } }, timeoutMs: 30_000 });
        if (res.status === 201) {
          ledger.acknowledge({ token: res.body.url_token, payload: `probe ${i}`, by: i });
          return (performance.now() - back) / 1000;
        }
        ledger.answer(res, `probe of instance ${i}`);
        if (performance.now() - back > 30_000) throw new Error(`instance ${i} still answers ${res.status} 30 s after the database came back`);
        await new Promise((r) => setTimeout(r, 10));
      }
    }),
  );
}

/** All three instances say they are not ready (they noticed the database is gone). */
async function allNotReady() {
  if (exits.length) throw new Error(exits.join('\n'));
  try {
    return (await Promise.all([0, 1, 2].map((i) => api.get(at(i), '/readyz')))).every((r) => r.status === 503);
  } catch (e) {
    // A refused or cut connection: most likely an instance that died; its exit says why.
    await Promise.race([...servers.map((s) => s.exited), new Promise((r) => setTimeout(r, 2_000))]);
    throw exits.length ? new Error(exits.join('\n')) : e;
  }
}

const windows = new Map<string, number[]>();
function recordWindow(kind: string, secs: number[]) {
  windows.set(kind, [...(windows.get(kind) ?? []), Math.max(...secs)]);
}

async function untilAcknowledged(more: number, what: string) {
  const target = ledger.pushes.length + more;
  await waitFor(
    () => {
      // What went wrong, at once, rather than a wait that times out.
      if (exits.length) throw new Error(exits.join('\n'));
      if (ledger.problems.length) throw new Error(`${what}:\n${ledger.problems.slice(0, 10).join('\n')}\n${servers.map((s, i) => `instance ${i}:\n${s.output().slice(-2000)}`).join('\n')}`);
      return ledger.pushes.length >= target;
    },
    30_000,
    what,
  );
}

/** A superuser connection to the cluster (to kill the other connections). */
async function admin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: cluster.url });
  c.on('error', () => {});
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

describe('database faults under load, three instances', () => {
  let load: Promise<void>[] = [];

  it('a restart (pg_ctl stop -m fast) and a crash (-m immediate), 10 times each: no instance ends, nothing acknowledged is lost', async () => {
    loadRunning = true;
    load = [0, 1, 2, 3].map((w) => loadClient(w));
    await untilAcknowledged(20, 'creates before the first fault');
    let cycles = 0;
    for (let round = 0; round < 10; round++) {
      for (const mode of ['fast', 'immediate'] as const) {
        await untilAcknowledged(12, `creates before stop -m ${mode} #${round + 1}`);
        await requestsInFlight();
        await cluster.stop(mode);
        await waitFor(allNotReady, 20_000, `all instances not ready after stop -m ${mode}`);
        await cluster.start();
        recordWindow(`stop -m ${mode}`, await windowsAfterRecovery());
        await checkAcknowledged(`after stop -m ${mode} #${round + 1}`);
        expect(exits).toEqual([]);
        cycles++;
      }
    }
    expect(cycles).toBe(20);
    expect(ledger.problems).toEqual([]);
  }, 240_000);

  it('SIGKILL of the postmaster (kill -9), twice', async () => {
    for (let round = 0; round < 2; round++) {
      await untilAcknowledged(6, `creates before kill -9 #${round + 1}`);
      await requestsInFlight();
      await cluster.kill();
      await waitFor(allNotReady, 20_000, 'all instances not ready after kill -9');
      await cluster.start();
      recordWindow('kill -9', await windowsAfterRecovery());
      await checkAcknowledged(`after kill -9 #${round + 1}`);
      expect(exits).toEqual([]);
    }
    expect(ledger.problems).toEqual([]);
  }, 120_000);

  it('pg_terminate_backend() of every other connection mid-load, five times', async () => {
    for (let round = 0; round < 5; round++) {
      await untilAcknowledged(6, `creates before terminate #${round + 1}`);
      await requestsInFlight();
      const killed = await admin(async (c) => {
        // Each call returns once its backend has ended (or after 10 s, false).
        const { rows } = await c.query("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 10000))::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
        return rows[0].n as number;
      });
      expect(killed).toBeGreaterThan(0);
      recordWindow('pg_terminate_backend', await windowsAfterRecovery());
      await checkAcknowledged(`after terminate #${round + 1}`);
      expect(exits).toEqual([]);
    }
    expect(ledger.problems).toEqual([]);
  }, 120_000);

  it('an instance started while the database is down waits, says so, and serves once it is up', async () => {
    await cluster.stop('fast');
    const late = await spawnBuilt('server/main.js', [], { ...env(), PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '0' });
    let lateExit: number | string | undefined;
    void late.exited.then((code) => (lateExit = code));
    try {
      await waitFor(() => /Cannot reach PostgreSQL at 127\.0\.0\.1:\d+ \(database t_\w+\) \(ECONNREFUSED\)[^\n]*Waiting for it/.test(late.output()) || lateExit !== undefined, 30_000, 'the waiting message');
      expect(lateExit).toBeUndefined();
      expect(late.output()).not.toContain('listening on');
      await cluster.start();
      recordWindow('stop -m fast (while one starts)', await windowsAfterRecovery());
      await waitFor(() => /listening on http:\/\/\S+/.test(late.output()) || lateExit !== undefined, 30_000, 'the waiting instance to listen');
      expect(lateExit).toBeUndefined();
      const url = /listening on (http:\/\/\S+)/.exec(late.output())![1]!;
      expect((await api.get(url, '/readyz')).status).toBe(200);
      const created = await api.post(url, '/api/v2/pushes', { json: { push: { payload: 'after the wait', expire_after_views: VIEWS } } });
      expect(created.status).toBe(201);
      ledger.acknowledge({ token: created.body.url_token, payload: 'after the wait', by: 0 });
      await checkAcknowledged('after a start without the database');
    } finally {
      late.child.kill('SIGKILL');
      await late.exited;
    }
    expect(exits).toEqual([]);
    expect(ledger.problems).toEqual([]);
  }, 120_000);

  it('an instance whose connection is killed while it waits for the migration lock tries again and starts', async () => {
    const holder = new pg.Client({ connectionString: db.url });
    holder.on('error', () => {});
    await holder.connect();
    let late: Awaited<ReturnType<typeof spawnBuilt>> | undefined;
    try {
      // Another instance is migrating (it holds the lock): this one waits on its own connection.
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      late = await spawnBuilt('server/main.js', [], { ...env(), PORT: '0', HOST: '127.0.0.1', RATE_LIMIT_PER_MINUTE: '0' });
      // The backend waiting for that lock (a bigint advisory key shows as its high and low halves).
      const waiting = () =>
        admin(async (c) => {
          const { rows } = await c.query("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = $1 AND objid = $2 AND objsubid = 1", [
            Math.floor(MIGRATION_LOCK / 2 ** 32),
            MIGRATION_LOCK % 2 ** 32,
          ]);
          return rows.map((r) => r.pid as number);
        });
      await waitFor(async () => (await waiting()).length === 1, 30_000, 'the instance to wait for the migration lock');
      const [pid] = await waiting();
      await admin((c) => c.query('SELECT pg_terminate_backend($1)', [pid]));
      await waitFor(() => /\(57P01\)[^\n]*Waiting for it/.test(late!.output()) || late!.child.exitCode !== null, 30_000, 'the instance to say it waits');
      expect(late.child.exitCode).toBeNull();
      await waitFor(async () => (await waiting()).length === 1, 30_000, 'the instance to wait for the lock again');
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      await waitFor(() => /listening on http:\/\/\S+/.test(late!.output()) || late!.child.exitCode !== null, 30_000, 'the instance to start');
      expect(late.child.exitCode, late.output()).toBeNull();
      const url = /listening on (http:\/\/\S+)/.exec(late.output())![1]!;
      expect((await api.get(url, '/readyz')).status).toBe(200);
    } finally {
      await holder.end();
      late?.child.kill('SIGKILL');
      await late?.exited;
    }
  }, 120_000);

  it('in the end: every acknowledged push is there, every delivered view counted, none twice', async () => {
    loadRunning = false;
    resumeLoad();
    await Promise.all(load);
    await checkAcknowledged('after the load');
    const [row] = await pgRows(db.url, "SELECT value FROM settings WHERE name = 'url-token-key'");
    const ids = new UrlTokenIds(new KeyRing(parseKey(MASTER_KEY, 'MASTER_KEY')).open(row.value));
    const byId = new Map(ledger.pushes.map((p) => [ids.of(p.token), p]));
    const rows = await pgRows(
      db.url,
      `SELECT p.token, (p.record->>'views')::int AS views, (SELECT count(*)::int FROM audit a WHERE a.token = p.token AND a.entry->>'kind' = 'view') AS audited
       FROM pushes p WHERE p.token = ANY($1)`,
      [[...byId.keys()]],
    );
    expect(rows.length).toBe(byId.size);
    const miscounted: string[] = [];
    for (const r of rows) {
      const token = byId.get(r.token)!.token;
      const delivered = ledger.delivered.get(token) ?? 0;
      const uncertain = ledger.uncertain.get(token) ?? 0;
      // Each delivered view counted once; a view that failed may have been counted (its commit
      // done, its answer lost) or not; the audit trail has one entry per counted view.
      if (r.views < delivered || r.views > delivered + uncertain || r.audited !== r.views) miscounted.push(`${token}: ${r.views} counted, ${r.audited} audited, ${delivered} delivered, ${uncertain} failed`);
    }
    expect(miscounted).toEqual([]);
    expect(ledger.problems).toEqual([]);
    expect(exits).toEqual([]);
    const delivered = [...ledger.delivered.values()].reduce((a, b) => a + b, 0);
    const summary = [...windows].map(([kind, w]) => `${kind}: ${w.length}× longest 503 window ${Math.max(...w).toFixed(2)} s (each: ${w.map((s) => s.toFixed(2)).join(' ')})`);
    // Measured, not asserted: printed for the README and the commit message.
    console.log(
      [
        `acknowledged pushes: ${ledger.pushes.length} (${ledger.pushes.filter((p) => p.file).length} with a file), views delivered: ${delivered}`,
        `answers: ${[...ledger.statuses].map(([s, n]) => `${s}×${n}`).join(' ')}`,
        ...summary,
      ].join('\n'),
    );
  }, 120_000);
});

async function pgRows(url: string, text: string, values: unknown[] = []): Promise<any[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows;
  } finally {
    await c.end();
  }
}
