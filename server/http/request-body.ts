import type { Context } from 'hono';
import { ServiceError } from '../service-error.js';
import type { AppEnv } from './app-env.js';

/**
 * Reads a whole (non-multipart) request body as text, refusing more than `maxBytes` with 413.
 * It reads the Node request stream directly: going through `c.req.text()` makes
 * @hono/node-server build a full Fetch Request per request, which costs most of the throughput
 * of the create endpoint.
 */
export async function readBodyText(c: Context<AppEnv>, maxBytes: number): Promise<string> {
  const tooLarge = () => {
    c.header('Connection', 'close');
    return bodyTooLarge(maxBytes);
  };
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const incoming = c.env.incoming;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of incoming as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (e) {
    throw e instanceof ServiceError ? e : bodyCutOff();
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** A body over the cap: 413 with a message naming the limit (REST, pages and tRPC alike). */
export function bodyTooLarge(maxBytes: number): ServiceError {
  return new ServiceError('payload_too_large', `Request body too large: the limit is ${maxBytes} bytes.`);
}

/**
 * The client went away (or the request timeout cut it off) before its body was complete: the
 * client's failure, not the server's, so a 400 without a logged stack trace, not a 500.
 */
export function bodyCutOff(): ServiceError {
  return new ServiceError('bad_request', 'The request body was cut off before it was complete.');
}
