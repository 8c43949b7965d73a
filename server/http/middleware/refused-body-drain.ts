import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.js';
import { requestHeader } from '../request-header.js';

/**
 * A request refused before its body was read (a slice with the wrong offset, an unknown upload,
 * a bad token) still has its body on the wire. Most clients send the whole body before they read
 * the answer, so closing the connection at once leaves them a broken pipe instead of the JSON
 * that says what went wrong. A body of at most `maxBytes` (a slice) is read and discarded first,
 * and the connection stays open; a larger or unbounded one is not read: the answer goes out with
 * `Connection: close`, as before. The server's request timeout bounds a slow body either way.
 */
export function drainRefusedBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const incoming = c.env?.incoming as IncomingMessage | undefined;
    if (!incoming || c.res.status < 400 || incoming.readableEnded) return;
    const length = requestHeader(c, 'content-length');
    const declared = length !== undefined && /^\d{1,16}$/.test(length) ? Number(length) : undefined;
    if (declared !== undefined && declared <= maxBytes && !incoming.destroyed && (await discarded(incoming, maxBytes))) return;
    c.res.headers.set('Connection', 'close');
  };
}

/** Reads the rest of `incoming` into nothing: true when it ended within `maxBytes`. */
function discarded(incoming: IncomingMessage, maxBytes: number): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = 0;
    const done = (ended: boolean) => {
      incoming.off('data', onData).off('end', onEnd).off('error', onFail).off('close', onClose);
      if (!ended) incoming.pause();
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) done(false);
    };
    const onEnd = () => done(true);
    const onFail = () => done(false);
    const onClose = () => done(incoming.readableEnded);
    incoming.on('data', onData).once('end', onEnd).once('error', onFail).once('close', onClose);
    incoming.resume();
  });
}
