import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, waitFor } from '../../support/http.js';
import { storeEnv } from '../../support/server.js';
import { spawnBuiltServer, type SpawnedServer } from '../../support/spawn-server.js';

/**
 * SIGTERM to a real server process (server/main.ts as `npm run build` compiles it: the signal handling is main.ts's, not tsx's; listening-line.test.ts keeps `npm start`'s own path), on both stores: a request in
 * flight still completes, new connections are refused, the store is flushed (what was answered
 * is there after a restart), and the process exits 0. A request that outlasts
 * SHUTDOWN_TIMEOUT_SECONDS is cut off, and the exit is still clean.
 */

const dirs: string[] = [];
const running: SpawnedServer[] = [];
afterAll(() => {
  for (const s of running) s.child.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function start(extra: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-shutdown-'));
  dirs.push(dataDir);
  const env = { DATA_DIR: dataDir, MASTER_KEY: 'ab'.repeat(32), ...(await storeEnv(dataDir, { MASTER_KEY: 'ab'.repeat(32) })), ...extra };
  const server = await spawnBuiltServer(env);
  running.push(server);
  return { server, env };
}

/** A POST whose body is sent in two parts: the first now, the rest when asked. */
function slowCreate(url: string, payload: string) {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ push: { payload, expire_after_views: 2 } });
  const socket: Socket = connect(Number(port), hostname);
  let answer = '';
  socket.on('data', (d) => (answer += d));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  const headersSent = new Promise<void>((resolve) =>
    socket.on('connect', () => {
      socket.write(`POST /api/v2/pushes HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
      socket.write(body.slice(0, 10), () => resolve());
    }),
  );
  return {
    headersSent,
    finish: () => socket.write(body.slice(10)),
    /** The raw HTTP answer, once the server has closed the connection. */
    answer: closed.then(() => answer),
  };
}

/** Resolves once a new TCP connection to the server is refused (it stopped listening). */
async function refusesConnections(url: string) {
  const { hostname, port } = new URL(url);
  for (let i = 0; i < 100; i++) {
    const refused = await new Promise<boolean>((resolve) => {
      const s = connect(Number(port), hostname);
      s.on('connect', () => (s.destroy(), resolve(false)));
      s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
    });
    if (refused) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

describe('graceful shutdown on SIGTERM', () => {
  it('finishes the request in flight, refuses new connections, flushes the store and exits 0', async () => {
    const { server, env } = await start({ SHUTDOWN_TIMEOUT_SECONDS: '20' });
    const before = await api.post(server.url, '/api/v2/pushes', { json: { push: { payload: 'made before the signal', expire_after_views: 2 } } });
    expect(before.status).toBe(201);

    const slow = slowCreate(server.url, 'sent while shutting down');
    await slow.headersSent;
    const started = performance.now();
    server.child.kill('SIGTERM');
    expect(await refusesConnections(server.url)).toBe(true);
    slow.finish();
    const answer = await slow.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    const token = /"url_token":"([^"]+)"/.exec(answer)![1]!;
    expect(await server.exited).toBe(0);
    const tookMs = performance.now() - started;
    console.log('graceful shutdown figures', { tookMs: Math.round(tookMs) });
    const log = server.output();
    expect(log).toMatch(/"msg":"SIGTERM received: not ready, finishing requests in flight \(up to 20 s\)"/);
    expect(log).toMatch(/"msg":"shutdown complete: store flushed and closed"/);

    // Everything answered is there after a restart on the same data.
    const again = await spawnBuiltServer(env);
    running.push(again);
    for (const [t, payload] of [
      [before.body.url_token, 'made before the signal'],
      [token, 'sent while shutting down'],
    ]) {
      const res = await api.get(again.url, `/api/v2/pushes/${t}`);
      expect(res.status).toBe(200);
      expect(res.body.payload).toBe(payload);
    }
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  it('cuts off a request that outlasts SHUTDOWN_TIMEOUT_SECONDS, says so, and still exits 0', async () => {
    const { server } = await start({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
    const stuck = slowCreate(server.url, 'never finished');
    await stuck.headersSent;
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
    expect(await stuck.answer).toBe('');
    expect(server.output()).toMatch(/"msg":"shutdown: 1 connection\(s\) still busy after 1000 ms were cut off"/);
  });

  it('answers a request sent on a kept-alive connection after the listener closed, with Connection: close', async () => {
    // What a proxy does: it keeps connections open and sends its next request on one of them at
    // any moment, unaware of the signal. Closing such a connection would lose that request.
    const { server } = await start({ SHUTDOWN_TIMEOUT_SECONDS: '20' });
    const { hostname, port } = new URL(server.url);
    const socket: Socket = connect(Number(port), hostname);
    socket.on('error', () => {});
    let received = '';
    socket.on('data', (d) => (received += d));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`);
    await waitFor(() => received.includes('{"status":"ok"}'), 5000, 'the first answer');
    expect(received).toMatch(/\r\nconnection: keep-alive\r\n/i);

    server.child.kill('SIGTERM');
    expect(await refusesConnections(server.url)).toBe(true);
    received = '';
    const body = JSON.stringify({ push: { payload: 'sent on a kept-alive connection while draining', expire_after_views: 2 } });
    socket.write(`POST /api/v2/pushes HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 201 /);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    expect(await server.exited).toBe(0);
  });

  it('a connection that never sends a request does not hold the shutdown until the timeout', async () => {
    // A browser's preconnect: open, silent. The timeout (an hour) outlasts this test's 30 s.
    const { server } = await start({ SHUTDOWN_TIMEOUT_SECONDS: '3600' });
    const { hostname, port } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {});
    await new Promise((resolve) => socket.on('connect', resolve));
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).not.toMatch(/still busy/);
  });

  it('a second signal ends the process at once', async () => {
    const { server } = await start({ SHUTDOWN_TIMEOUT_SECONDS: '60' });
    const stuck = slowCreate(server.url, 'never finished');
    await stuck.headersSent;
    server.child.kill('SIGTERM');
    expect(await refusesConnections(server.url)).toBe(true);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(1);
    expect(server.output()).toMatch(/SIGINT received again/);
  });
});
