import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DEPTH, MAX_FORM_ENTRIES, paramsFromForm, setParam, type Params, type ParseMeter } from '../../../server/http/rest/bracket-params.js';
import { api } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';
import { Browser, csrfFrom } from '../pages/browser.js';

/**
 * Form bodies parse in work linear in their size, and are capped in entries and depth (issue 28:
 * `push[x][]=` × 40,000 took 14 s, because each entry copied the array built so far; 880 KB took
 * 64 s and held every other request meanwhile). Nothing here is timed: the work is counted, as
 * the parser's own steps (ParseMeter) and as the array elements copied by spreads, for-of and
 * Array.from anywhere in the process (the array iterator's next() calls, counted while parsing).
 */

/** Runs `work`, counting the calls of the array iterator's next() it makes. */
function countArrayIteration(work: () => void): number {
  const proto = Object.getPrototypeOf([][Symbol.iterator]()) as { next: (...a: unknown[]) => unknown };
  const next = proto.next;
  let calls = 0;
  proto.next = function (this: unknown, ...a: unknown[]) {
    calls++;
    return next.apply(this, a);
  };
  try {
    work();
  } finally {
    proto.next = next;
  }
  return calls;
}

/** Parses `n` entries of `key` (below the body cap: setParam itself is not capped). */
function parseEntries(n: number, key: string) {
  const meter: ParseMeter = { steps: 0 };
  const params = Object.create(null) as Params;
  const copies = countArrayIteration(() => {
    for (let i = 0; i < n; i++) setParam(params, key, 'v', meter);
  });
  return { params, steps: meter.steps, copies };
}

describe('form parsing work', () => {
  it('appending to a key[] list is constant work per entry: 20,000 entries, at most a few steps each', () => {
    for (const key of ['push[x][]', 'push[a][b][]', 'list[]']) {
      const small = parseEntries(1_000, key);
      const large = parseEntries(20_000, key);
      const parts = key.split('[').length;
      // Linear: the same work per entry whatever the list's length (quadratic was ~n/2 copies per entry).
      expect(small.steps).toBeLessThanOrEqual(1_000 * parts);
      expect(large.steps / 20_000).toBe(small.steps / 1_000);
      expect(large.copies / 20_000).toBeLessThanOrEqual(parts + 2);
      expect(large.copies / 20_000).toBe(small.copies / 1_000);
    }
    const { params } = parseEntries(3, 'push[x][]');
    expect((params.push as Params).x).toEqual(['v', 'v', 'v']);
  });

  it(`a body of 1,000,000 entries is refused after counting ${MAX_FORM_ENTRIES + 1} of them, none parsed`, () => {
    const body = `push[payload]=x${'&push[x][]='.repeat(1_000_000)}`;
    const meter: ParseMeter = { steps: 0 };
    expect(() => paramsFromForm(body, meter)).toThrow(`Too many form fields: the limit is ${MAX_FORM_ENTRIES} in one body.`);
    expect(meter.steps).toBe(MAX_FORM_ENTRIES + 1);
  });

  it('the cap counts entries as URLSearchParams does (empty pieces are none), and keeps what is under it', () => {
    const atCap = Array.from({ length: MAX_FORM_ENTRIES }, (_, i) => `push[k${i}]=${i}`).join('&&');
    expect(Object.keys(paramsFromForm(atCap).push as Params)).toHaveLength(MAX_FORM_ENTRIES);
    expect(() => paramsFromForm(`${atCap}&one=more`)).toThrow(/Too many form fields/);
  });

  it(`a key nested deeper than ${MAX_DEPTH} brackets is refused, naming the field and the limit`, () => {
    expect(paramsFromForm('push[a][b][c][d]=x')).toEqual({ push: { a: { b: { c: { d: 'x' } } } } });
    expect(() => paramsFromForm('push[a][b][c][d][e]=x')).toThrow(`The form field "push[a][b][c][d][e]" nests deeper than ${MAX_DEPTH} brackets, the limit.`);
  });
});

describe('form bodies over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  // Under MAX_JSON_BODY_BYTES (4 MiB): about 760,000 entries.
  const hugeList = (key: string) => `&${key}=`.repeat(Math.floor((4 * 1_048_576 - 64) / (key.length + 2)));

  it('a 4 MiB body of key[] entries is a 413 naming the limit, on the API and on the create page', async () => {
    const v2 = await api.post(server, '/api/v2/pushes', { raw: `push[payload]=x${hugeList('push[x][]')}`, contentType: 'application/x-www-form-urlencoded' });
    expect(v2.status).toBe(413);
    expect(v2.body).toEqual({ error: `Too many form fields: the limit is ${MAX_FORM_ENTRIES} in one body.` });
    const v1 = await api.post(server, '/p.json', { raw: `password[payload]=x${hugeList('password[x][]')}`, contentType: 'application/x-www-form-urlencoded' });
    expect(v1.status).toBe(413);

    const browser = new Browser(server);
    const csrf = csrfFrom((await browser.get('/')).text);
    const page = await browser.request('POST', '/', {
      body: `csrf_token=${encodeURIComponent(csrf)}&push[payload]=x${hugeList('push[x][]')}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(page.status).toBe(413);
    expect(page.text).toContain('Too many form fields');
  });

  it('a key nested too deep is a 400 naming it (form and multipart)', async () => {
    const form = await api.post(server, '/api/v2/pushes', { raw: 'push[payload]=x&push[a][b][c][d][e]=1', contentType: 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(400);
    expect(form.body.error).toContain('"push[a][b][c][d][e]" nests deeper than 4 brackets');
    const multipart = new FormData();
    multipart.append('push[payload]', 'x');
    multipart.append('push[a][b][c][d][e]', '1');
    const res = await api.post(server, '/api/v2/pushes', { raw: multipart });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('nests deeper than 4 brackets');
  });
});
