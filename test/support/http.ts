import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TestServer } from './server.js';

/** Small request helpers for the push API integration tests (real HTTP, no mocks). */

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the body is JSON, else undefined. */
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  /** A JSON value (sent with application/json), or a raw string / FormData sent as is. */
  json?: unknown;
  raw?: string | Buffer | FormData;
  contentType?: string;
  /** Abort after this many milliseconds (so a hanging server fails a test quickly). */
  timeoutMs?: number;
}

export async function request<T = any>(server: TestServer | string, method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const base = typeof server === 'string' ? server : server.url;
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | FormData | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] ??= 'application/json';
  } else if (options.raw !== undefined) {
    body = options.raw;
    if (options.contentType) headers['content-type'] = options.contentType;
  }
  const signal = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
  const res = await fetch(base + path, { method, headers, body: body as BodyInit | undefined, signal });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export const api = {
  get: <T = any>(s: TestServer | string, path: string, o?: RequestOptions) => request<T>(s, 'GET', path, o),
  post: <T = any>(s: TestServer | string, path: string, o?: RequestOptions) => request<T>(s, 'POST', path, o),
  delete: <T = any>(s: TestServer | string, path: string, o?: RequestOptions) => request<T>(s, 'DELETE', path, o),
};

/** POST /api/v2/pushes with `{push}`; throws unless 201, returns the record. */
export async function createPush(server: TestServer, push: Record<string, unknown>, token?: string): Promise<any> {
  const res = await api.post(server, '/api/v2/pushes', { json: { push }, token });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}

/** The fifteen base keys of a push record, in Password Pusher's order. */
export const BASE_KEYS = [
  'expire_after_views',
  'expired',
  'url_token',
  'deletable_by_viewer',
  'retrieval_step',
  'expired_on',
  'passphrase',
  'created_at',
  'updated_at',
  'expire_after_days',
  'days_remaining',
  'views_remaining',
  'deleted',
  'json_url',
  'html_url',
] as const;

/** An owner's record (create, lists): the base keys, note and name, then Secret Push's read receipt. */
export const OWNER_KEYS = [...BASE_KEYS, 'note', 'name', 'push_id', 'first_viewed_at', 'failed_passphrase_attempts', 'max_failed_passphrase_attempts'] as const;

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Every regular file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

/** Files under `dir` whose bytes contain `needle` (as UTF-8). */
export function filesContaining(dir: string, needle: string | Buffer): string[] {
  const n = typeof needle === 'string' ? Buffer.from(needle) : needle;
  return filesUnder(dir).filter((f) => readFileSync(f).includes(n));
}

/** Waits until `check` returns true (polling), or fails after `timeoutMs` (real time, even with a faked Date). */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A unique secret string, easy to grep for. */
export function secret(label = 'secret'): string {
  return `${label}-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
}
