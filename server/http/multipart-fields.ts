import busboy, { type BusboyHeaders } from '@fastify/busboy';
import type { Context } from 'hono';
import { ServiceError } from '../service-error.js';
import type { AppEnv } from './app-env.js';
import { bodyCutOff, bodyTooLarge } from './request-body.js';

/**
 * The text fields of a multipart/form-data body, in order, as PHP puts them in $_POST (file
 * parts are read and dropped). More than `maxBytes` of fields is refused with 413, a malformed
 * body with 400 naming the problem.
 */
export function readMultipartFields(c: Context<AppEnv>, maxBytes: number): Promise<[string, string][]> {
  const incoming = c.env.incoming;
  return new Promise((resolve, reject) => {
    const fields: [string, string][] = [];
    let bytes = 0;
    let failed = false;
    const fail = (e: ServiceError) => {
      if (failed) return;
      failed = true;
      incoming.unpipe();
      incoming.resume();
      reject(e);
    };
    let bb: ReturnType<typeof busboy>;
    try {
      bb = busboy({
        headers: incoming.headers as BusboyHeaders,
        limits: { fields: 1000, fieldSize: maxBytes + 1, parts: 1000 },
        defCharset: 'utf8',
      });
    } catch (e) {
      reject(new ServiceError('bad_request', `Malformed multipart body: ${(e as Error).message}`));
      return;
    }
    bb.on('field', (name, value, _nameTruncated, valueTruncated) => {
      bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (valueTruncated || bytes > maxBytes) fail(bodyTooLarge(maxBytes));
      else fields.push([name, value]);
    });
    bb.on('file', (_name, stream) => stream.resume());
    bb.on('error', (e: unknown) => fail(new ServiceError('bad_request', `Malformed multipart body: ${(e as Error).message}`)));
    bb.on('finish', () => {
      if (!failed) resolve(fields);
    });
    incoming.on('error', () => fail(bodyCutOff()));
    incoming.pipe(bb);
  });
}
