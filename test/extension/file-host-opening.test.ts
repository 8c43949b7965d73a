import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeIdleFileHost, FILE_HOST_PAGE, openFileHost, type HostPlace } from '../../extension/lib/file-host-opening';

const URL_OF = (path: string) => `chrome-extension://id${path}`;

/** Chromium's offscreen API as the background sees it: one document at a time. */
function chromium(open: string[] = []) {
  const createDocument = vi.fn(async ({ url }: { url: string }) => {
    if (open.length) throw new Error('Only a single offscreen document may be created.');
    open.push(url);
  });
  const closeDocument = vi.fn(async () => void open.splice(0));
  const place: HostPlace = {
    offscreen: { createDocument, closeDocument },
    runtime: { getURL: URL_OF, getContexts: vi.fn(async ({ documentUrls }) => open.filter((u) => documentUrls.includes(u))) },
  };
  return { place, createDocument, closeDocument, open };
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

  describe('closing it when it says it is idle', () => {
    afterEach(() => vi.useRealTimers());

    it('closes the offscreen document, unless a popup asked for it in the last few seconds; reopens on demand', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const { place, createDocument, closeDocument, open } = chromium();
      await openFileHost(place);
      // A popup has just asked: its request may be on the way, the host stays.
      expect(await closeIdleFileHost(place)).toBe(false);
      expect(open).toHaveLength(1);
      vi.setSystemTime(Date.now() + 10_000);
      expect(await closeIdleFileHost(place)).toBe(true);
      expect(closeDocument).toHaveBeenCalledTimes(1);
      expect(open).toEqual([]);
      expect(await openFileHost(place)).toBe(true);
      expect(createDocument).toHaveBeenCalledTimes(2);
    });

    it("leaves the extension's one offscreen document alone when it is another page's", async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + 3_600_000);
      const { place, closeDocument } = chromium(['chrome-extension://id/other.html']);
      expect(await closeIdleFileHost(place)).toBe(false);
      expect(closeDocument).not.toHaveBeenCalled();
    });
  });
});
