import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** A plain HTTP server on an ephemeral port of 127.0.0.1, for what the Secret Push server is not. */
export async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/** Passes a request on to `target` and its answer back; a request whose client went away (a page closed mid-upload) is cut off upstream too. */
function forward(req: IncomingMessage, res: ServerResponse, target: string) {
  const upstream = new URL(req.url ?? '/', target);
  const onward = request(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  onward.on('error', () => res.destroy());
  req.on('close', () => req.complete || onward.destroy());
  req.pipe(onward);
}

/** A web page to select text on and push the address of. */
export function pageServer(html: string) {
  return listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
}

/**
 * A reverse proxy in front of a real server that can be "down" (502 with an HTML body, as nginx
 * answers when the application behind it is not running) and come back.
 */
export async function flakyProxy(target: string) {
  const state = { down: true };
  const http = await listen((req, res) => {
    if (state.down) {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    }
    forward(req, res, target);
  });
  return { ...http, state };
}

/**
 * An HTTPS server whose certificate no browser trusts (self-signed, committed for tests only in
 * fixtures/; valid for 100 years so the test never breaks on a date).
 */
export async function untrustedHttps(): Promise<{ url: string; close(): Promise<void> }> {
  const fixtures = join(import.meta.dirname, 'fixtures');
  const server = createHttpsServer(
    { key: readFileSync(join(fixtures, 'self-signed-key.pem')), cert: readFileSync(join(fixtures, 'self-signed-cert.pem')) },
    (_req, res) => res.end('{}'),
  );
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `https://127.0.0.1:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

/**
 * A reverse proxy in front of a real server that holds file uploads (a multipart POST to REST
 * v2's create, or a slice of a sliced upload) until `release()`: `uploadStarted` resolves when
 * the first has arrived.
 */
export async function heldUploadProxy(target: string) {
  let started!: () => void;
  const uploadStarted = new Promise<void>((resolve) => (started = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const http = await listen(async (req, res) => {
    const slice = req.method === 'PUT' && req.url?.startsWith('/api/v2/uploads/');
    if (slice || (req.method === 'POST' && req.url === '/api/v2/pushes' && /multipart/.test(req.headers['content-type'] ?? ''))) {
      started();
      await released;
    }
    forward(req, res, target);
  });
  return { ...http, uploadStarted, release };
}

/**
 * A reverse proxy in front of a real server that answers 404 under `missing` (an older server
 * without that API), and counts what it forwarded there and elsewhere.
 */
export async function proxyWithout(target: string, missing: string) {
  const seen: string[] = [];
  const http = await listen((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith(missing)) {
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not-found"}');
      return;
    }
    forward(req, res, target);
  });
  return { ...http, seen };
}
