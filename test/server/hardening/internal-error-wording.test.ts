import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { api } from '../../support/http.js';
import { createUserWithToken, startServer, testStore, type TestServer } from '../../support/server.js';

/**
 * An unexpected failure (here a real one: a stored push record damaged on disk or in the
 * database, so the store or the service trips over it) is answered with the same words on every
 * adapter, REST v2, v1 and tRPC: "Internal error. The request was not completed." What went
 * wrong (a file path, PostgreSQL's or zod's error text) goes to the log only. tRPC used to send
 * the error's own message (issue 28).
 */
const WORDS = 'Internal error. The request was not completed.';
let server: TestServer | undefined;
afterAll(() => server?.stop());

/**
 * Replaces the push record's `files` (an array) with a string where it is kept: in the database,
 * or in the embedded store's memory (it checks its files when it starts and would refuse to
 * start on them, so the damage is done to the record it holds).
 */
async function damageRecord(s: TestServer, storageId: string) {
  if (s.databaseUrl) {
    const c = new pg.Client({ connectionString: s.databaseUrl });
    await c.connect();
    await c.query(`UPDATE pushes SET record = jsonb_set(record::jsonb, '{files}', '"damaged"')::json WHERE token = $1`, [storageId]);
    await c.end();
    return;
  }
  const record = await s.server.store.getPush(storageId);
  (record as unknown as { files: string }).files = 'damaged';
}

it(`a damaged record is "Internal error" on REST v2, v1 and tRPC, its details in the log only (${testStore})`, async () => {
  server = await startServer();
  const { token } = await createUserWithToken(server, 'damaged@example.com');
  const made = await api.post(server, '/api/v2/pushes', { token, json: { push: { payload: 'kept', expire_after_views: 5 } } });
  expect(made.status).toBe(201);
  const urlToken: string = made.body.url_token;
  await damageRecord(server, server.server.pushes.storageId(urlToken));

  const answers = [
    await api.get(server, `/api/v2/pushes/${urlToken}`, { token }),
    await api.get(server, `/p/${urlToken}.json`, { token }),
    await api.post(server, '/trpc/pushes.retrieve', { token, json: { url_token: urlToken } }),
  ];
  expect(answers.map((a) => a.status)).toEqual([500, 500, 500]);
  expect(answers[0]!.body).toEqual({ error: WORDS });
  expect(answers[1]!.body).toEqual({ error: WORDS });
  for (const trpc of answers.slice(2)) {
    expect(trpc.body.error.message).toBe(WORDS);
    expect(trpc.body.error.data.code).toBe('INTERNAL_SERVER_ERROR');
    expect(trpc.text).not.toMatch(/damaged|files|expected|\/tmp\/|\.ts\b|at \w+ \(/);
  }
  // The cause is logged, for the operator.
  expect(server.logs.join('\n')).toMatch(/damaged|files|expected/);
});
