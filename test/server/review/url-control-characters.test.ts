import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../server/logger.js';
import { api, secret } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';
import { storedContaining } from '../../support/stored-data.js';
import { Browser } from '../pages/browser.js';

/**
 * Finding 4: a URL push holding a control character was stored, then its redirect failed with
 * a 500 after the view was counted, and the error message put the secret URL (and a forged
 * line) into the log. Such payloads are refused at creation; log lines cannot be split.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const controls = ['\n', '\r\n', '\r', '\u0000', '\t', '\u007f', '\u0085'];

describe('URL pushes with control characters', () => {
  it.each(controls.map((c) => [JSON.stringify(c), c]))('%s inside the URL: 422 naming the problem, nothing stored, nothing logged', async (_label, control) => {
    const marker = secret('url');
    const payload = `https://example.com/${marker}${control}X-Forged: ${marker}-forged`;
    const before = await server.server.store.countPushes();
    const logsBefore = server.logs.length;

    const rest = await api.post(server, '/api/v2/pushes', { json: { push: { kind: 'url', payload } } });
    expect(rest.status).toBe(422);
    expect(rest.body.payload[0]).toMatch(/control characters/);

    const trpc = await api.post(server, '/trpc/pushes.create', { json: { kind: 'url', payload } });
    expect(trpc.status).toBe(422);
    expect(trpc.body.error.message).toMatch(/control characters/);

    const b = new Browser(server);
    const page = await b.submit('/', '/', { 'push[kind]': 'url', 'push[payload]': payload });
    expect(page.status).toBe(422);
    expect(page.text).toMatch(/control characters/);

    expect(await server.server.store.countPushes()).toEqual(before);
    expect(await storedContaining(server, marker)).toEqual([]);
    const logged = server.logs.slice(logsBefore).join('\n');
    expect(logged).not.toContain(marker);
    expect(logged).not.toMatch(/X-Forged/);
  });

  it('a URL with surrounding whitespace is still accepted (trimmed), and redirects', async () => {
    const res = await api.post(server, '/api/v2/pushes', { json: { push: { kind: 'url', payload: '  https://example.com/ok\n' } } });
    expect(res.status).toBe(201);
    const view = await fetch(`${server.url}/p/${res.body.url_token}`, { redirect: 'manual' });
    expect(view.status).toBe(303);
    expect(view.headers.get('location')).toBe('https://example.com/ok');
  });

  it('whatever reaches a log line cannot forge another line (JSON lines, and the pretty format escapes)', () => {
    const forged = 'user said: hi\n2026-01-01T00:00:00.000Z ERROR forged';
    const json: string[] = [];
    const logger = createLogger('debug', (l) => json.push(l));
    logger.info(forged);
    logger.error('failed', new TypeError('bad header "x\r\nSet-Cookie: a=1"'));
    expect(json).toHaveLength(2);
    for (const line of json) expect(line).not.toMatch(/[\r\n]/);
    expect(JSON.parse(json[0]!).msg).toBe(forged);
    const pretty: string[] = [];
    const readable = createLogger('debug', { format: 'pretty', write: (l) => pretty.push(l) });
    readable.info(forged);
    readable.error('failed', new TypeError('bad header "x\r\nSet-Cookie: a=1"'));
    expect(pretty.some((l) => l.includes('hi\\u000a2026-01-01T00:00:00.000Z ERROR forged'))).toBe(true);
    expect(pretty.some((l) => /^\s*(2026-01-01T00:00:00.000Z ERROR forged|Set-Cookie)/.test(l))).toBe(false);
  });
});
