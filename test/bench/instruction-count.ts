/**
 * Instructions the server executes per request, a count that does not move with the machine's
 * load (wall-clock and CPU time here do: other work shares the two cores). `node --import tsx
 * test/bench/instruction-count.ts [create|retrieve|version ...] [--requests N] [--warmup N]
 * [--dist DIR]` starts the compiled server (`npm run build` first; `--dist` another build, for
 * an A/B) under valgrind's callgrind with instrumentation off, sends the warm-up requests
 * (unmeasured: V8 compiles and optimises meanwhile), turns collection on, sends the measured
 * requests one after another on one keep-alive connection from this process (not under
 * valgrind), turns it off and prints instructions per request, all the server's threads
 * together (V8's compiler and GC threads included: they are work a request causes).
 * `perf stat -e instructions` would be cheaper but this container's kernel does not expose the
 * counter. Embedded store only (DATA_DIR in a fresh temporary directory).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/postgres-cluster.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const requests = Number(option('requests', '2000'));
const warmup = Number(option('warmup', '3000'));
const dist = resolve(option('dist', join(ROOT, 'dist')));
const kinds = args.length ? args : ['version', 'create', 'retrieve'];
for (const k of kinds) if (!['create', 'retrieve', 'version'].includes(k)) throw new Error(`unknown kind ${k}: create, retrieve or version`);

const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-instructions-'));
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = spawn(
  'valgrind',
  ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(dataDir, 'callgrind.%p')}`, process.execPath, join(dist, 'server/main.js')],
  {
    // As the bench runs it (run.ts): without the per-client limits one client address hits at once.
    env: {
      ...process.env,
      DATA_DIR: join(dataDir, 'data'),
      MASTER_KEY: randomBytes(32).toString('hex'),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      NODE_ENV: 'production',
      RATE_LIMIT_PER_MINUTE: '0',
      MAX_STORAGE_MB: '0',
      ACCOUNT_STORAGE_MB_PER_DAY: '0',
      ANONYMOUS_STORAGE_MB_PER_IP_PER_DAY: '0',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
let stderr = '';
server.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
const exited = new Promise<void>((r) => server.once('exit', () => r()));

try {
  // Started when it answers (under valgrind a start takes tens of seconds).
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited: ${stderr.slice(-2000)}`);
    const up = await fetch(`${url}/api/v2/version`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const createBody = JSON.stringify({ push: { payload: 'hello secret', expire_after_views: 100 } });
  const create = async () => {
    const res = await fetch(`${url}/api/v2/pushes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: createBody });
    if (res.status !== 201) throw new Error(`create answered ${res.status}`);
    return ((await res.json()) as { url_token: string }).url_token;
  };
  const tokens: string[] = [];
  let next = 0;
  // Under valgrind a kept-alive connection can reach the server's keep-alive timeout between
  // two requests; a request that met the closing socket is sent again, once.
  const retried = (f: () => Promise<void>) => () => f().catch(() => f());
  const send: Record<string, () => Promise<void>> = {
    version: async () => {
      const res = await fetch(`${url}/api/v2/version`);
      if (res.status !== 200) throw new Error(`version answered ${res.status}`);
      await res.arrayBuffer();
    },
    create: async () => void (await create()),
    retrieve: async () => {
      const res = await fetch(`${url}/api/v2/pushes/${tokens[next++ % tokens.length]}`);
      if (res.status !== 200) throw new Error(`retrieve answered ${res.status}`);
      await res.arrayBuffer();
    },
  };
  // Each token is viewed at most 100 times over the warm-up and the measured requests.
  if (kinds.includes('retrieve')) for (let i = 0; i < Math.ceil((warmup + requests) / 90); i++) tokens.push(await create());

  // vgdb finds the server's pipes by a name built from USER and HOST: HOST here is the server's
  // listen address (set above), so callgrind_control gets the same.
  const control = (flag: string) => execFileSync('callgrind_control', [flag, String(server.pid)], { stdio: 'ignore', env: { ...process.env, HOST: '127.0.0.1' } });
  console.log(`${dist}: ${requests} measured requests after ${warmup} unmeasured, one at a time`);
  for (const kind of kinds) {
    const one = retried(send[kind]);
    for (let i = 0; i < warmup; i++) await one();
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
    console.log(`${kind.padEnd(9)} ${Math.round(instructions / requests).toLocaleString('en').padStart(9)} instructions/request (${dumps.length} thread dumps)`);
  }
} finally {
  server.kill('SIGKILL');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
