import { describe, expect, it } from 'vitest';
import { decodeLinkKey } from '../../shared/e2e/link-key';
import { passphraseCheck } from '../../shared/e2e/passphrase-check';
import { decryptPayload } from '../../shared/e2e/push-content';
import { sealFileParts, sealText } from '../../extension/lib/end-to-end';

/** What the extension sends for an end-to-end push: never the passphrase, its check instead. */
describe('sealing a push in the extension', () => {
  it('sends the passphrase check in place of the passphrase, and mixes the passphrase into the key', async () => {
    const { sealed, linkKey } = await sealText({ payload: 'the secret', passphrase: 'correct horse', expire_after_views: 2 });
    const opened = await decodeLinkKey(linkKey);
    if (!opened.ok) throw new Error('bad link key');
    expect(sealed.end_to_end).toBe(true);
    expect(sealed.passphrase).toBe(await passphraseCheck(opened.key, 'correct horse'));
    expect(JSON.stringify(sealed)).not.toContain('correct horse');
    expect(await decryptPayload(opened.key, sealed.payload!, 'correct horse')).toEqual({ content: 'text', text: 'the secret' });
    await expect(decryptPayload(opened.key, sealed.payload!)).rejects.toThrow(/passphrase/);
  });

  it('sends no passphrase field without a passphrase', async () => {
    const { sealed } = await sealText({ payload: 'the secret', passphrase: '' });
    expect('passphrase' in sealed).toBe(false);
    const file = await sealFileParts({ passphrase: 'pp' }, new File(['abc'], 'a.txt', { type: 'text/plain' }));
    expect(file.sealed.fields.passphrase).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
