import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnBuilt, spawnBuiltServer } from '../../support/spawn-server.js';
import { tempDirs } from '../../support/temp-dirs.js';

const freshDir = tempDirs('durability');

async function createPush(url: string, payload: string) {
  const r = await fetch(`${url}/api/v2/pushes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ push: { payload, expire_after_views: 3 } }),
  });
  expect(r.status).toBe(201);
  return (await r.json()).url_token as string;
}

describe('durability of the embedded store (real processes)', () => {
  it('keeps every push acknowledged with 201 when the process is killed with SIGKILL right after', async () => {
    const dataDir = freshDir();
    const first = await spawnBuiltServer({ DATA_DIR: dataDir });
    const acked = await Promise.all(Array.from({ length: 30 }, (_, i) => createPush(first.url, `secret number ${i}`)));
    // Views acknowledged before the kill survive it too.
    for (const token of acked) expect((await fetch(`${first.url}/api/v2/pushes/${token}`)).status).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;
    // Each view journalled only the fields it changed, not the push's ciphertext again.
    const views = readFileSync(join(dataDir, 'journal.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"c":"pushes"') && l.includes('"m":'));
    expect(views).toHaveLength(30);
    for (const line of views) expect(Object.keys(JSON.parse(line).m).sort()).toEqual(['firstViewedAt', 'updatedAt', 'views']);
    // The killed process left its lock behind: the next start takes it over.
    expect(existsSync(join(dataDir, 'secret-push.lock'))).toBe(true);

    const second = await spawnBuiltServer({ DATA_DIR: dataDir });
    try {
      expect(second.output()).toMatch(/stale lock/i);
      for (const [i, token] of acked.entries()) {
        const r = await fetch(`${second.url}/api/v2/pushes/${token}`);
        expect(r.status).toBe(200);
        expect(await r.json()).toMatchObject({ payload: `secret number ${i}`, views_remaining: 1 });
      }
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 60_000);

  it('refuses a second server on the same data dir with a clear message', async () => {
    const dataDir = freshDir();
    const first = await spawnBuiltServer({ DATA_DIR: dataDir });
    try {
      const second = await spawnBuilt('server/main.js', [], { DATA_DIR: dataDir, PORT: '0', SHUTDOWN_DELAY_SECONDS: '0' });
      expect(await second.exited).toBe(1);
      expect(second.output()).toMatch(/in use by another Secret Push process \(pid \d+\)/);
      // The first one is unharmed.
      expect((await fetch(`${first.url}/api/v2/version`)).status).toBe(200);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  }, 60_000);

  it('the users CLI refuses while a server holds the data dir, and works once it has stopped', async () => {
    const dataDir = freshDir();
    const server = await spawnBuiltServer({ DATA_DIR: dataDir });
    const refused = await spawnBuilt('server/cli/users.js', ['create', 'ops@example.com'], { DATA_DIR: dataDir });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toMatch(/Refusing to change accounts/);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);

    const cli = await spawnBuilt('server/cli/users.js', ['create', 'ops@example.com'], { DATA_DIR: dataDir });
    expect(await cli.exited).toBe(0);
    const token = cli.output().trim().split('\n').pop()!;
    expect(token).toMatch(/^sp_[A-Za-z0-9_-]{43}$/);

    const restarted = await spawnBuiltServer({ DATA_DIR: dataDir });
    try {
      const r = await fetch(`${restarted.url}/api/v2/pushes/active`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(200);
      const bad = await fetch(`${restarted.url}/api/v2/pushes/active`, { headers: { authorization: `Bearer ${token}x` } });
      expect(bad.status).toBe(401);
    } finally {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }
  }, 60_000);

  it('refuses to start on a corrupt data file and leaves it untouched', async () => {
    const dataDir = freshDir();
    const corrupt = '{"pushes": {"x": {"token": 5}}';
    writeFileSync(join(dataDir, 'db.json'), corrupt);
    const proc = await spawnBuilt('server/main.js', [], { DATA_DIR: dataDir, PORT: '0', SHUTDOWN_DELAY_SECONDS: '0' });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toMatch(/db\.json is not valid JSON/);
    expect(readFileSync(join(dataDir, 'db.json'), 'utf8')).toBe(corrupt);
  }, 30_000);

  it('refuses a hand-edited data file that is valid JSON but not valid data, naming the field, and leaves it untouched', async () => {
    const dataDir = freshDir();
    const first = await spawnBuiltServer({ DATA_DIR: dataDir });
    await createPush(first.url, 'edited by hand');
    first.child.kill('SIGTERM');
    await first.exited;
    // A clean stop leaves everything in db.json; an admin then edits a field into nonsense.
    // (In a text editor: the push's line, its views field.)
    const original = readFileSync(join(dataDir, 'db.json'), 'utf8');
    const edited = original.split('\n').map((l) => (l.startsWith('["pushes","') ? l.replace('"views":0', '"views":"many"') : l)).join('\n');
    expect(edited).not.toBe(original);
    writeFileSync(join(dataDir, 'db.json'), edited);
    const proc = await spawnBuilt('server/main.js', [], { DATA_DIR: dataDir, PORT: '0', SHUTDOWN_DELAY_SECONDS: '0' });
    expect(await proc.exited).toBe(1);
    // Pushes are stored under keyed hashes of their tokens (never the token itself).
    expect(proc.output()).toMatch(/does not hold valid Secret Push data: pushes\.H[\w-]+\.views/);
    expect(readFileSync(join(dataDir, 'db.json'), 'utf8')).toBe(edited);
  }, 30_000);

  it('never starts with a built-in key: it generates one with mode 0600 and says so', async () => {
    const dataDir = freshDir();
    const server = await spawnBuiltServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    try {
      expect(server.output()).toMatch(/generated a new random key/);
      const { statSync } = await import('node:fs');
      expect(statSync(join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 30_000);
});
