/**
 * Opens the file host (entrypoints/file-host) for the popup's file pushes (file-handoff.ts),
 * once. Chromium: an offscreen document, because its background is a service worker, which can
 * start no dedicated worker (OPFS's synchronous handles need one) and is stopped by the browser
 * during a long request. Firefox: a frame in the background page, which lives as long as the
 * browser. False where neither exists (Chromium before 109, or the extension's one offscreen
 * document taken by something else): the popup then hands the file to the background itself.
 */
export const FILE_HOST_PAGE = '/file-host.html';

interface Offscreen {
  createDocument(options: { url: string; reasons: string[]; justification: string }): Promise<void>;
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

let opening: Promise<boolean> | undefined;

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
  // Asked for twice at once (two popups), created once; a failure is asked again next time.
  opening ??= open(place).catch(() => false);
  const now = opening;
  void now.then(() => (opening = undefined));
  return now;
}
