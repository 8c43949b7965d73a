/**
 * Opens the file host (entrypoints/file-host) for the popup's file pushes (file-handoff.ts),
 * once, and closes it when it says it has been idle a while (its page and workers hold memory). Chromium: an offscreen document, because its background is a service worker, which can
 * start no dedicated worker (OPFS's synchronous handles need one) and is stopped by the browser
 * during a long request. Firefox: a frame in the background page, which lives as long as the
 * browser. False where neither exists (Chromium before 109, or the extension's one offscreen
 * document taken by something else): the popup then hands the file to the background itself.
 */
export const FILE_HOST_PAGE = '/file-host.html';

interface Offscreen {
  createDocument(options: { url: string; reasons: string[]; justification: string }): Promise<void>;
  closeDocument?(): Promise<void>;
}
interface Contexts {
  getContexts?(filter: { contextTypes: string[]; documentUrls: string[] }): Promise<unknown[]>;
  getURL(path: string): string;
}

export interface HostPlace {
  offscreen?: Offscreen;
  runtime: Contexts;
  /** The background page's document (Firefox); none in a service worker. */
  document?: Document;
}

/** Opening and closing, one at a time: a host being closed is not reported open meanwhile. */
let lifecycle: Promise<unknown> = Promise.resolve();
function inTurn<T>(step: () => Promise<T>): Promise<T> {
  const next = lifecycle.then(step);
  lifecycle = next.catch(() => undefined);
  return next;
}

/** A popup that asked for the host this recently may have its request on the way: the host stays. */
const ASKED_GRACE_MS = 10_000;
let askedAt = -Infinity;

async function open({ offscreen, runtime, document }: HostPlace): Promise<boolean> {
  const url = runtime.getURL(FILE_HOST_PAGE);
  if (offscreen && runtime.getContexts) {
    if ((await runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] })).length) return true;
    // Resolves once the page has loaded: its channel listens by then.
    await offscreen.createDocument({ url, reasons: ['WORKERS', 'BLOBS'], justification: 'Encrypts files to disk and uploads them after the popup has closed.' });
    return true;
  }
  if (!document) return false;
  if (document.querySelector(`iframe[src="${url}"]`)) return true;
  const frame = document.createElement('iframe');
  frame.src = url;
  const loaded = new Promise<void>((resolve, reject) => {
    frame.onload = () => resolve();
    frame.onerror = () => reject(new Error('the file host did not load'));
  });
  document.body.append(frame);
  await loaded;
  return true;
}

export function openFileHost(place: HostPlace): Promise<boolean> {
  askedAt = Date.now();
  // Asked for twice at once (two popups), created once; a failure is asked again next time.
  return inTurn(() => open(place).catch(() => false));
}

/** Closes the idle host (it asked), unless a popup has just asked for it: whether it did. */
export function closeIdleFileHost({ offscreen, runtime, document }: HostPlace): Promise<boolean> {
  return inTurn(async () => {
    if (Date.now() - askedAt < ASKED_GRACE_MS) return false;
    const url = runtime.getURL(FILE_HOST_PAGE);
    if (offscreen?.closeDocument && runtime.getContexts) {
      // The extension's one offscreen document may be another page's.
      if (!(await runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] })).length) return false;
      await offscreen.closeDocument();
      return true;
    }
    const frame = document?.querySelector(`iframe[src="${url}"]`);
    frame?.remove();
    return Boolean(frame);
  }).catch(() => false);
}
