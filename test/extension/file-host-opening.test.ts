import { describe, expect, it, vi } from 'vitest';
import { FILE_HOST_PAGE, openFileHost, type HostPlace } from '../../extension/lib/file-host-opening';

const URL_OF = (path: string) => `chrome-extension://id${path}`;

/** Chromium's offscreen API as the background sees it: one document at a time. */
function chromium(open: string[] = []) {
  const createDocument = vi.fn(async ({ url }: { url: string }) => {
    if (open.length) throw new Error('Only a single offscreen document may be created.');
    open.push(url);
  });
  const place: HostPlace = {
    offscreen: { createDocument },
    runtime: { getURL: URL_OF, getContexts: vi.fn(async ({ documentUrls }) => open.filter((u) => documentUrls.includes(u))) },
  };
  return { place, createDocument, open };
}

describe('opening the file host', () => {
  it('creates the offscreen document once, for workers, and finds it again', async () => {
    const { place, createDocument, open } = chromium();
    expect(await Promise.all([openFileHost(place), openFileHost(place)])).toEqual([true, true]);
    expect(await openFileHost(place)).toBe(true);
    expect(createDocument).toHaveBeenCalledTimes(1);
    expect(createDocument.mock.calls[0][0]).toMatchObject({ url: URL_OF(FILE_HOST_PAGE), reasons: expect.arrayContaining(['WORKERS']) });
    expect(open).toEqual([URL_OF(FILE_HOST_PAGE)]);
  });

  it('says there is none when the one offscreen document is another, and asks again next time', async () => {
    const taken = ['chrome-extension://id/other.html'];
    const { place, createDocument } = chromium(taken);
    expect(await openFileHost(place)).toBe(false);
    taken.length = 0;
    expect(await openFileHost(place)).toBe(true);
    expect(createDocument).toHaveBeenCalledTimes(2);
  });

  // Firefox's frame in the background page: happy-dom loads no frames; the real-browser suite opens it (test/e2e).

  it('says there is none in a service worker without the offscreen API (Chromium before 109)', async () => {
    expect(await openFileHost({ runtime: { getURL: URL_OF } })).toBe(false);
  });
});
