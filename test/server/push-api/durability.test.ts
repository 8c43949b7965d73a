import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../../support/http.js';

/**
 * The real `npm start` entry point in a child process, killed with SIGKILL: what was answered
 * 201 must be there after a restart on the same data dir (write before answering), and the
 * killed process's lock must be taken over.
 */
const root = resolve(__dirname, '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-kill-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function startChild(): Promise<{ url: string; child: ChildProcess; output: () => string }> {
// `node --import tsx` (not the tsx CLI, which runs the server in a grandchild): SIGKILL hits the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'server/main.ts')], {
    cwd: root,
    // A clean environment: vitest puts Vite's BASE_URL ('/') into process.env.
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info', MASTER_KEY: 'c3'.repeat(32) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 20_000);
    const check = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  return { url, child, output: () => out };
}

function killed(child: ChildProcess) {
  return new Promise<void>((r) => {
    child.once('exit', () => r());
    child.kill('SIGKILL');
  });
}

describe('durability across SIGKILL', () => {
  it('every push answered 201 is readable after the process is killed right after, and the stale lock is taken over', async () => {
    const first = await startChild();
    // Create a batch concurrently and kill the instant the last answer arrives.
    const created = await Promise.all(
      Array.from({ length: 25 }, (_, i) => api.post(first.url, '/api/v2/pushes', { json: { push: { payload: `durable ${i}`, expire_after_views: 2 } } })),
    );
    const viewed = await api.get(first.url, `/api/v2/pushes/${created[0]!.body.url_token}`);
    await killed(first.child);
    expect(created.map((r) => r.status)).toEqual(Array(25).fill(201));
    expect(viewed.body.views_remaining).toBe(1);
    expect(existsSync(join(dataDir, 'secret-push.lock'))).toBe(true); // left behind by the kill

    const second = await startChild();
    try {
      const shown = await Promise.all(created.map((r) => api.get(second.url, `/api/v2/pushes/${r.body.url_token}`)));
      expect(shown.map((s) => s.body.payload)).toEqual(created.map((_, i) => `durable ${i}`));
      // The view counted before the kill was kept: this was the last one.
      expect(shown[0]!.body.views_remaining).toBe(0);
      expect(second.output()).toMatch(/stale lock/i);
    } finally {
      await killed(second.child);
    }
    // Nothing of the data file is plaintext.
    for (const f of ['db.json', 'journal.jsonl'].filter((n) => existsSync(join(dataDir, n)))) {
      expect(readFileSync(join(dataDir, f), 'utf8')).not.toContain('durable 1');
    }
  });
});
