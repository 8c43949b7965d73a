import { createHash, webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { connectExtension, type ConnectFlowEnv } from '../../extension/lib/connect-flow';
import { handleConnect } from '../../extension/lib/connect-handler';

const REDIRECT = 'https://abcdefghijklmnopabcdefghijklmnop.chromiumapp.org/';
const SERVER = 'https://push.example.org';

/**
 * The extension's side of Connect, against a stand-in for the identity window and the token
 * endpoint that checks what a real server checks (the browsers and the real server are in
 * test/e2e/extension-connect.test.ts and test/server/accounts/extension-connect.test.ts).
 */
function world(window: (asked: URL) => string | Promise<string>, tokenStatus = 200) {
  let challenge = '';
  const exchanged: Record<string, string>[] = [];
  const env: ConnectFlowEnv = {
    redirectUrl: () => REDIRECT,
    launchWebAuthFlow: async (url) => {
      const asked = new URL(url);
      challenge = asked.searchParams.get('code_challenge')!;
      return window(asked);
    },
    fetch: (async (input: string, init: RequestInit) => {
      expect(input).toBe(`${SERVER}/extension/token`);
      const body = JSON.parse(String(init.body)) as Record<string, string>;
      exchanged.push(body);
      const s256 = createHash('sha256').update(body.code_verifier!).digest('base64url');
      if (tokenStatus !== 200 || s256 !== challenge) return new Response(JSON.stringify({ error: 'invalid_grant', error_description: 'no' }), { status: 400 });
      return new Response(JSON.stringify({ token: 'sp_token', label: 'Secret Push extension — Chromium, 2026-11-28' }), { status: 200 });
    }) as typeof fetch,
    crypto: webcrypto as unknown as Crypto,
  };
  return { env, exchanged };
}

const approve = (asked: URL) => `${REDIRECT}?code=one-time&state=${asked.searchParams.get('state')}`;

describe('connectExtension', () => {
  it('asks the connect page with an S256 challenge and a state, and exchanges the code with the verifier; no token in any URL', async () => {
    let asked: URL | undefined;
    const { env, exchanged } = world((u) => ((asked = u), approve(u)));
    const answer = await connectExtension(env, `${SERVER}/`);
    expect(answer).toEqual({ ok: true, token: 'sp_token', label: 'Secret Push extension — Chromium, 2026-11-28' });
    expect(asked!.origin + asked!.pathname).toBe(`${SERVER}/extension/connect`);
    expect(asked!.searchParams.get('redirect_uri')).toBe(REDIRECT);
    expect(asked!.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked!.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(asked!.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(exchanged).toEqual([{ grant_type: 'authorization_code', code: 'one-time', code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), redirect_uri: REDIRECT }]);
  });

  it('an answer for another request (wrong state) is not exchanged', async () => {
    const { env, exchanged } = world(() => `${REDIRECT}?code=one-time&state=someone-elses`);
    expect(await connectExtension(env, SERVER)).toMatchObject({ ok: false, reason: 'failed' });
    expect(exchanged).toEqual([]);
  });

  it('Cancel on the page, or the window closed, is "cancelled"', async () => {
    const denied = world((u) => `${REDIRECT}?error=access_denied&state=${u.searchParams.get('state')}`);
    expect(await connectExtension(denied.env, SERVER)).toMatchObject({ ok: false, reason: 'cancelled' });
    const closed = world(() => Promise.reject(new Error('The user did not approve access.')));
    expect(await connectExtension(closed.env, SERVER)).toMatchObject({ ok: false, reason: 'cancelled', detail: 'The user did not approve access.' });
  });

  it("a code the server refuses is 'refused' with the server's words", async () => {
    const { env } = world(approve, 400);
    expect(await connectExtension(env, SERVER)).toEqual({ ok: false, reason: 'refused', detail: 'no' });
  });
});

describe('handleConnect', () => {
  it('connects to the saved server and keeps the token for its origin, as a pasted one; the popup gets no token', async () => {
    const { env } = world(approve);
    const saved: string[][] = [];
    const answer = await handleConnect({
      ...env,
      loadSettings: async () => ({ serverUrl: `${SERVER}/`, apiToken: '', defaults: {} }),
      saveToken: async (token, origin) => void saved.push([token, origin]),
    });
    expect(answer).toEqual({ ok: true, label: 'Secret Push extension — Chromium, 2026-11-28' });
    expect(saved).toEqual([['sp_token', SERVER]]);
  });

  it('saves nothing when connecting fails', async () => {
    const { env } = world(approve, 400);
    const saved: string[][] = [];
    await handleConnect({ ...env, loadSettings: async () => ({ serverUrl: SERVER, apiToken: 'old', defaults: {} }), saveToken: async (t, o) => void saved.push([t, o]) });
    expect(saved).toEqual([]);
  });
});
