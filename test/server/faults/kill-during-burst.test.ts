import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { spawnBuilt, spawnBuiltServer, type SpawnedServer } from '../../support/spawn-server.js';
import { readSnapshot } from '../../support/snapshot.js';

/**
 * Fault: SIGKILL in the middle of a burst of concurrent creates and retrievals (a real child
 * process, its own data dir). The burst makes expiries, so with PURGE_COMPACTION_SECONDS=0
 * the store compacts (rotates the journal, streams a snapshot) continually beside the writes:
 * the kill lands anywhere in that cycle. After a restart on the same data dir:
 * - every push answered 201 exists, with its payload while views remain;
 * - views answered 200 were counted exactly once (never lost, never twice); in-flight views
 *   may or may not have counted; never more deliveries than the view limit;
 * - a push whose last view was answered is expired, payload null, and its sealed payload has
 *   left every data file once the restarted server has closed (close compacts);
 * - db.json is valid JSON, every journal line is valid JSON (a torn line only at the very end
 *   of journal.jsonl, and it is gone after the restart).
 */

const MASTER_KEY = 'a7'.repeat(32);
const CLIENTS = 40;
/** The longest the burst goes on once it has done enough to lose (the kill moment is seeded within it). */
const KILL_DELAY_MAX_MS = 800;
/** Seeds of the runs: each picks its own kill moment within the burst. */
const SEEDS = [11, 29, 53];

const dirs: string[] = [];
const children: SpawnedServer[] = [];
afterAll(() => {
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Created {
  token: string;
  payload: string;
  views: number;
}
interface Tally {
  /** Views answered 200 with the payload, with the views_remaining each answer gave. */
  acked: number[];
  /** Retrievals sent without an answer (cut off by the kill): may or may not have counted. */
  inFlight: number;
  /** Retrievals answered 200 with expired: true and payload null. */
  refused: number;
}

/** Every file that may hold a sealed payload (the snapshot's temp file too). */
const DATA_FILES = ['db.json', '.db.json.tmp', 'journal.jsonl', 'journal.rotated.jsonl'];

/** Parses the data files as left on disk; returns every sealed payload seen per push token. */
async function inspectDataFiles(dataDir: string, allowTornJournalEnd: boolean): Promise<{ sealed: Map<string, Set<string>>; torn: boolean }> {
  const sealed = new Map<string, Set<string>>();
  const note = (token: string, push: { payload?: unknown } | null) => {
    if (push && typeof push.payload === 'string') {
      if (!sealed.has(token)) sealed.set(token, new Set());
      sealed.get(token)!.add(push.payload);
    }
  };
  let torn = false;
  const dbPath = join(dataDir, 'db.json');
  if (existsSync(dbPath)) {
    const db = await readSnapshot(dbPath); // throws (fails the test) unless a whole, valid snapshot
    for (const [token, push] of Object.entries(db.pushes ?? {})) note(token, push as { payload?: unknown });
  }
  for (const name of ['journal.rotated.jsonl', 'journal.jsonl']) {
    const path = join(dataDir, name);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    const last = lines.pop()!; // '' when the file ends with a newline
    if (last !== '') {
      expect(name === 'journal.jsonl' && allowTornJournalEnd, `${name} ends in a torn line`).toBe(true);
      torn = true;
      expect(() => JSON.parse(last), 'a torn last line is not a whole entry').toThrow();
    }
    lines.forEach((line, i) => {
      let entry: { n: number; c: string; k: string; v?: { payload?: unknown } | null };
      try {
        entry = JSON.parse(line);
      } catch {
        throw new Error(`${name} line ${i + 1} is not valid JSON: ${line.slice(0, 80)}`);
      }
      expect(Number.isSafeInteger(entry.n)).toBe(true);
      if (entry.c === 'pushes' && entry.v) note(entry.k, entry.v);
    });
  }
  return { sealed, torn };
}

async function runOnce(seed: number) {
  const rand = mulberry32(seed);
  const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-kill-burst-'));
  dirs.push(dataDir);
  const env = { DATA_DIR: dataDir, MASTER_KEY, LOG_LEVEL: 'error', PURGE_COMPACTION_SECONDS: '0', EXPIRY_SWEEP_SECONDS: '3600' };

  // An owner: its retrievals after the restart read views_remaining without counting a view.
  const cli = await spawnBuilt('server/cli/users.js', ['create', 'burst@example.com'], env);
  expect(await cli.exited, cli.output()).toBe(0);
  const ownerToken = cli.output().trim().split('\n').pop()!;

  const first = await spawnBuiltServer(env);
  children.push(first);
  const created: Created[] = [];
  const tallies = new Map<string, Tally>();
  let createsSent = 0;
  let retrievalsSent = 0;
  let failedRequests = 0;
  let killed = false;
  let viewsAcked = 0;
  // The kill lands a seeded time after the burst has done enough to lose (over 20 creates and 5
  // views acknowledged), not at a fixed time after its start: on a loaded machine a fixed time
  // could come before anything was acknowledged. The clients keep going until the kill.
  const killDelay = Math.floor(rand() * KILL_DELAY_MAX_MS);
  const started = performance.now();
  let killAt = 0;
  let armKill = () => {};
  const killer = new Promise<void>((resolve) => {
    armKill = () => {
      armKill = () => {};
      setTimeout(() => {
        killed = true;
        killAt = Math.round(performance.now() - started);
        first.child.kill('SIGKILL');
        resolve();
      }, killDelay);
    };
  });
  const acknowledged = () => {
    if (created.length > 20 && viewsAcked > 5) armKill();
  };

  const client = async (id: number) => {
    const r = mulberry32(seed * 1000 + id);
    while (!killed) {
      const known = created.filter((c) => tallies.get(c.token)!.acked.length < c.views);
      if (known.length === 0 || r() < 0.4) {
        const views = 1 + Math.floor(r() * 3);
        const payload = `burst-${seed}-${id}-${createsSent}-${'x'.repeat(Math.floor(r() * 600))}`;
        createsSent++;
        try {
          const res = await api.post(first.url, '/api/v2/pushes', {
            json: { push: { payload, expire_after_views: views, expire_after_days: 2 } },
            token: ownerToken,
            timeoutMs: 10_000,
          });
          expect(res.status, res.text).toBe(201);
          created.push({ token: res.body.url_token, payload, views });
          tallies.set(res.body.url_token, { acked: [], inFlight: 0, refused: 0 });
          acknowledged();
        } catch (e) {
          if (!killed) throw e;
          failedRequests++;
        }
      } else {
        const target = known[Math.floor(r() * known.length)]!;
        const tally = tallies.get(target.token)!;
        tally.inFlight++;
        retrievalsSent++;
        let res;
        try {
          res = await api.get(first.url, `/api/v2/pushes/${target.token}`, { timeoutMs: 10_000 });
        } catch (e) {
          if (!killed) throw e;
          failedRequests++;
          continue; // no answer: stays in flight
        }
        tally.inFlight--;
        expect(res.status, res.text).toBe(200);
        if (res.body.payload !== null) {
          expect(res.body.payload).toBe(target.payload);
          tally.acked.push(res.body.views_remaining);
          viewsAcked++;
          acknowledged();
        } else {
          expect(res.body.expired).toBe(true);
          tally.refused++;
        }
      }
    }
  };

  await Promise.all([killer, ...Array.from({ length: CLIENTS }, (_, i) => client(i))]);
  expect(await first.exited).toBe('SIGKILL');

  const afterKill = await inspectDataFiles(dataDir, true);
  const rotatedAtKill = existsSync(join(dataDir, 'journal.rotated.jsonl'));

  // The restart (the killed process's lock is stale).
  const second = await spawnBuiltServer(env);
  children.push(second);
  let ackedViews = 0;
  let inFlightViews = 0;
  let expiredByAck = 0;
  const expiredTokens: string[] = [];
  try {
    for (const c of created) {
      const t = tallies.get(c.token)!;
      ackedViews += t.acked.length;
      inFlightViews += t.inFlight;
      // Never more deliveries than the limit; each acknowledged view counted once (distinct, decreasing).
      expect(t.acked.length).toBeLessThanOrEqual(c.views);
      expect(new Set(t.acked).size, `views_remaining repeated for ${c.token}: ${t.acked}`).toBe(t.acked.length);
      for (const left of t.acked) expect(left).toBeLessThan(c.views);
      if (t.refused > 0) expect(t.acked.length + t.inFlight).toBeGreaterThan(0);

      const res = await api.get(second.url, `/api/v2/pushes/${c.token}`, { token: ownerToken, timeoutMs: 10_000 });
      expect(res.status, `acknowledged push ${c.token} after restart: ${res.text}`).toBe(200);
      const counted = c.views - res.body.views_remaining;
      expect(counted, `views counted for ${c.token}`).toBeGreaterThanOrEqual(t.acked.length);
      expect(counted, `views counted for ${c.token}`).toBeLessThanOrEqual(Math.min(c.views, t.acked.length + t.inFlight));
      if (t.acked.length === c.views) expiredByAck++;
      if (counted === c.views) {
        expect(res.body.expired, `${c.token} has no views left`).toBe(true);
        expect(res.body.payload).toBeNull();
        expiredTokens.push(c.token);
      } else {
        expect(res.body.expired, `${c.token} has views left (${counted} of ${c.views} counted)`).toBe(false);
        expect(res.body.payload).toBe(c.payload);
      }
    }
    // A torn line left by the kill is dropped on open.
    const text = existsSync(join(dataDir, 'journal.jsonl')) ? readFileSync(join(dataDir, 'journal.jsonl'), 'utf8') : '';
    expect(text === '' || text.endsWith('\n')).toBe(true);
  } finally {
    second.child.kill('SIGTERM');
  }
  expect(await second.exited).toBe(0);

  // After the restarted server's close (a compaction), no expired push's sealed payload is left.
  const afterClose = await inspectDataFiles(dataDir, false);
  const everything = readdirSync(dataDir)
    .filter((n) => DATA_FILES.includes(n))
    .map((n) => readFileSync(join(dataDir, n), 'utf8'))
    .join('\n');
  for (const token of expiredTokens) {
    expect(afterClose.sealed.has(token), `expired ${token} still has a sealed payload in the data files`).toBe(false);
    for (const s of afterKill.sealed.get(token) ?? []) expect(everything.includes(s), `sealed payload of expired ${token} still on disk`).toBe(false);
  }
  expect(existsSync(join(dataDir, 'journal.rotated.jsonl')), 'rotated journal left after a clean close').toBe(false);

  const figures = {
    seed,
    killAtMs: killAt,
    createsSent,
    createsAcked: created.length,
    retrievalsSent,
    viewsAcked: ackedViews,
    viewsInFlight: inFlightViews,
    pushesExpiredByAckedViews: expiredByAck,
    pushesExpiredAfterRestart: expiredTokens.length,
    requestsCutOff: failedRequests,
    tornJournalLine: afterKill.torn,
    rotatedJournalAtKill: rotatedAtKill,
  };
  return figures;
}

describe('fault: SIGKILL during a burst of concurrent creates and retrievals', () => {
  // One test per seed, so that each run has its own time limit on a loaded machine.
  it.each(SEEDS)('seed %i: loses no acknowledged push or view, counts no view twice, leaves no expired payload and valid files', async (seed) => {
    // eslint-disable-next-line no-console
    console.log('kill-during-burst run:', JSON.stringify(await runOnce(seed), null, 1));
  }, 60_000);
});
