import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../../server/storage/store.js';
import { createPush } from '../../support/http.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * Linked secrets (issue 35 item 6): the 'linked' audit entry of both pushes is written in the same
 * atomic step as the new push, so no push that follows another exists without it. The process
 * "dies" right after the insert: from then on every write of the store fails, as it would for a
 * process that was killed (the store itself is real, on both backends).
 */
let server: TestServer;
let owner: string;

beforeAll(async () => {
  server = await startServer();
  ({ token: owner } = await createUserWithToken(server, 'atomic-link@example.com'));
});
afterAll(() => server.stop());

/** From the moment insertPush has returned, the store takes no more writes. */
function dyingAfterInsert(store: Store): { restore: () => void } {
  const own = store as unknown as Record<string, unknown>;
  const insertPush = store.insertPush.bind(store);
  let dead = false;
  const died = async () => {
    if (dead) throw new Error('the process died right after the insert');
  };
  own.insertPush = async (...args: Parameters<Store['insertPush']>) => {
    await died();
    await insertPush(...args);
    dead = true;
  };
  const updatePush = store.updatePush.bind(store);
  own.updatePush = async (...args: Parameters<Store['updatePush']>) => (await died(), updatePush(...args));
  const appendAudit = store.appendAudit.bind(store);
  own.appendAudit = async (...args: Parameters<Store['appendAudit']>) => (await died(), appendAudit(...args));
  return { restore: () => ['insertPush', 'updatePush', 'appendAudit'].forEach((m) => delete own[m]) };
}

describe("the 'linked' audit entries", () => {
  it('are on both trails when the process dies right after the new push is stored', async () => {
    const store = server.server.store;
    const first = await createPush(server, { payload: 'the password' }, owner);
    const dying = dyingAfterInsert(store);
    let second: any;
    try {
      second = await createPush(server, { payload: 'TOTP seed', follows: first.url_token }, owner);
    } finally {
      dying.restore();
    }
    const trail = async (urlToken: string) => (await store.listAudit(server.server.pushes.storageId(urlToken), 0, 10)).map((a) => a.kind);
    expect(await trail(second.url_token)).toEqual(['creation', 'linked']);
    expect(await trail(first.url_token)).toEqual(['creation', 'linked']);
  });
});
