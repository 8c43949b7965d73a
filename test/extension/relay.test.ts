import { describe, expect, it, vi } from 'vitest';
import { describedApi } from '../../extension/lib/described-api';
import { problemOf, type Problem } from '../../extension/lib/problem';
import { qrPath } from '../../extension/lib/qr-path';
import { ask, relayedPushApi, relayedQrPath, type RelayRequest, type SendMessage } from '../../extension/lib/relay';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createRelayHandler, isRelayRequest } from '../../extension/lib/relay-handler';
import { apiError, fakeApi, SERVER } from './fakes';

/** What a call that must fail failed with (a call that succeeds fails the test). */
const failure = (call: Promise<unknown>): Promise<Problem> =>
  call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    problemOf,
  );

/** The popup's side and the background's, joined as runtime messages join them (copied as JSON). */
function wire(api = fakeApi()) {
  const createApi = vi.fn((c: { serverUrl: string; apiToken?: string }) => describedApi(api, c.serverUrl, Boolean(c.apiToken)));
  const pushed = vi.fn(async () => undefined);
  const readSelection = vi.fn(async (tabId: number) => `selected in tab ${tabId}`);
  const loadWords = async () => ['alpha', 'bravo', 'charlie'];
  const handle = createRelayHandler({ createApi, qrPath, openFileHost: async () => false, closeIdleFileHost: async () => false, pushed, readSelection, loadWords });
  const send: SendMessage = async (message) => JSON.parse(JSON.stringify(await handle(JSON.parse(JSON.stringify(message)) as RelayRequest)));
  return { api, createApi, send, pushed };
}

describe('relay (the popup asks, the background calls the server)', () => {
  it("answers the popup's tab selection, and remembers pushes and titles them for History, in the background", async () => {
    fakeBrowser.reset();
    const { send } = wire();
    expect(await ask(send, { relay: 'selection', tabId: 7 })).toBe('selected in tab 7');
    await ask(send, { relay: 'remember', urlToken: 'tok-a', kind: 'url', hint: 'example.org' });
    await ask(send, { relay: 'remember', urlToken: 'tok-b', kind: 'text', from: 'https://wiki.example.org/page' });
    expect(await ask(send, { relay: 'titles', records: [{ url_token: 'tok-a', name: null }, { url_token: 'tok-b', name: null }, { url_token: 'tok-c', name: 'Named' }] })).toEqual({
      'tok-a': { title: 'URL push · example.org', kind: 'URL' },
      'tok-b': { title: 'Text push from wiki.example.org', kind: 'Text' },
      'tok-c': { title: 'Named' },
    });
    expect(await ask(send, { relay: 'whole-link', record: { url_token: 'tok-a', html_url: 'https://x/p/tok-a' } })).toBe('https://x/p/tok-a');
    // The generator, for the popup.
    expect(await ask(send, { relay: 'generate', what: { rule: { length: 12, sets: ['digits'] } } })).toMatch(/^\d{12}$/);
    expect((await ask<string>(send, { relay: 'generate', what: { words: 4 } })).split(' ').every((w) => ['alpha', 'bravo', 'charlie'].includes(w))).toBe(true);
  });

  it('passes calls and answers through', async () => {
    const { api, send } = wire();
    const remote = relayedPushApi({ serverUrl: SERVER, apiToken: 'tok' }, send);
    const answer = await remote.create({ kind: 'text', payload: 'x' });
    expect(api.create).toHaveBeenCalledWith({ kind: 'text', payload: 'x' });
    expect(answer).toEqual(JSON.parse(JSON.stringify(await api.create.mock.results[0].value)));
    await remote.audit('abc', 2);
    expect(api.audit).toHaveBeenCalledWith('abc', 2);
  });

  it('keeps one client per server and token (calls made together share a batch)', async () => {
    const { createApi, send } = wire();
    const a = relayedPushApi({ serverUrl: SERVER, apiToken: 'tok' }, send);
    await Promise.all([a.version(), a.limits(), relayedPushApi({ serverUrl: SERVER, apiToken: 'tok' }, send).active(1)]);
    expect(createApi).toHaveBeenCalledTimes(1);
    await relayedPushApi({ serverUrl: SERVER, apiToken: 'other' }, send).active(1);
    expect(createApi).toHaveBeenCalledTimes(2);
    // At most four kept: after four other tokens, the first one's client is made again.
    for (const t of ['t3', 't4', 't5', 'tok']) await relayedPushApi({ serverUrl: SERVER, apiToken: t }, send).version();
    expect(createApi).toHaveBeenCalledTimes(6);
  });

  it('brings failures back described, with their field messages; a 401 worded for whether a token was sent', async () => {
    const { send } = wire(
      fakeApi({
        create: vi.fn(async () => Promise.reject(apiError('UNPROCESSABLE_CONTENT', 422, 'Validation failed', { name: ['is too long (maximum is 255 characters)'] }))),
        active: vi.fn(async () => Promise.reject(apiError('UNAUTHORIZED', 401))),
        expire: vi.fn(async () => Promise.reject(apiError('FORBIDDEN', 403, "That push doesn't belong to you."))),
      }),
    );
    const withToken = relayedPushApi({ serverUrl: SERVER, apiToken: 'tok' }, send);
    const problem = await failure(withToken.create({ kind: 'text', payload: 'x' }));
    expect(problem).toMatchObject({ kind: 'invalid', fields: { name: 'Name is too long (maximum is 255 characters).' } });
    expect((await failure(withToken.expire('abc'))).message).toBe("The server refused this (403 Forbidden): That push doesn't belong to you.");
    expect((await failure(withToken.active(1))).message).toMatch(/did not accept your API token/);
    expect((await failure(relayedPushApi({ serverUrl: SERVER }, send).active(1))).message).toMatch(/needs an API token/);
  });

  it('draws QR codes in the background', async () => {
    const { send } = wire();
    const qr = await relayedQrPath('https://push.example.org/p/abc', send);
    expect(qr.modules).toBeGreaterThan(21);
    expect(qr.path).toMatch(/^M\d+ \d+h1v1h-1z/);
  });

  it('answers only its own messages; a missing background is said, not waited for', async () => {
    expect(isRelayRequest({ relay: 'api' })).toBe(true);
    expect(isRelayRequest({ type: 'other' })).toBe(false);
    expect(isRelayRequest(null)).toBe(false);
    // Only PushApi's own methods are called, not whatever a message names.
    const { send } = wire();
    const answer = await send({ relay: 'api', connection: { serverUrl: SERVER }, method: 'constructor' as never, args: [] });
    expect(answer).toMatchObject({ ok: false, problem: { kind: 'unknown' } });
    const problem = await failure(relayedPushApi({ serverUrl: SERVER }, async () => undefined).version());
    expect(problem.message).toMatch(/background page did not answer/);
  });
});
