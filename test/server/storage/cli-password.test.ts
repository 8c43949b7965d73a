import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Browser } from '../pages/browser.js';
import { startServer } from '../../support/server.js';
import { totpCode } from '../../support/totp.js';
import { csrfFrom, textOf } from '../pages/browser.js';

const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-cli-password-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function cli(args: string[], input = ''): Promise<{ code: number | null; out: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR'].includes(k)));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/users.ts', ...args], { env: { ...env, DATA_DIR: dataDir }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe('users CLI: an account made on the command line can sign in to the pages', () => {
  it('create, then set-password from stdin, then sign in through the sign-in form', async () => {
    expect((await cli(['create', 'ops@example.com'])).code).toBe(0);
    const short = await cli(['set-password', 'ops@example.com'], 'short\n');
    expect(short.code).toBe(1);
    expect(short.out).toMatch(/too short/);
    const unknown = await cli(['set-password', 'nobody@example.com'], 'long enough password\n');
    expect(unknown.code).toBe(1);
    expect(unknown.out).toMatch(/no account nobody@example.com/);
    const set = await cli(['set-password', 'ops@example.com'], 'a long enough password\n');
    expect(set.out).toMatch(/Password set for ops@example.com/);
    expect(set.code).toBe(0);

    const server = await startServer({ DATA_DIR: dataDir });
    try {
      const b = new Browser(server);
      const res = await b.submit('/users/sign_in', '/users/sign_in', { email: 'ops@example.com', password: 'a long enough password' });
      expect(res.status).toBe(303);
      expect((await b.get('/users/token')).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 60_000);

  it('reset-second-factor: an account that lost its authenticator app signs in with its password again', async () => {
    let server = await startServer({ DATA_DIR: dataDir });
    try {
      const b = new Browser(server);
      await b.signUp('lost-phone@example.com', 'a long enough password');
      const setup = await b.get('/users/two_factor/setup');
      const secret = textOf(setup.text, 'totp-secret')!.replace(/\s/g, '');
      expect((await b.post('/users/two_factor/setup', { csrf_token: csrfFrom(setup.text, '/users/two_factor/setup'), code: totpCode(secret) })).status).toBe(200);
      const asked = await new Browser(server).submit('/users/sign_in', '/users/sign_in', { email: 'lost-phone@example.com', password: 'a long enough password' });
      expect(asked.headers.get('location')).toBe('/users/two_factor');
    } finally {
      await server.close();
    }
    const unknown = await cli(['reset-second-factor', 'nobody@example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toMatch(/no account nobody@example.com/);
    const ghost = await cli(['tokens', 'ghost@example.com']);
    expect(ghost.code).toBe(1);
    expect(ghost.out).toMatch(/no account ghost@example.com/);
    const reset = await cli(['reset-second-factor', 'lost-phone@example.com']);
    expect(reset.out).toMatch(/Removed the authenticator app and its recovery codes from lost-phone@example.com; ended 1 browser session/);
    expect(reset.code).toBe(0);
    server = await startServer({ DATA_DIR: dataDir });
    try {
      // The mistyped emails made no account.
      expect(await server.server.store.getUserByEmail('nobody@example.com')).toBeUndefined();
      expect(await server.server.store.getUserByEmail('ghost@example.com')).toBeUndefined();
      const b = new Browser(server);
      const res = await b.submit('/users/sign_in', '/users/sign_in', { email: 'lost-phone@example.com', password: 'a long enough password' });
      expect(res.headers.get('location')).toBe('/dashboard');
      expect(textOf((await b.get('/users/security')).text, 'totp-status')).toMatch(/^Off/);
    } finally {
      await server.close();
    }
  }, 60_000);
});
