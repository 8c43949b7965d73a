import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.js';
import { slowClientLimits } from '../../../server/server.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * Slow clients cannot starve others: many slowloris connections (a request line and headers
 * trickled a line at a time, never finished), silent connections, and slow bodies (complete
 * headers, then a byte at a time) against a server with a 1 s headers timeout and a 2 s request
 * timeout. Meanwhile ordinary requests keep being answered quickly, and the server closes every
 * slow connection soon after its timeout. Loopback only; every loop is bounded.
 */

const HEADERS_TIMEOUT_S = 1;
const REQUEST_TIMEOUT_S = 2;
const SLOWLORIS = 150;
const SILENT = 50;
const SLOW_BODIES = 100;
const TRICKLE_MS = 200;
/** No attacker outlives this, whatever the server does (the test then fails on the close times). */
const ATTACK_CAP_MS = 8_000;

interface Attacker {
  kind: 'slowloris' | 'silent' | 'slow-body';
  openedAt: number;
  /** When the server closed the connection (ms after opening), or null if it never did. */
  closedAfter: number | null;
  /** What the server said before closing (e.g. a 408), first line only. */
  answer: string;
}

/** The slow file upload is a signed-in client's (anonymous files are refused before the body). */
let AUTH = '';
/** Each body reader: JSON (v2, v1), multipart (v2, the create page), a page form, tRPC. */
const slowBodyStarts = () => [
  ['/api/v2/pushes', 'application/json', '{"push":{"payload":"'],
  ['/p.json', 'application/json', '{"password":{"payload":"'],
  ['/api/v2/pushes', 'multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-data; name="push[payload]"\r\n\r\n'],
  ['/api/v2/pushes', 'multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-data; name="push[files][]"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n'],
  ['/', 'multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-data; name="payload"\r\n\r\n'],
  ['/users/sign_in', 'application/x-www-form-urlencoded', 'email=a%40b.c&password='],
  ['/api/v2/pushes', 'application/x-www-form-urlencoded', 'push%5Bpayload%5D='],
  ['/trpc/pushes.create', 'application/json', '{"payload":"'],
].map(([path, type, start]) => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nContent-Length: 4000\r\n${AUTH}\r\n${start}`);

function attack(port: number, kind: Attacker['kind'], variant = 0): { done: Promise<Attacker>; stop(): void } {
  const a: Attacker = { kind, openedAt: performance.now(), closedAfter: null, answer: '' };
  const socket: Socket = connect({ host: '127.0.0.1', port });
  let timer: NodeJS.Timeout | undefined;
  let stoppedByUs = false;
  const done = new Promise<Attacker>((resolve) => {
    socket.on('error', () => {}); // EPIPE/ECONNRESET once the server hangs up: expected
    socket.on('data', (d) => {
      if (!a.answer) a.answer = d.toString('latin1').split('\r\n')[0]!;
    });
    socket.on('close', () => {
      clearInterval(timer);
      if (!stoppedByUs) a.closedAfter = performance.now() - a.openedAt;
      resolve(a);
    });
  });
  socket.on('connect', () => {
    let n = 0;
    if (kind === 'slowloris') socket.write('GET /api/v2/version HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    if (kind === 'slow-body') socket.write(slowBodyStarts()[variant % slowBodyStarts().length]!);
    if (kind === 'silent') return;
    timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      n++;
      socket.write(kind === 'slowloris' ? `X-Slow-${n}: ${'a'.repeat(10)}\r\n` : 'a');
    }, TRICKLE_MS);
  });
  const cap = setTimeout(() => stop(), ATTACK_CAP_MS);
  function stop() {
    clearTimeout(cap);
    clearInterval(timer);
    if (!socket.destroyed) {
      stoppedByUs = true;
      socket.destroy();
    }
  }
  done.then(() => clearTimeout(cap));
  return { done, stop };
}

function quantile(sorted: number[], q: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

describe('slow clients', () => {
  let server: TestServer;
  let port: number;
  beforeAll(async () => {
    server = await startServer({ HEADERS_TIMEOUT_SECONDS: String(HEADERS_TIMEOUT_S), REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_S) });
    port = Number(new URL(server.url).port);
    AUTH = `Authorization: Bearer ${(await createUserWithToken(server, 'slow@example.com')).token}\r\n`;
  });
  afterAll(() => server.stop());

  it(`${SLOWLORIS} slowloris, ${SILENT} silent and ${SLOW_BODIES} slow-body connections are cut off; ordinary requests keep being answered quickly`, async () => {
    const attackers = [
      ...Array.from({ length: SLOWLORIS }, () => attack(port, 'slowloris')),
      ...Array.from({ length: SILENT }, () => attack(port, 'silent')),
      ...Array.from({ length: SLOW_BODIES }, (_, i) => attack(port, 'slow-body', i)),
    ];
    try {
      // Ordinary clients, for as long as the slow ones should be connected and a little longer.
      // At least 50 of them, however slowly a loaded machine answers, and for as long as the
      // slow connections are held and a little longer.
      const latencies: number[] = [];
      const statuses: number[] = [];
      const answeredAt: number[] = [];
      const started = performance.now();
      const until = started + (REQUEST_TIMEOUT_S + 1.5) * 1000;
      for (let i = 0; i < 2_000 && (i < 50 || performance.now() < until); i++) {
        const t = performance.now();
        const res =
          i % 2 === 0
            ? await fetch(`${server.url}/api/v2/version`, { signal: AbortSignal.timeout(5_000) })
            : await fetch(`${server.url}/api/v2/pushes`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ push: { payload: `ordinary ${i}` } }),
                signal: AbortSignal.timeout(5_000),
              });
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        answeredAt.push(performance.now() - started);
        statuses.push(res.status);
        await new Promise((r) => setTimeout(r, 10));
      }
      const results = await Promise.all(attackers.map((a) => a.done));
      latencies.sort((x, y) => x - y);
      const closeTimes = (kind: Attacker['kind']) =>
        results
          .filter((r) => r.kind === kind)
          .map((r) => r.closedAfter ?? Infinity)
          .sort((x, y) => x - y);
      const figures = {
        ordinaryRequests: latencies.length,
        ordinaryP50ms: +quantile(latencies, 0.5).toFixed(1),
        ordinaryP99ms: +quantile(latencies, 0.99).toFixed(1),
        ordinaryMaxms: +latencies.at(-1)!.toFixed(1),
        slowlorisClosedAfterMs: { min: Math.round(closeTimes('slowloris')[0]!), max: Math.round(closeTimes('slowloris').at(-1)!) },
        silentClosedAfterMs: { min: Math.round(closeTimes('silent')[0]!), max: Math.round(closeTimes('silent').at(-1)!) },
        slowBodyClosedAfterMs: { min: Math.round(closeTimes('slow-body')[0]!), max: Math.round(closeTimes('slow-body').at(-1)!) },
        answers: [...new Set(results.map((r) => `${r.kind}: ${r.answer || '(none)'}`))],
      };
      console.log('slow-client figures', JSON.stringify(figures));

      expect(new Set(statuses)).toEqual(new Set([200, 201]));
      // Ordinary requests kept being answered: every one succeeded, and they went through while
      // the slow connections were held, not only once the server had cut them off. How fast is
      // reported above, not asserted (npm run bench measures speed).
      expect(latencies.length).toBeGreaterThanOrEqual(50);
      const slowBodiesCut = Math.min(...results.filter((r) => r.kind === 'slow-body').map((r) => r.closedAfter ?? Infinity));
      expect(answeredAt.filter((at) => at < slowBodiesCut).length).toBeGreaterThanOrEqual(5);
      // Every slow connection was closed by the server: not before its timeout, and soon after
      // it (the check runs every quarter of the headers timeout, 250 ms at least). The close is
      // seen by this test process, which holds the 300 sockets: under a loaded CI (load ~30) that
      // side alone came 2.4 s late, so the slack is 4 s — still well inside the 8 s after which
      // the test would close a connection the server never cut (counted as not closed above).
      const slack = 4_000;
      for (const kind of ['slowloris', 'silent'] as const) {
        const times = closeTimes(kind);
        expect(times[0]!).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_S * 1000 - 50);
        expect(times.at(-1)!).toBeLessThan(HEADERS_TIMEOUT_S * 1000 + slack);
      }
      const bodies = closeTimes('slow-body');
      expect(bodies[0]!).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_S * 1000 - 50);
      expect(bodies.at(-1)!).toBeLessThan(REQUEST_TIMEOUT_S * 1000 + slack);
      // The server is still fine afterwards, and nothing failed inside it.
      expect((await fetch(`${server.url}/api/v2/version`)).status).toBe(200);
      expect(server.logs.filter((l) => /error/i.test(l) && !/"status":4\d\d/.test(l))).toEqual([]);
    } finally {
      for (const a of attackers) a.stop();
    }
  }, 30_000);
});

describe('timeout settings', () => {
  it('HEADERS_TIMEOUT_SECONDS and REQUEST_TIMEOUT_SECONDS (or REQUEST_TIMEOUT_S) set the server options (defaults 15 s and 30 s)', () => {
    expect(slowClientLimits(loadConfig({}))).toMatchObject({ headersTimeout: 15_000, requestTimeout: 30_000, connectionsCheckingInterval: 3_750 });
    expect(slowClientLimits(loadConfig({ REQUEST_TIMEOUT_S: '45' }))).toMatchObject({ requestTimeout: 45_000 });
    expect(slowClientLimits(loadConfig({ HEADERS_TIMEOUT_SECONDS: '1', REQUEST_TIMEOUT_SECONDS: '2' }))).toMatchObject({
      headersTimeout: 1_000,
      requestTimeout: 2_000,
      connectionsCheckingInterval: 250,
    });
  });

  it('a headers timeout longer than the request timeout stops the start', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_SECONDS: '30', REQUEST_TIMEOUT_SECONDS: '10' })).toThrow(ConfigError);
    expect(() => loadConfig({ HEADERS_TIMEOUT_SECONDS: '0' })).toThrow(/HEADERS_TIMEOUT_SECONDS/);
  });
});
