import { passphraseCheck } from '../../shared/e2e/passphrase-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64url } from '../../shared/e2e/base64url';
import { createDecryptStream } from '../../shared/e2e/envelope-crypto';
import { decodeLinkKey } from '../../shared/e2e/link-key';
import { decryptPayload } from '../../shared/e2e/push-content';
import { endToEndWanted } from '../../extension/lib/push-options';
import { sendFilePush, sendPush } from '../../extension/lib/push-sending';
import { wholeLink } from '../../extension/lib/link-keys';
import { fakeApi, record } from './fakes';

const keyOf = async (link: string) => {
  const key = await decodeLinkKey(new URL(link).hash);
  if (!key.ok) throw new Error(`no key in ${link}`);
  return key.key;
};

describe('pushing end to end from the extension', () => {
  it('is wanted for text and files when the setting allows it and the server offers it', () => {
    expect(endToEndWanted('text', {}, { end_to_end: true })).toBe(true);
    expect(endToEndWanted('file', {}, { end_to_end: true })).toBe(true);
    expect(endToEndWanted('text', { end_to_end: false }, { end_to_end: true })).toBe(false);
    expect(endToEndWanted('text', {}, {})).toBe(false); // an older server
    expect(endToEndWanted('text', {}, undefined)).toBe(false);
    expect(endToEndWanted('url', {}, { end_to_end: true })).toBe(false);
    expect(endToEndWanted('qr', {}, { end_to_end: true })).toBe(false);
  });

  it('sends a text as an envelope with the passphrase check in place of the passphrase, and puts the key only in the returned link', async () => {
    const api = fakeApi();
    const pushed = await sendPush(api, { kind: 'text', payload: 'hunter2', passphrase: 'a passphrase', expire_after_views: 2 }, true);
    const sent = api.create.mock.calls[0]![0];
    expect(sent).toMatchObject({ kind: 'text', end_to_end: true, expire_after_views: 2 });
    expect(JSON.stringify(sent)).not.toContain('hunter2');
    expect(JSON.stringify(sent)).not.toContain('a passphrase');
    expect(pushed.html_url).toMatch(/\/r#[A-Za-z0-9_-]{48}$/);
    expect(JSON.stringify(sent)).not.toContain(pushed.html_url.split('#')[1]);
    const key = await keyOf(pushed.html_url);
    expect(sent.passphrase).toBe(await passphraseCheck(key, 'a passphrase'));
    expect(await decryptPayload(key, sent.payload, 'a passphrase')).toEqual({ content: 'text', text: 'hunter2' });
  });

  it('remembers the key locally, so History can copy the whole link later', async () => {
    const api = fakeApi();
    const pushed = await sendPush(api, { kind: 'text', payload: 'for later' }, true);
    const [bare] = pushed.html_url.split('#');
    expect(await wholeLink({ url_token: pushed.url_token, html_url: bare! })).toBe(pushed.html_url);
    expect(await wholeLink({ url_token: 'someone-elses-token', html_url: 'https://s.example/p/x/r' })).toBe('https://s.example/p/x/r');
  });

  it('sends as it is when end-to-end is off', async () => {
    const api = fakeApi();
    const pushed = await sendPush(api, { kind: 'text', payload: 'plain', passphrase: 'pp' }, false);
    expect(api.create.mock.calls[0]![0]).toEqual({ kind: 'text', payload: 'plain', passphrase: 'pp' });
    expect(pushed.html_url).not.toContain('#');
  });

  it('refuses to hand out a link when the server did not take the push as end to end', async () => {
    const api = fakeApi({ create: async () => record() });
    await expect(sendPush(api, { kind: 'text', payload: 'x' }, true)).rejects.toThrow();
  });

  it('sends a file as a file envelope under a name that says nothing; name and type only in the encrypted list', async () => {
    const api = fakeApi();
    const bytes = new Uint8Array(150_000).map((_, i) => i % 256);
    const file = new File([bytes], 'salaries 2025.xlsx', { type: 'application/vnd.ms-excel' });
    const pushed = await sendFilePush(api, { kind: 'file', payload: '', expire_after_days: 3 }, file, true);
    const form: FormData = api.createWithFiles.mock.calls[0]![0];
    expect(form.get('push[end_to_end]')).toBe('true');
    expect(form.get('push[kind]')).toBe('file');
    expect(form.get('push[expire_after_days]')).toBe('3');
    const part = form.get('push[files][]') as File;
    expect(part.name).toBe('file-1.bin');
    expect(part.type).toBe('application/octet-stream');
    const key = await keyOf(pushed.html_url);
    expect(await decryptPayload(key, form.get('push[payload]') as string)).toEqual({
      content: 'manifest',
      manifest: { message: '', files: [{ name: 'salaries 2025.xlsx', type: 'application/vnd.ms-excel', size: 150_000 }] },
    });
    const { stream } = createDecryptStream(key);
    const out = new Uint8Array(await new Response(part.stream().pipeThrough(stream)).arrayBuffer());
    expect(out).toEqual(bytes);
    expect(decodeBase64url(pushed.html_url.split('#')[1]!)).not.toBeNull();
  });
});
