import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createPush } from '../../support/http.js';
import { createUserWithToken, startServer, testStore, type TestServer } from '../../support/server.js';

/**
 * Burn on guessing: a push with `max_failed_passphrase_attempts` expires at that many wrong
 * passphrases, once however many guesses race, with its payload and files erased, an audit
 * entry, and the count in the owner's read receipt. The per-push guess limit is raised so that
 * a burst of concurrent guesses reaches the push at once.
 */
describe('burn on guessing', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer({ PASSPHRASE_ATTEMPTS_PER_MINUTE: '100', PASSPHRASE_ATTEMPTS_PER_IP_PER_MINUTE: '1000' });
    ({ token } = await createUserWithToken(server, 'burn@example.com'));
  });
  afterAll(() => server.stop());

  it('concurrent wrong guesses expire the push exactly once, erase it, and the right passphrase no longer opens it', async () => {
    const push = await createPush(server, { payload: 'launch codes', passphrase: 'correct horse', max_failed_passphrase_attempts: 3 }, token);
    expect(push.max_failed_passphrase_attempts).toBe(3);
    expect(push.failed_passphrase_attempts).toBe(0);

    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api.get(server, `/api/v2/pushes/${push.url_token}?passphrase=wrong${i}`)),
    );
    // Each answer is a refusal: the wrong passphrase (401), or the push already gone (200, expired, no payload).
    for (const g of guesses) {
      if (g.status === 401) expect(g.body).toMatchObject({ error: 'That passphrase is incorrect.', status: 'unauthorized' });
      else expect([g.status, g.body.expired, g.body.payload]).toEqual([200, true, null]);
    }

    const after = await api.get(server, `/api/v2/pushes/${push.url_token}?passphrase=correct%20horse`);
    expect(after.status).toBe(200);
    expect(after.body.expired).toBe(true);
    expect(after.body.payload).toBeNull();

    const audit = await api.get(server, `/api/v2/pushes/${push.url_token}/audit`, { token });
    const kinds: string[] = audit.body.logs.map((l: { kind: string }) => l.kind);
    expect(kinds.filter((k) => k === 'expire')).toHaveLength(1);
    // The expiry comes right after the third wrong passphrase.
    expect(kinds.slice(0, 5)).toEqual(['creation', 'failed_passphrase', 'failed_passphrase', 'failed_passphrase', 'expire']);

    const [listed] = (await api.get(server, '/api/v2/pushes/expired', { token })).body;
    expect(listed.url_token).toBe(push.url_token);
    expect(listed.failed_passphrase_attempts).toBe(kinds.filter((k) => k === 'failed_passphrase').length);
    expect(listed.failed_passphrase_attempts).toBeGreaterThanOrEqual(3);
    expect(listed.deleted).toBe(false);
  });

  it('a request without a passphrase is no guess: 401 and its audit entry, never counted toward the burn', async () => {
    const push = await createPush(server, { payload: 'asked twice', passphrase: 'correct horse', max_failed_passphrase_attempts: 2 }, token);
    for (const path of [`/api/v2/pushes/${push.url_token}`, `/api/v2/pushes/${push.url_token}?passphrase=`, `/p/${push.url_token}.json`]) {
      const asked = await api.get(server, path);
      expect([path, asked.status, asked.body.error]).toEqual([path, 401, 'That passphrase is incorrect.']);
    }
    const right = await api.get(server, `/api/v2/pushes/${push.url_token}?passphrase=correct%20horse`);
    expect([right.status, right.body.payload]).toEqual([200, 'asked twice']);
    const audit = await api.get(server, `/api/v2/pushes/${push.url_token}/audit`, { token });
    expect(audit.body.logs.map((l: { kind: string }) => l.kind)).toEqual(['creation', 'failed_passphrase', 'failed_passphrase', 'failed_passphrase', 'view']);
    const [listed] = (await api.get(server, '/api/v2/pushes/active', { token })).body.filter((p: { url_token: string }) => p.url_token === push.url_token);
    expect(listed.failed_passphrase_attempts).toBe(0);
  });

  it('erases the files of a file push it burns', async () => {
    const form = new FormData();
    form.append('push[passphrase]', 'sesame');
    form.append('push[max_failed_passphrase_attempts]', '1');
    form.append('push[files][]', new Blob(['file contents']), 'plan.txt');
    const created = await api.post(server, '/api/v2/pushes', { raw: form, token });
    expect(created.status).toBe(201);
    const id = created.body.push_id as string;
    const stored = () => readdirSync(`${server.dataDir}/files`, { recursive: true }).map(String).some((f) => f.includes(id));
    if (testStore === 'embedded') expect(stored()).toBe(true);
    const wrong = await api.get(server, `/api/v2/pushes/${created.body.url_token}?passphrase=nope`);
    expect(wrong.status).toBe(401);
    const right = await api.get(server, `/api/v2/pushes/${created.body.url_token}?passphrase=sesame`);
    expect([right.body.expired, right.body.files]).toEqual([true, []]);
    if (testStore === 'embedded') expect(stored()).toBe(false);
  });

  it('without the option a push survives wrong guesses; the option without a passphrase or out of range is a 422 naming it', async () => {
    const push = await createPush(server, { payload: 'x', passphrase: 'p' }, token);
    expect(push.max_failed_passphrase_attempts).toBeNull();
    for (let i = 0; i < 3; i++) expect((await api.get(server, `/api/v2/pushes/${push.url_token}?passphrase=bad`)).status).toBe(401);
    expect((await api.get(server, `/api/v2/pushes/${push.url_token}?passphrase=p`)).body.payload).toBe('x');

    const noPassphrase = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x', max_failed_passphrase_attempts: 2 } } });
    expect(noPassphrase.status).toBe(422);
    expect(noPassphrase.body).toEqual({ max_failed_passphrase_attempts: ['needs a passphrase (it counts wrong passphrases)'] });
    const tooMany = await api.post(server, '/api/v2/pushes', { json: { push: { payload: 'x', passphrase: 'p', max_failed_passphrase_attempts: 5000 } } });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.max_failed_passphrase_attempts[0]).toContain('between 0 (off) and 1000');
  });

  it('tRPC creates with the same option', async () => {
    const res = await api.post(server, '/trpc/pushes.create', {
      token,
      json: { payload: 'via trpc', passphrase: 'pp', max_failed_passphrase_attempts: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.result.data.max_failed_passphrase_attempts).toBe(2);
  });
});

describe('burn on guessing: the server default (MAX_FAILED_PASSPHRASE_ATTEMPTS)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ MAX_FAILED_PASSPHRASE_ATTEMPTS: '2' });
  });
  afterAll(() => server.stop());

  it('applies to pushes with a passphrase that do not say, and 0 turns it off for one push', async () => {
    const limits = await api.get(server, '/trpc/limits');
    expect(limits.body.result.data.max_failed_passphrase_attempts).toBe(2);
    const guarded = await createPush(server, { payload: 'a', passphrase: 'p' });
    const open = await createPush(server, { payload: 'b', passphrase: 'p', max_failed_passphrase_attempts: 0 });
    const plain = await createPush(server, { payload: 'c' });
    for (let i = 0; i < 2; i++) {
      await api.get(server, `/api/v2/pushes/${guarded.url_token}?passphrase=bad`);
      await api.get(server, `/api/v2/pushes/${open.url_token}?passphrase=bad`);
    }
    expect((await api.get(server, `/api/v2/pushes/${guarded.url_token}?passphrase=p`)).body.expired).toBe(true);
    expect((await api.get(server, `/api/v2/pushes/${open.url_token}?passphrase=p`)).body.payload).toBe('b');
    expect((await api.get(server, `/api/v2/pushes/${plain.url_token}`)).body.payload).toBe('c');
  });
});

/**
 * Guesses already in flight when another one burns the push (read before the burn, judged after
 * it) are answered as any request for an expired push is, right or wrong, and are not counted:
 * no `failed_passphrase` entry, no `push.passphrase_failed` event. With one scrypt at a time the
 * guesses are judged in the order they queued, so the right one, sent once the first wrong one
 * has been answered, is judged after the burn.
 */
describe('burn on guessing: guesses judged after the burn', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer({
      // At the production cost: the race needs guesses still hashing while others arrive.
      PASSWORD_HASH_COST: '14',
      PASSPHRASE_ATTEMPTS_PER_MINUTE: '100',
      PASSPHRASE_ATTEMPTS_PER_IP_PER_MINUTE: '1000',
      HASHING_CONCURRENCY: '1',
      // Events stay in the outbox (listed by /webhooks/deliveries); nothing is sent.
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_SECONDS: '3600',
    });
    ({ token } = await createUserWithToken(server, 'late-guesses@example.com'));
  });
  afterAll(() => server.stop());

  it('10 concurrent wrong guesses with a limit of 3: three counted, then one answer for every guess, right or wrong, and no event', async () => {
    expect((await api.post(server, '/api/v2/webhooks', { token, json: { url: 'http://127.0.0.1:9/hook' } })).status).toBe(201);
    const push = await createPush(server, { payload: 'launch codes', passphrase: 'correct horse', max_failed_passphrase_attempts: 3 }, token);
    const guess = (passphrase: string) => api.get(server, `/api/v2/pushes/${push.url_token}?passphrase=${encodeURIComponent(passphrase)}`);

    let firstAnswered!: () => void;
    const first = new Promise<void>((resolve) => (firstAnswered = resolve));
    const wrong = Array.from({ length: 10 }, (_, i) => guess(`wrong${i}`).finally(() => firstAnswered()));
    await first;
    const right = guess('correct horse');
    const answers = await Promise.all(wrong);
    const rightAnswer = await right;
    const lateWrong = await guess('wrong again');

    const shape = (r: Awaited<ReturnType<typeof guess>>) => [r.status, r.body.expired, r.body.payload ?? null, r.body.error ?? null];
    const refused = [401, undefined, null, 'That passphrase is incorrect.'];
    const gone = [200, true, null, null];
    // The three counted guesses are refused; every other one, the right one and a later wrong
    // one, gets the expired push's answer.
    expect(answers.map(shape).filter((s) => s[0] === 401)).toEqual(Array(3).fill(refused));
    expect(answers.map(shape).filter((s) => s[0] !== 401)).toEqual(Array(7).fill(gone));
    expect(shape(rightAnswer)).toEqual(gone);
    expect(shape(lateWrong)).toEqual(gone);

    const kinds: string[] = (await api.get(server, `/api/v2/pushes/${push.url_token}/audit`, { token })).body.logs.map((l: { kind: string }) => l.kind);
    expect(kinds.slice(0, 5)).toEqual(['creation', 'failed_passphrase', 'failed_passphrase', 'failed_passphrase', 'expire']);
    // What follows is what any request for an expired push leaves: a failed view each.
    expect(kinds.slice(5)).toEqual(Array(9).fill('failed_view'));

    const [listed] = (await api.get(server, '/api/v2/pushes/expired', { token })).body;
    expect(listed.failed_passphrase_attempts).toBe(3);
    const types: string[] = (await api.get(server, '/api/v2/webhooks/deliveries', { token })).body.map((d: { type: string }) => d.type);
    expect(types.filter((t) => t === 'push.passphrase_failed')).toHaveLength(3);
    expect(types.filter((t) => t === 'push.expired')).toHaveLength(1);
  });
});
