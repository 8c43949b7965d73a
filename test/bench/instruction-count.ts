/**
 * Instructions the server executes per request, a count that does not move with the machine's
 * load (wall-clock and CPU time here do: other work shares the two cores). `node --import tsx
 * test/bench/instruction-count.ts [create|retrieve|version ...] [--requests N] [--warmup N]
 * [--semi-space MB] [--dist DIR]` starts the compiled server (`npm run build` first; `--dist`
 * another build, for an A/B) under valgrind's callgrind with instrumentation off, sends the
 * warm-up requests (unmeasured: V8 compiles and optimises meanwhile), opens a measured window
 * (measured-window.mjs: a full collection, so the window starts on an empty young generation),
 * turns collection on, sends the measured requests one after another on one keep-alive
 * connection from this process (not under valgrind), turns it off, closes the window and
 * prints instructions and V8 heap bytes allocated per request.
 * No garbage collection runs inside the window: the server's young generation (--semi-space,
 * default 512 MB) holds all the window allocates, and the script says so if one did. GC work is
 * therefore not in the count; bytes allocated per request, beside it, are what each request
 * costs the collector later. Before this, scavenges fell wherever the young generation filled
 * and the same build counted 599,792 and 826,036 instructions per version request.
 * The server runs with V8's `--single-threaded`: compilation and GC work a request causes is
 * done on the main thread and counted there. With V8's background threads the counts were not
 * repeatable: two builds four small commits apart counted 282k and 851k instructions per version
 * request (the second with another callgrind run beside it), where outside valgrind their CPU
 * per request was 112 and 90 µs. Valgrind runs one thread at a time, so threads waiting on
 * each other (spinning) presumably count instructions that depend on its scheduling.
 * `perf stat -e instructions` would be cheaper but this container's kernel does not expose the
 * counter. Embedded store only (DATA_DIR in a fresh temporary directory).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/postgres-cluster.js';
import { benchServerEnv } from './bench-server-env.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const requests = Number(option('requests', '2000'));
const warmup = Number(option('warmup', '3000'));
const dist = resolve(option('dist', join(ROOT, 'dist')));
const semiSpaceMb = Number(option('semi-space', '512'));
const kinds = args.length ? args : ['version', 'create', 'retrieve'];
for (const k of kinds) if (!['create', 'retrieve', 'version'].includes(k)) throw new Error(`unknown kind ${k}: create, retrieve or version`);

const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-instructions-'));
const port = await freePort();
const windowFile = join(dataDir, 'measured-window.json');
const url = `http://127.0.0.1:${port}`;
const server = spawn(
  'valgrind',
  ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(dataDir, 'callgrind.%p')}`, process.execPath,
    '--single-threaded',
    '--expose-gc',
    // V8's memory reducer runs full collections once the allocation rate falls, which under
    // valgrind (a request every few ms) it always has: two fell inside each window.
    '--no-memory-reducer',
    `--min-semi-space-size=${semiSpaceMb}`,
    `--max-semi-space-size=${semiSpaceMb}`,
    '--import',
    join(ROOT, 'test/bench/measured-window.mjs'),
    join(dist, 'server/main.js'),
  ],
  {
    // As the bench runs it (bench-server-env.ts).
    env: {
      ...process.env,
      DATA_DIR: join(dataDir, 'data'),
      MEASURED_WINDOW_FILE: windowFile,
      MASTER_KEY: randomBytes(32).toString('hex'),
      PORT: String(port),
      HOST: '127.0.0.1',
      ...benchServerEnv,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
let stderr = '';
server.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
const exited = new Promise<void>((r) => server.once('exit', () => r()));
let agent = new Agent({ keepAlive: true, maxSockets: 1 });

try {
  // Started when it answers (under valgrind a start takes tens of seconds).
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited: ${stderr.slice(-2000)}`);
    const up = await fetch(`${url}/api/v2/version`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const createBody = JSON.stringify({ push: { payload: 'hello secret', expire_after_views: 100 } });
  // Each phase (warm-up, measured) runs on a fresh kept-alive connection of its own: the pauses
  // around callgrind_control can outlast the server's keep-alive timeout, so a connection kept
  // from the previous phase may be closing when reused. This script once resent any request
  // that failed, which for create could make an extra push whose work the count included.
  const freshConnection = () => {
    agent.destroy();
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  };
  // Node's server closes a kept-alive connection after 5 s idle, and under valgrind on a loaded
  // machine a pause (a full GC) can outlast that with our next request already waiting unread:
  // the server then resets the connection without having read it. Only that case, a reset of a
  // reused connection before any answer, is sent again (the request was never handled: the
  // server's idle timer only runs while no request is in progress); resends are reported.
  let resent = 0;
  const request = async (method: string, path: string, body?: string) => {
    try {
      return await requestOnce(method, path, body);
    } catch (e) {
      if (!(e as { unreadReset?: boolean }).unreadReset) throw e;
      resent++;
      return requestOnce(method, path, body);
    }
  };
  const requestOnce = (method: string, path: string, body?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${url}${path}`, { method, agent, headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {} }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      });
      let answered = false;
      req.on('response', () => (answered = true));
      req.on('error', (e: NodeJS.ErrnoException) => reject(Object.assign(e, { unreadReset: req.reusedSocket && !answered && e.code === 'ECONNRESET' })));
      req.end(body);
    });
  const create = async () => {
    const res = await request('POST', '/api/v2/pushes', createBody);
    if (res.status !== 201) throw new Error(`create answered ${res.status}`);
    return (JSON.parse(res.body) as { url_token: string }).url_token;
  };
  const tokens: string[] = [];
  let next = 0;
  const send: Record<string, () => Promise<void>> = {
    version: async () => {
      const res = await request('GET', '/api/v2/version');
      if (res.status !== 200) throw new Error(`version answered ${res.status}`);
    },
    create: async () => void (await create()),
    retrieve: async () => {
      const res = await request('GET', `/api/v2/pushes/${tokens[next++ % tokens.length]}`);
      if (res.status !== 200) throw new Error(`retrieve answered ${res.status}`);
    },
  };
  // Each token is viewed at most 100 times over the warm-up and the measured requests.
  if (kinds.includes('retrieve')) for (let i = 0; i < Math.ceil((warmup + 2 * requests) / 90); i++) tokens.push(await create());

  // vgdb finds the server's pipes by a name built from USER and HOST: HOST here is the server's
  // listen address (set above), so callgrind_control gets the same.
  const control = (flag: string) => execFileSync('callgrind_control', [flag, String(server.pid)], { stdio: 'ignore', env: { ...process.env, HOST: '127.0.0.1' } });
  // Opens or closes the server's measured window (measured-window.mjs) and waits until it has.
  const toggleWindow = async (open: boolean) => {
    rmSync(windowFile, { force: true });
    server.kill('SIGWINCH');
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the server exited: ${stderr.slice(-2000)}`);
      try {
        const state = JSON.parse(readFileSync(windowFile, 'utf8')) as { open: boolean; allocated?: number; collections?: number; types?: string[] };
        if (state.open === open) return state;
      } catch {
        // not written yet (or half written)
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  console.log(`${dist}: ${requests} measured requests after ${warmup} unmeasured, one at a time`);
  for (const kind of kinds) {
    const one = send[kind]!;
    resent = 0;
    freshConnection();
    for (let i = 0; i < warmup; i++) await one();
    freshConnection();
    await toggleWindow(true);
    // The measured phase's first request opens its connection: its accept is in the count.
    control('--zero');
    control('--instr=on');
    for (let i = 0; i < requests; i++) await one();
    control('--instr=off');
    const before = new Set(readdirSync(dataDir));
    control('--dump');
    const dumps = readdirSync(dataDir).filter((f) => f.startsWith('callgrind.') && !before.has(f));
    let instructions = 0;
    for (const f of dumps) {
      const summary = /^totals: (\d+)/m.exec(readFileSync(join(dataDir, f), 'utf8'));
      instructions += Number(summary?.[1] ?? 0);
    }
    const { allocated = 0, collections = 0, types = [] } = await toggleWindow(false);
    const gcNote = collections ? `; ${collections} garbage collections inside the window (${types.join(', ')}): NOT comparable` : '';
    console.log(
      `${kind.padEnd(9)} ${Math.round(instructions / requests).toLocaleString('en').padStart(9)} instructions/request, ${(allocated / requests / 1024).toFixed(1).padStart(5)} KB allocated/request (${dumps.length} thread dumps; ${resent} requests resent after an idle reset${gcNote})`,
    );
  }
} finally {
  agent.destroy();
  server.kill('SIGKILL');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
