import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Browser } from '../pages/browser.js';
import { startServer } from '../../support/server.js';
import { runUsersCommand } from '../../support/spawn-server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'secret-push-cli-admin-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// The built command (as the container runs `npm run users`): no TypeScript loader per command.
const cli = (args: string[], input = '') => runUsersCommand(args, { DATA_DIR: dataDir, SIGN_UP: 'invite' }, input);

describe('users CLI: administrators and invites', () => {
  it('admin <email> grants the role (logged as the command line), --revoke takes it back; invite prints a link that signs up once', async () => {
    expect((await cli(['create', 'ops@example.com'])).code).toBe(0);
    expect((await cli(['set-password', 'ops@example.com'], 'a long enough password\n')).code).toBe(0);
    const unknown = await cli(['admin', 'nobody@example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toMatch(/There is no account nobody@example.com/);
    const granted = await cli(['admin', 'ops@example.com']);
    expect(granted.out).toMatch(/ops@example.com is now an administrator/);
    const invite = await cli(['invite', 'new@example.com', '--days', '2']);
    expect(invite.code).toBe(0);
    const link = /(http\S+\/users\/sign_up\?invite=[\w-]+)/.exec(invite.out)![1]!;
    expect(invite.out).toMatch(/Invite for new@example.com, valid until/);

    const server = await startServer({ DATA_DIR: dataDir, SIGN_UP: 'invite' });
    try {
      const b = new Browser(server);
      expect((await b.submit('/users/sign_in', '/users/sign_in', { email: 'ops@example.com', password: 'a long enough password' })).status).toBe(303);
      const log = await b.get('/admin/log');
      expect(log.status).toBe(200);
      expect(log.text).toMatch(/command line<\/td><td><code>invite.create<\/code><\/td><td>new@example.com/);
      expect(log.text).toMatch(/command line<\/td><td><code>user.grant-admin<\/code><\/td><td>ops@example.com/);
      const url = new URL(link);
      const invite = url.searchParams.get('invite')!;
      const made = await new Browser(server).submit(url.pathname + url.search, '/users/sign_up', { invite, email: 'new@example.com', password: 'correct horse battery' });
      expect(made.status).toBe(303);
    } finally {
      await server.close();
    }
    const revoked = await cli(['admin', 'ops@example.com', '--revoke']);
    expect(revoked.out).toMatch(/ops@example.com is no longer an administrator/);
    const again = await startServer({ DATA_DIR: dataDir });
    try {
      const b = new Browser(again);
      await b.submit('/users/sign_in', '/users/sign_in', { email: 'ops@example.com', password: 'a long enough password' });
      expect((await b.get('/admin')).status).toBe(403);
    } finally {
      await again.close();
    }
  }, 90_000);
});
