/**
 * Where a CPU profile's time goes, in the buckets of issue 36's attribution (docs/performance.md):
 * `node --import tsx test/bench/profile-buckets.ts PROFILE.cpuprofile [--from US --to US]
 * [--callers NAME]`. PROFILE comes from the compiled server run with `--cpu-prof` under load
 * (`npm run bench -- --profile DIR`, or by hand); `--from`/`--to` keep only the samples taken
 * between two monotonic-clock times in µs (`process.hrtime.bigint() / 1000n` in any process on
 * the machine), so that the server's start and warm-up stay out.
 * Each sample goes to one bucket: that of the innermost frame on its stack that is ours or a
 * library we call (a JSON.stringify inside the journal is the journal's, zod's parsing is
 * validation wherever it is called from); a sample with none of those is Node's own (HTTP
 * parsing, socket writes), GC, or other native work. Idle time is left out; percentages are of
 * the busy samples. `--callers NAME` prints instead the stacks that reach a function so named.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] }

/** First match wins; patterns test the frame's script URL (and function name, after a space). */
const BUCKETS: [string, RegExp][] = [
  ['security headers, request id, request frame', /server\/http\/middleware\/(request-frame|request-id|security-headers|request-log)\.js/],
  ['request context, session, actor', /server\/http\/(request-context|request-header|app-env|middleware\/(session|page-language|api-auth|api-actor|[a-z-]*actor[a-z-]*))\.js|server\/http\/pages\/i18n\//],
  ['rate limiting', /rate-limit|guess-limit|client-key/],
  ['body parsing + zod validation', /node_modules\/zod\/|server\/pushes\/push-input\.js|server\/http\/(request-body|rest\/push-request-body|multipart-fields)\.js|shared\//],
  ['quotas, counters', /storage-quota|counters|quota/],
  ['webhook events', /server\/webhooks\//],
  ['audit entry', /audit/],
  ['store write (journal, fsync group commit)', /server\/storage\/|server\/observability\/observed-store\.js/],
  ['push record building + encryption', /server\/pushes\/|server\/crypto\/|node:internal\/crypto/],
  ['JSON answer, REST adapter', /server\/http\/rest\/|server\/http\/trpc\//],
  ['logging', /server\/logger\.js|pino/],
  ['HTTP framework (Hono, node adapter)', /node_modules\/(hono|@hono)\//],
  ['other server code', /\/dist\/server\/|\/server\/[a-z-/]+\.(js|ts)/],
];

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const from = Number(option('from') ?? -Infinity);
const to = Number(option('to') ?? Infinity);
const callers = option('callers');
const profile = JSON.parse(readFileSync(args[0]!, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const stack = (id: number) => {
  const frames: ProfileNode[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) frames.push(byId.get(at)!);
  return frames; // innermost first
};
const NODE_HTTP = /^node:(_http_\w+|http|net|internal\/(http|stream_base_commons|streams\/\w+|net|js_stream_socket)|stream)$/;
const nativeBucket = (leaf: ProfileNode) => {
  const { functionName, url } = leaf.callFrame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(program)') return 'V8 and native, unattributed';
  if (/^node:(_http|http|net|internal\/(http|stream|streams|net|timers|process|async_hooks)|events|stream|timers)/.test(url) || /^(writev|writeBuffer|writeUtf8String|writeLatin1String|readStart|onStreamRead|close|setStreamTimeout)$/.test(functionName)) return 'Node HTTP (parsing, sockets, events)';
  return 'V8 and native, unattributed';
};

const time = new Map<string, number>();
const paths = new Map<string, number>();
let t = profile.startTime;
let busy = 0;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i] ?? 0;
  const delta = profile.timeDeltas[i + 1] ?? 0; // a sample stands for the time until the next
  if (t < from || t > to) return;
  const frames = stack(id);
  const leaf = frames[0]!;
  if (leaf.callFrame.functionName === '(idle)') return;
  busy += delta;
  if (callers) {
    const at = frames.findIndex((f) => f.callFrame.functionName === callers);
    if (at >= 0) {
      const key = frames.slice(at, at + 8).map((f) => `${f.callFrame.functionName || '(anon)'}@${f.callFrame.url.replace(/.*\/(dist|node_modules)\//, '$1/')}:${f.callFrame.lineNumber + 1}`).join(' < ');
      paths.set(key, (paths.get(key) ?? 0) + delta);
    }
    return;
  }
  let bucket: string | undefined;
  for (const f of frames) {
    // Node's HTTP and socket code, reached before any of ours: Node's work (the adapter's write
    // of an answer is Node's socket write, not Hono's).
    if (NODE_HTTP.test(f.callFrame.url)) bucket = 'Node HTTP (parsing, sockets, events)';
    else bucket = BUCKETS.find(([, pattern]) => pattern.test(`${f.callFrame.url} ${f.callFrame.functionName}`))?.[0];
    if (bucket) break;
  }
  bucket ??= nativeBucket(leaf);
  time.set(bucket, (time.get(bucket) ?? 0) + delta);
});
const rows = [...(callers ? paths : time)].sort((a, b) => b[1] - a[1]);
console.log(`busy: ${(busy / 1000).toFixed(0)} ms of samples`);
for (const [name, us] of rows.slice(0, 30)) console.log(`${((100 * us) / busy).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`);
