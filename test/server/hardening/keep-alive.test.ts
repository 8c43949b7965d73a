import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * A request whose body the server never reads (refused before reading: 401, 404) must not cost
 * the client its keep-alive connection. Found by the fuzz test (seed 12345, #214 then #216):
 * `POST /api/v2/pushes/expired.json` with a 600 kB body → 404, and the next request on that
 * connection failed with "other side closed". The `.json` suffix was stripped by rebuilding the
 * Request around the body stream, so the unread body could not be drained and the server closed
 * the connection 500 ms later, under the client's next request.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

/** One request on the given agent: status and whether the socket was reused. */
function send(agent: Agent, method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
    const req = request(server.url + path, { method, agent, headers: { 'content-type': 'application/json', 'content-length': String(body === undefined ? 0 : Buffer.byteLength(body)), ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('unread request bodies and keep-alive', () => {
  const big = JSON.stringify({ push: { payload: 'x'.repeat(600_000) } });
  const cases: [string, string, Record<string, string>, number][] = [
    ['POST', '/api/v2/pushes/expired.json', {}, 404],
    ['POST', '/api/v2/pushes.json', { authorization: 'Bearer not-a-token' }, 401],
    ['DELETE', '/api/v2/pushes/nosuchtoken.json', {}, 0],
    ['POST', '/nope', {}, 404],
  ];
  for (const [method, path, headers, status] of cases) {
    it(`${method} ${path} with an unread 600 kB body, then more requests on the same connection`, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const first = await send(agent, method, path, big, headers);
        expect(first.status >= 400 && first.status < 500 && (status === 0 || first.status === status)).toBe(true);
        // Past the 500 ms after which an undrainable body gets its connection closed.
        await new Promise((r) => setTimeout(r, 700));
        for (let i = 0; i < 3; i++) {
          const next = await send(agent, 'GET', '/api/v2/version');
          expect(next.status).toBe(200);
          expect(next.reused).toBe(true);
        }
      } finally {
        agent.destroy();
      }
    });
  }
});
