import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPC_MAX_BATCH_SIZE } from '../../../shared/trpc-limits.js';
import { api, secret } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';
import { storedContaining } from '../../support/stored-data.js';

/**
 * Finding 1: one HTTP request carrying 1,000 batched tRPC calls counted once against the rate
 * limit, and batches of passphrase work held every scrypt thread so that plain creates waited
 * 39–65 s. Batches are capped, every call counts, and hashing is queued with a bound.
 */

/** A tRPC batch of `calls` (procedure name, input) as the httpBatchLink sends it. */
function batch(server: TestServer, calls: [string, unknown][]) {
  const path = calls.map(([p]) => p).join(',');
  const body = Object.fromEntries(calls.map(([, input], i) => [String(i), input]));
  return api.post(server, `/trpc/${path}?batch=1`, { json: body });
}

const creates = (n: number, push: (i: number) => Record<string, unknown>) => Array.from({ length: n }, (_, i): [string, unknown] => ['pushes.create', push(i)]);

describe('tRPC batches', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it('a batch of 1,000 calls is refused with 400 before any call runs', async () => {
    const marker = secret('batch');
    const before = await server.server.store.countPushes();
    const res = await batch(server, creates(1000, (i) => ({ payload: `${marker}-${i}` })));
    expect(res.status).toBe(400);
    expect(res.text).toContain('Batch call exceeds maximum size');
    expect(await server.server.store.countPushes()).toEqual(before);
    expect(await storedContaining(server, marker)).toEqual([]);
  });

  it(`a batch of ${TRPC_MAX_BATCH_SIZE} runs, and each of its calls counts against the rate limit`, async () => {
    const fresh = await startServer({ RATE_LIMIT_PER_MINUTE: '25' });
    try {
      // With a rate limit, a batch of 1,000 is 1,000 requests: over the limit at once.
      const huge = await batch(fresh, creates(1000, (i) => ({ payload: `huge-${i}` })));
      expect(huge.status).toBe(429);
      expect(huge.headers.get('retry-after')).toMatch(/^\d+$/);
      await fresh.server.store.counters.resetHits('rate:127.0.0.1');
      const first = await batch(fresh, creates(TRPC_MAX_BATCH_SIZE, (i) => ({ payload: `one-${i}` })));
      expect(first.status).toBe(200);
      expect(first.body).toHaveLength(TRPC_MAX_BATCH_SIZE);
      const second = await batch(fresh, creates(TRPC_MAX_BATCH_SIZE, (i) => ({ payload: `two-${i}` })));
      expect(second.status).toBe(200);
      // 20 calls spent of 25: a third batch of 10 is over the limit, as 10 single requests would be.
      const third = await batch(fresh, creates(TRPC_MAX_BATCH_SIZE, (i) => ({ payload: `three-${i}` })));
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(third.body.error).toMatch(/Too many requests/);
      expect((await fresh.server.store.countPushes()).total).toBe(2 * TRPC_MAX_BATCH_SIZE);
      expect(await storedContaining(fresh, 'three-')).toEqual([]);
      // A single request is refused too: the budget is per address, whatever the transport.
      expect((await api.post(fresh, '/api/v2/pushes', { json: { push: { payload: 'x' } } })).status).toBe(429);
    } finally {
      await fresh.stop();
    }
  });
});

describe('passphrase hashing under a flood of batches', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Hashing at its production cost: the flood must hold the hashing threads as it would.
    server = await startServer({ PASSWORD_HASH_COST: '14' });
  });
  afterAll(() => server.stop());

  it('a plain create still answers while batches of passphrase work flood the server; the excess is refused with 503 + Retry-After', async () => {
    const marker = secret('flood');
    // The same create with nothing else going on, for comparison.
    const quietStart = performance.now();
    expect((await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'plain, quiet' } } })).status).toBe(201);
    const quietMs = performance.now() - quietStart;
    const flood = Array.from({ length: 40 }, (_, r) =>
      batch(server, creates(TRPC_MAX_BATCH_SIZE, (i) => ({ payload: `${marker}-${r}-${i}`, passphrase: `pass-${r}-${i}` }))),
    );
    // Measured once the flood is in flight (every batch sent), reported, not asserted: speed is for the bench.
    await new Promise((r) => setImmediate(r));
    const started = performance.now();
    const plain = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'plain during flood' } } });
    const plainMs = performance.now() - started;
    const answers = await Promise.all(flood);
    const floodMs = performance.now() - started;

    expect(plain.status).toBe(201);
    const results = answers.flatMap((a) => (Array.isArray(a.body) ? a.body : [a.body]));
    const refused = results.filter((r) => r.error);
    const made = results.filter((r) => r.result);
    expect(made.length + refused.length).toBe(40 * TRPC_MAX_BATCH_SIZE);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r.error.data.httpStatus).toBe(503);
      expect(r.error.message).toMatch(/busy checking passwords and passphrases/);
    }
    // A batch whose calls were refused says when to come back.
    const refusedBatches = answers.filter((a) => Array.isArray(a.body) && a.body.some((r: any) => r.error));
    expect(refusedBatches.length).toBeGreaterThan(0);
    for (const a of refusedBatches) expect(a.headers.get('retry-after')).toMatch(/^\d+$/);
    // Nothing half-made: every push answered is stored, every refused one is not.
    expect((await server.server.store.countPushes()).total).toBe(made.length + 2);
    console.log(
      `[finding 1] plain create: ${quietMs.toFixed(0)} ms quiet, ${plainMs.toFixed(0)} ms under a flood of ${40 * TRPC_MAX_BATCH_SIZE} passphrase creates in 40 batches ` +
        `(flood done in ${floodMs.toFixed(0)} ms: ${made.length} made, ${refused.length} refused with 503)`,
    );
  });
});
