import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { Context } from 'hono';
import type { Logger } from '../logger.js';
import type { AppEnv } from './app-env.js';

/**
 * Sends a stream as the answer, straight into Node's response. Through Hono's Fetch body, a
 * stream that fails half way (a damaged stored file, a storage error) was reported by the Node
 * adapter with console.error — plain text on stderr, outside the JSON log — and the adapter
 * appended "Error: …" to the bytes already sent, i.e. to the file. Here the failure is logged
 * once, properly, and the connection is cut, so the client sees an incomplete download and
 * never a file with an error message inside it.
 */
export function streamDownload(c: Context<AppEnv>, stream: Readable, headers: Record<string, string>, logger: Logger, status: 200 | 206 = 200): Response {
  const outgoing = c.env?.outgoing as ServerResponse | undefined;
  if (!outgoing) return c.body(Readable.toWeb(stream) as ReadableStream, status, headers);
  outgoing.writeHead(status, headers);
  pipeline(stream, outgoing).catch((e: NodeJS.ErrnoException) => {
    // The client hanging up is not the server's failure.
    if (e.code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.error('A download failed after it had started; the connection was cut', e);
    outgoing.destroy();
  });
  return RESPONSE_ALREADY_SENT;
}
