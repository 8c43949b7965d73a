import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Browser } from '../pages/browser.js';
import { startServer } from '../../support/server.js';
import { runUsersCommand, spawnNode } from '../../support/spawn-server.js';
import { totpCode } from '../../support/totp.js';
import { csrfFrom, textOf } from '../pages/browser.js';

const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-cli-password-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// The built command (as the container runs `npm run users`): no TypeScript loader per command.
const cli = (args: string[], input = '') => runUsersCommand(args, { DATA_DIR: dataDir }, input);

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

  it('npm run users in a checkout runs the TypeScript sources (scripts/cli.mjs through tsx) on the same data', async () => {
    const listed = spawnNode(['scripts/cli.mjs', 'users', 'tokens', 'ops@example.com'], { DATA_DIR: dataDir });
    expect(await listed.exited, listed.output()).toBe(0);
    // The token the create command made in the first test, read back by the sources' command.
    expect(listed.output()).toMatch(/^[0-9a-f-]{36}\t\S+\tCLI token$/m);
    const unknown = spawnNode(['scripts/cli.mjs', 'users', 'tokens', 'nobody@example.com'], { DATA_DIR: dataDir });
    expect(await unknown.exited).toBe(1);
    expect(unknown.output()).toMatch(/no account nobody@example.com/);
  });
});
