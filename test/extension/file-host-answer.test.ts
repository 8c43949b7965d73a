import { describe, expect, it, vi } from 'vitest';
import { createPushApi } from '../../extension/lib/api-client';
import { describedApi } from '../../extension/lib/described-api';
import type { UploadReport } from '../../extension/lib/file-host-protocol';
import { wholeLink } from '../../extension/lib/link-keys';
import { qrPath } from '../../extension/lib/qr-path';
import { createRelayHandler } from '../../extension/lib/relay-handler';
import { record, SERVER } from './fakes';

/**
 * The background reads the file host's upload (lib/file-host-push.ts) with the real API client,
 * as if it had made the request: the same record, the same words for a failure.
 */
function background() {
  const pushed = vi.fn(async () => undefined);
  const handle = createRelayHandler({
    createApi: (c) => describedApi(createPushApi(c), c.serverUrl, Boolean(c.apiToken)),
    qrPath,
    openFileHost: async () => true,
    closeIdleFileHost: async () => false,
    readSelection: async () => '',
    loadWords: async () => [],
    pushed,
  });
  const answer = (report: UploadReport, linkKey?: string) => handle({ relay: 'file-pushed', connection: { serverUrl: SERVER, apiToken: 'tok' }, report, linkKey, hint: 'q3.pdf' });
  return { answer, pushed };
}
const created = (overrides = {}): UploadReport => ({ status: 201, retryAfter: null, body: JSON.stringify(record(overrides)) });
const LINK_KEY = 'A'.repeat(48);

describe("the file host's upload, read by the background", () => {
  it('finishes an end-to-end push: the key goes into the link and is remembered; the push is kept for a popup that closed', async () => {
    const { answer, pushed } = background();
    const stored = record({ end_to_end: true });
    const result = await answer({ status: 201, retryAfter: null, body: JSON.stringify(stored) }, LINK_KEY);
    expect(result).toMatchObject({ ok: true, value: { html_url: `${stored.html_url}#${LINK_KEY}` } });
    expect(pushed).toHaveBeenCalledWith(expect.objectContaining({ html_url: `${stored.html_url}#${LINK_KEY}` }), 'file', 'q3.pdf');
    expect(await wholeLink(stored)).toBe(`${stored.html_url}#${LINK_KEY}`);
  });

  it('takes an ordinary file push as it is', async () => {
    const { answer } = background();
    const stored = record();
    expect(await answer({ status: 201, retryAfter: null, body: JSON.stringify(stored) })).toMatchObject({ ok: true, value: { html_url: stored.html_url } });
  });

  it('refuses a link to ciphertext the server did not take as end to end', async () => {
    const { answer, pushed } = background();
    expect(await answer(created(), LINK_KEY)).toMatchObject({ ok: false, problem: { kind: 'unknown' } });
    expect(pushed).not.toHaveBeenCalled();
  });

  it('words failures as the API client does: field messages, a wait, the network, a file that could not be read', async () => {
    const { answer } = background();
    const invalid = await answer({ status: 422, retryAfter: null, body: JSON.stringify({ expire_after_days: ['must be less than or equal to 90'] }) }, LINK_KEY);
    expect(invalid).toMatchObject({ ok: false, problem: { kind: 'invalid', fields: { expire_after_days: expect.stringMatching(/90/) } } });
    const limited = await answer({ status: 429, retryAfter: '30', body: '{"error":"Too many requests"}' });
    expect(limited).toMatchObject({ ok: false, problem: { kind: 'rate-limited', message: expect.stringMatching(/30 s/) } });
    expect(await answer({ status: 413, retryAfter: null, body: '' })).toMatchObject({ ok: false, problem: { kind: 'too-large' } });
    expect(await answer({ networkError: 'Failed to fetch' })).toMatchObject({ ok: false, problem: { kind: 'network' } });
    const unread = await answer({ failed: 'The requested file could not be read' });
    expect(unread).toMatchObject({ ok: false, problem: { kind: 'unknown', message: expect.stringContaining('could not be read') } });
  });
});
