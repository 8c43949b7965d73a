import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.js';
import { hashSecret, verifySecret } from '../../../server/crypto/secret-hash.js';
import { Browser } from '../pages/browser.js';
import { startServer, type TestServer } from '../../support/server.js';

/** PASSWORD_HASH_COST: scrypt's cost (log2 N) for new password and passphrase hashes. */
describe('scrypt cost of new hashes', () => {
  it('is written into each hash, and a hash made at one cost verifies whatever the setting is now', async () => {
    const cheap = await hashSecret('correct horse', 10);
    const usual = await hashSecret('correct horse');
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(usual).toMatch(/^scrypt\$16384\$8\$1\$/);
    for (const stored of [cheap, usual]) {
      expect(await verifySecret('correct horse', stored)).toBe(true);
      expect(await verifySecret('correct horsf', stored)).toBe(false);
    }
  });

  it('is 14 unless set, and refused outside 10–17 with the variable named', () => {
    expect(loadConfig({}).hashing.cost).toBe(14);
    expect(loadConfig({ PASSWORD_HASH_COST: '17' }).hashing.cost).toBe(17);
    for (const bad of ['9', '18', 'high', '12.5']) {
      expect(() => loadConfig({ PASSWORD_HASH_COST: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ PASSWORD_HASH_COST: bad }), bad).toThrow(/PASSWORD_HASH_COST/);
    }
  });
});

describe('a server at a cost below the default', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ PASSWORD_HASH_COST: '11' });
  });
  afterAll(() => server.stop());

  it('says at start that it is meant for tests, and hashes a new password at that cost', async () => {
    expect(server.logs.join('\n')).toMatch(/PASSWORD_HASH_COST=11 is below the default 14/);
    await new Browser(server).signUp('cost@example.com', 'a long enough password');
    const user = await server.server.store.getUserByEmail('cost@example.com');
    expect(user?.passwordHash).toMatch(/^scrypt\$2048\$8\$1\$/);
  });

  it('says nothing at the default cost', async () => {
    const usual = await startServer({ PASSWORD_HASH_COST: '14' });
    try {
      expect(usual.logs.join('\n')).not.toMatch(/PASSWORD_HASH_COST/);
    } finally {
      await usual.stop();
    }
  });
});
