import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * wrk (Debian's package) as a load generator: a C program, far lighter than autocannon, so less
 * of the machine goes to generating load and more is left to the server under test.
 */

export function wrkInstalled(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'pipe' });
    return true;
  } catch (e) {
    // wrk prints its version and usage, then exits 1: present.
    return (e as { status?: number }).status === 1;
  }
}

export interface WrkOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Paths to cycle through, one per request (e.g. many push tokens), instead of the URL's. */
  paths?: string[];
  /** CPU list for `taskset -c` (pinning the generator away from the server), if any. */
  cpus?: string;
}

export interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

const lua = (s: string) => JSON.stringify(s); // a JSON string literal is a valid Lua string literal here (ASCII)

function script(o: WrkOptions): string {
  const lines = [`wrk.method = ${lua(o.method ?? 'GET')}`];
  for (const [k, v] of Object.entries(o.headers ?? {})) lines.push(`wrk.headers[${lua(k)}] = ${lua(v)}`);
  if (o.body !== undefined) lines.push(`wrk.body = ${lua(o.body)}`);
  if (o.paths?.length) {
    lines.push('local paths = {', ...o.paths.map((p) => `  ${lua(p)},`), '}');
    lines.push('local i = 0', 'request = function()', '  i = i % #paths + 1', '  return wrk.format(nil, paths[i])', 'end');
  }
  return lines.join('\n') + '\n';
}

/** wrk's durations: `812.00us`, `1.23ms`, `2.01s`, in milliseconds. */
function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000;
}

export async function runWrk(o: WrkOptions): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'secret-push-wrk-'));
  try {
    const file = join(dir, 'load.lua');
    writeFileSync(file, script(o));
    // One thread: the generator gets one core at most (the server has the other).
    const args = ['-t1', `-c${o.connections}`, `-d${o.durationSeconds}s`, '--latency', '-s', file, o.url];
    const [cmd, argv] = o.cpus ? ['taskset', ['-c', o.cpus, 'wrk', ...args]] : ['wrk', args];
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(cmd, argv as string[], { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}: ${text}`))));
    });
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
    const p50 = ms(/\s50%\s+(\S+)/.exec(out)?.[1] ?? '');
    const p99 = ms(/\s99%\s+(\S+)/.exec(out)?.[1] ?? '');
    const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
    const errors = socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
    const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
    if (!Number.isFinite(rps)) throw new Error(`could not read wrk's output:\n${out}`);
    return { rps, p50, p99, errors, non2xx };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
