import busboy, { type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { Context } from 'hono';
import type { Actor, PushService } from '../../pushes/push-service.js';
import type { FileUpload } from '../../pushes/file-upload.js';
import { ServiceError } from '../../service-error.js';
import type { AppEnv } from '../app-env.js';
import { paramsFromEntries, setParam, splitKey, type Params } from './bracket-params.js';

export interface CreateRequest {
  params: Params;
  upload?: FileUpload;
  /** Whether the request named a files field at all (even empty): needs auth when files do. */
  fileFieldPresent: boolean;
}

function mediaType(c: Context): string {
  return (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

async function readJson(c: Context): Promise<Params> {
  const text = await c.req.text();
  if (text.trim() === '') return Object.create(null);
  let value: unknown;
  try {
    value = JSON.parse(text, (key, v) => (key === '__proto__' ? undefined : v));
  } catch (e) {
    throw new ServiceError('bad_request', `Malformed JSON body: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ServiceError('bad_request', 'The JSON body must be an object such as {"push": {...}}');
  }
  return value as Params;
}

/**
 * Reads a create request in any of the encodings clients use: JSON, form-encoded or multipart
 * with bracket keys. Multipart files stream straight into the encrypted file vault.
 * `bodyKey` names the object holding the push: `push` (v2, pages) or a legacy v1 key
 * (`password`, `file_push`, `url`).
 */
export async function readCreateRequest(
  c: Context<AppEnv>,
  pushes: PushService,
  actor: Actor,
  maxFileBytes: number,
  bodyKey = 'push',
): Promise<CreateRequest> {
  const type = mediaType(c);
  if (type === 'multipart/form-data') return readMultipart(c, pushes, actor, maxFileBytes);
  let params: Params;
  if (type === 'application/x-www-form-urlencoded') {
    params = paramsFromEntries(new URLSearchParams(await c.req.text()).entries());
  } else if (type === 'application/json' || type === '' || type.endsWith('+json')) {
    params = await readJson(c);
  } else {
    throw new ServiceError('bad_request', `Unsupported Content-Type "${type}": send application/json, form-encoded or multipart/form-data`);
  }
  const push = params[bodyKey];
  const fileFieldPresent = isParams(push) && 'files' in push;
  return { params, fileFieldPresent };
}

function isParams(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The push object under `bodyKey`, or Password Pusher's 400 when it is missing or empty (as
 * Rails' `params.require(key)`). Files alone (multipart) count as a present object. Discards
 * an upload it refuses.
 */
export async function requirePushParams(request: CreateRequest, bodyKey: string): Promise<Params> {
  const value = request.params[bodyKey];
  if (!isParams(value) || (Object.keys(value).length === 0 && !request.upload)) {
    await request.upload?.discard();
    throw new ServiceError('bad_request', `param is missing or the value is empty or invalid: ${bodyKey}`);
  }
  return value;
}

function isFileField(name: string) {
  return /\[files\]/.test(name) || name === 'files' || name === 'file';
}

function readMultipart(c: Context<AppEnv>, pushes: PushService, actor: Actor, maxFileBytes: number): Promise<CreateRequest> {
  const incoming = c.env.incoming;
  return new Promise<CreateRequest>((resolve, reject) => {
    const params = Object.create(null) as Params;
    let upload: FileUpload | undefined;
    let fileFieldPresent = false;
    let failure: unknown;
    const pending: Promise<void>[] = [];
    const fail = (e: unknown) => {
      failure ??= e;
    };
    let bb: BusboyInstance;
    try {
      bb = busboy({
        headers: incoming.headers as BusboyHeaders,
        limits: { fileSize: maxFileBytes, fields: 200, fieldSize: 16 * 1024 * 1024, parts: 300 },
        defCharset: 'utf8',
      });
    } catch (e) {
      reject(new ServiceError('bad_request', `Malformed multipart body: ${(e as Error).message}`));
      return;
    }
    bb.on('field', (name, value) => setParam(params, name, value));
    bb.on('file', (name, stream, filename, _enc, mimeType) => {
      if (!isFileField(name) || failure) {
        stream.resume();
        return;
      }
      fileFieldPresent = true;
      // `push[files][]` with no other field still names the `push` object (Rails' params.require).
      const top = splitKey(name)?.[0];
      if (top !== undefined && top !== name && params[top] === undefined) params[top] = Object.create(null) as Params;
      if (filename === undefined || filename === '') {
        stream.resume(); // an empty file input
        return;
      }
      try {
        upload ??= pushes.openFileUpload(actor);
      } catch (e) {
        fail(e);
        stream.resume();
        return;
      }
      // The failure is recorded by fail(); the vault sees the error through its own listener.
      // This one keeps an error raised before the vault listens from becoming uncaught.
      stream.on('error', () => undefined);
      stream.on('limit', () => {
        fail(new ServiceError('payload_too_large', `A file is larger than the limit of ${maxFileBytes} bytes.`));
        stream.destroy(new Error('file too large'));
      });
      pending.push(upload.add(filename, mimeType, stream).catch(fail));
    });
    bb.on('error', (e: unknown) => fail(new ServiceError('bad_request', `Malformed multipart body: ${(e as Error).message}`)));
    bb.on('finish', async () => {
      await Promise.all(pending);
      if (failure) {
        await upload?.discard();
        reject(failure);
      } else resolve({ params, upload, fileFieldPresent });
    });
    incoming.on('error', (e) => {
      fail(e);
      bb.destroy(e);
    });
    incoming.pipe(bb);
  });
}
