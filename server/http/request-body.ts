import { isUtf8 } from 'node:buffer';
import type { Context } from 'hono';
import { ServiceError } from '../service-error.js';
import type { AppEnv } from './app-env.js';
import { requestHeader } from './request-header.js';

/**
 * Reads a whole (non-multipart) request body as text, refusing more than `maxBytes` with 413.
 * Bytes that are not UTF-8 are refused with 400 (`encoding: 'utf8'`), not turned into U+FFFD:
 * a secret changed silently on the way in is lost data. The wiki API passes `'lenient'`, as
 * it decodes the way MediaWiki does itself.
 * It reads the Node request stream directly: going through `c.req.text()` makes
 * @hono/node-server build a full Fetch Request per request, which costs most of the throughput
 * of the create endpoint.
 */
export async function readBodyText(c: Context<AppEnv>, maxBytes: number, encoding: 'utf8' | 'lenient' = 'utf8'): Promise<string> {
  const tooLarge = () => {
    c.header('Connection', 'close');
    return bodyTooLarge(maxBytes);
  };
  const declared = Number(requestHeader(c, 'content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const incoming = c.env.incoming;
  if (incoming.readableEnded) return '';
  if (incoming.destroyed) throw bodyCutOff();
  // Events rather than `for await`: the async iterator costs a generator and a promise per chunk,
  // and most bodies here are one small chunk.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error: ServiceError | undefined) => {
      incoming.off('data', onData).off('end', onEnd).off('error', onCutOff).off('close', onCutOff);
      if (error) return reject(error);
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      if (encoding === 'utf8' && !isUtf8(body)) return reject(notUtf8());
      resolve(body.toString('utf8'));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      // The rest is let through unread until the answer (with Connection: close) has gone.
      settle(tooLarge());
      incoming.resume();
    };
    const onEnd = () => settle(undefined);
    // An error, or the connection closing before the end: the client went away mid-body.
    const onCutOff = () => settle(bodyCutOff());
    incoming.on('data', onData).on('end', onEnd).on('error', onCutOff).on('close', onCutOff);
  });
}

/** A body over the cap: 413 with a message naming the limit (REST, pages and tRPC alike). */
export function bodyTooLarge(maxBytes: number): ServiceError {
  return new ServiceError('payload_too_large', `Request body too large: the limit is ${maxBytes} bytes.`);
}

/** A body whose bytes (or %-escapes) are not UTF-8: 400 naming the problem. */
export function notUtf8(): ServiceError {
  return new ServiceError('bad_request', 'The request body is not valid UTF-8: send text encoded as UTF-8.');
}

/**
 * The client went away (or the request timeout cut it off) before its body was complete: the
 * client's failure, not the server's, so a 400 without a logged stack trace, not a 500.
 */
export function bodyCutOff(): ServiceError {
  return new ServiceError('bad_request', 'The request body was cut off before it was complete.');
}
