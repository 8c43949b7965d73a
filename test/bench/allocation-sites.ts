/**
 * Where the server's allocations come from, per request: `node --import tsx
 * test/bench/allocation-sites.ts [create|retrieve|version] [requests] [--dist DIR]`. Runs the
 * compiled server (`npm run build` first; `--dist` another build inside this checkout, for an
 * A/B) in this process, with the bench's settings, under V8's sampling heap profiler with
 * collected objects included (so it counts what was allocated, not what is still alive, unlike
 * `--heap-prof`), sends the requests from a child autocannon after an unmeasured warm-up, and
 * prints the functions that allocated most, by their own allocations and with their callees.
 * The bench's "KB allocated/req" column says how much; this says where.
 */
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '../support/postgres-cluster.js';
import { benchServerEnv } from './bench-server-env.js';

interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const distAt = args.indexOf('--dist');
const dist = distAt >= 0 ? resolve(args.splice(distAt, 2)[1]!) : join(ROOT, 'dist');
const kind = args[0] ?? 'create';
const requests = Number(args[1] ?? 5000);
if (!['create', 'retrieve', 'version'].includes(kind)) throw new Error('the kind is create, retrieve or version');

const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-alloc-'));
const port = await freePort();
// The settings the bench runs the server with (run.ts), so that these sites are the bench's.
Object.assign(process.env, {
  DATA_DIR: dataDir,
  MASTER_KEY: randomBytes(32).toString('hex'),
  PORT: String(port),
  ...benchServerEnv,
});
await import(pathToFileURL(join(dist, 'server/main.js')).href);
const url = `http://127.0.0.1:${port}`;
await new Promise((r) => setTimeout(r, 500));

const create = { url: `${url}/api/v2/pushes`, method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ push: { payload: 'hello secret', expire_after_views: 100 } }) };
let spec: autocannon.Options = create;
if (kind === 'retrieve') {
  const tokens: string[] = [];
  for (let i = 0; i < 400; i++) tokens.push(((await (await fetch(create.url, create)).json()) as { url_token: string }).url_token);
  let next = 0;
  spec = { url, requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/v2/pushes/${tokens[next++ % tokens.length]}` }) }] };
} else if (kind === 'version') spec = { url: `${url}/api/v2/version` };

const run = (opts: autocannon.Options) => new Promise<autocannon.Result>((resolve, reject) => autocannon(opts, (e, r) => (e ? reject(e) : resolve(r))));
await run({ ...spec, connections: 20, amount: Math.min(requests, 3000) });

const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
const result = await run({ ...spec, connections: 20, amount: requests });
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: ProfileNode } };
session.disconnect();

// Own allocations and, with callees, inclusive ones, per function (the autocannon client runs
// in this process too: its frames are left out by file).
const own = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
const isClient = (u: string) => u.includes('/autocannon/') || u.includes('/hdr-histogram') || u.includes('allocation-sites');
function walk(node: ProfileNode, stack: string[]) {
  const { functionName, url: file, lineNumber } = node.callFrame;
  if (isClient(file)) return;
  const key = `${functionName || '(anonymous)'} ${file.replace(/^.*\/(node_modules|dist[^/]*)\//, '$1/')}:${lineNumber + 1}`;
  const path = [...stack, key];
  if (node.selfSize) {
    total += node.selfSize;
    own.set(key, (own.get(key) ?? 0) + node.selfSize);
    for (const k of new Set(path)) inclusive.set(k, (inclusive.get(k) ?? 0) + node.selfSize);
  }
  for (const child of node.children) walk(child, path);
}
walk(profile.head, []);
const answered = result.requests.total;
const row = ([k, v]: [string, number]) => `${((v / total) * 100).toFixed(1).padStart(5)} % ${(v / answered).toFixed(0).padStart(7)} B  ${k}`;
console.log(`${kind}: ${answered} requests (${result.non2xx} not 2xx), ${(total / answered / 1024).toFixed(1)} KB allocated per request (sampled every 512 B)`);
console.log('\nOwn allocations:');
for (const e of [...own].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(row(e));
console.log('\nWith callees:');
for (const e of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(row(e));
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
