import { initTRPC, TRPCError } from '@trpc/server';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createPushApi, trpcUrl } from '../../extension/lib/api-client';
import { describeError } from '../../extension/lib/errors';
import { limits, record, versionDocument } from './fakes';
import { TRPC_MAX_BATCH_SIZE } from '../../shared/trpc-limits';

/**
 * A stand-in server with the procedures the extension calls, answering through tRPC's real
 * fetch adapter: the client's URLs, batching, headers and error data are the real thing.
 */
function stubServer() {
  const seen: Array<{ url: string; auth: string | null }> = [];
  const t = initTRPC.context<{ auth: string | null }>().create({
    errorFormatter: ({ shape, error }) => ({
      ...shape,
      data: { ...shape.data, fieldErrors: (error.cause as { fieldErrors?: unknown } | undefined)?.fieldErrors },
    }),
  });
  const authed = t.procedure.use(({ ctx, next }) => {
    if (ctx.auth !== 'Bearer good-token') throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Invalid API token.' });
    return next();
  });
  const router = t.router({
    version: t.procedure.query(() => versionDocument()),
    limits: t.procedure.query(() => limits),
    pushes: t.router({
      create: t.procedure.input(z.object({ payload: z.string(), kind: z.string(), expire_after_days: z.number().optional() }).loose()).mutation(({ input }) => {
        if ((input.expire_after_days ?? 1) > 90) {
          throw new TRPCError({
            code: 'UNPROCESSABLE_CONTENT',
            message: 'Validation failed',
            cause: Object.assign(new Error('Validation failed'), { fieldErrors: { expire_after_days: ['must be between 1 and 90'] } }),
          });
        }
        return record({ name: `${input.kind}:${input.payload}` });
      }),
      active: authed.input(z.object({ page: z.number() })).query(({ input }) => [record({ name: `page ${input.page}` })]),
      expired: authed.input(z.object({ page: z.number() })).query(() => []),
      audit: authed.input(z.object({ url_token: z.string(), page: z.number() })).query(() => ({
        logs: [{ ip: '1.2.3.4', user_agent: 'ua', referrer: '', kind: 'creation' as const, created_at: 'c', updated_at: 'u' }],
      })),
      expire: t.procedure.input(z.object({ url_token: z.string() })).mutation(({ input }) => record({ url_token: input.url_token, expired: true })),
    }),
  });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    seen.push({ url: req.url, auth: req.headers.get('authorization') });
    return fetchRequestHandler({ endpoint: '/trpc', req, router, createContext: () => ({ auth: req.headers.get('authorization') }) });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, seen };
}

const SERVER = 'https://push.example.org';

describe('createPushApi', () => {
  it('talks tRPC at <server>/trpc', () => {
    expect(trpcUrl('https://push.example.org/')).toBe('https://push.example.org/trpc');
  });

  it('reads the version and limits, and creates pushes', async () => {
    const server = stubServer();
    const api = createPushApi({ serverUrl: SERVER, fetch: server.fetch });
    expect((await api.version()).api_version).toBe('2.1');
    expect((await api.limits()).days.max).toBe(90);
    expect((await api.create({ kind: 'qr', payload: 'https://x.example' })).name).toBe('qr:https://x.example');
    expect(server.seen.every((s) => s.url.startsWith(`${SERVER}/trpc/`))).toBe(true);
    expect(server.seen.every((s) => s.auth === null)).toBe(true);
  });

  it(`splits batches at the server's limit (${TRPC_MAX_BATCH_SIZE} calls), which refuses larger ones`, async () => {
    const server = stubServer();
    const api = createPushApi({ serverUrl: SERVER, fetch: server.fetch });
    const answers = await Promise.all(Array.from({ length: 25 }, () => api.version()));
    expect(answers).toHaveLength(25);
    const callsPerRequest = server.seen.map((s) => new URL(s.url).pathname.replace('/trpc/', '').split(',').length);
    expect(callsPerRequest.reduce((a, b) => a + b, 0)).toBe(25);
    expect(Math.max(...callsPerRequest)).toBeLessThanOrEqual(TRPC_MAX_BATCH_SIZE);
    expect(callsPerRequest.length).toBeGreaterThanOrEqual(3);
  });

  it('sends the API token as a Bearer header', async () => {
    const server = stubServer();
    const api = createPushApi({ serverUrl: SERVER, apiToken: ' good-token ', fetch: server.fetch });
    expect((await api.active(2))[0].name).toBe('page 2');
    expect(await api.expired(1)).toEqual([]);
    expect((await api.audit('tok', 1))[0].kind).toBe('creation');
    expect((await api.expire('tok')).expired).toBe(true);
    expect(server.seen.map((s) => s.auth)).toEqual(Array(4).fill('Bearer good-token'));
  });

  it('surfaces 401 and 422 so they can be told apart', async () => {
    const server = stubServer();
    const bad = createPushApi({ serverUrl: SERVER, apiToken: 'bad', fetch: server.fetch });
    const unauthorized = await bad.active(1).catch((e: unknown) => e);
    expect(describeError(unauthorized, SERVER, true).kind).toBe('unauthorized');

    const invalid = await bad.create({ kind: 'text', payload: 'x', expire_after_days: 365 }).catch((e: unknown) => e);
    expect(describeError(invalid, SERVER).fields).toEqual({ expire_after_days: 'Days must be between 1 and 90.' });
  });

  it('reports an unreachable server as such', async () => {
    const api = createPushApi({
      serverUrl: SERVER,
      fetch: (async () => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch,
    });
    const err = await api.version().catch((e: unknown) => e);
    expect(describeError(err, SERVER)).toMatchObject({ kind: 'network' });
  });

  it('reports a server that does not speak tRPC', async () => {
    const api = createPushApi({
      serverUrl: SERVER,
      fetch: (async () => new Response('<html>Not here</html>', { status: 404, headers: { 'content-type': 'text/html' } })) as typeof fetch,
    });
    const err = await api.version().catch((e: unknown) => e);
    expect(describeError(err, SERVER).kind).toBe('not-a-server');
  });
});
