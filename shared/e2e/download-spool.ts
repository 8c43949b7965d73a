import { createDecryptStream, EnvelopeError } from './envelope-crypto.js';
import { askWorker, opfsDirectory, removeOlderThan, writeThroughSyncHandle } from './opfs-file.js';

/**
 * The download spool, for Firefox: a file envelope fetched in 8 MiB ranges and decrypted by a
 * dedicated worker into the origin private file system (OPFS) through a synchronous access
 * handle, then offered to the browser's downloads as that disk-backed File (an object URL).
 * Firefox holds a response in memory whatever reads it, and as it arrives: a service worker's
 * (the save worker's 1 GiB download peaked at +2.3 GB), or a worker's own fetch (1 GiB into
 * OPFS: +1.36 GB in one response, +0.59 GB in 8 MiB ranges, +0.56 GB for 512 MiB: bounded);
 * the download of an OPFS File's object URL stayed flat (512 MiB: PSS 498 → 513 MiB). The
 * whole file is authenticated before anything is saved, so a damaged download saves nothing.
 *
 * The cost: the plaintext sits in the browser's OPFS (the profile, on disk) until the page goes
 * (pagehide removes it) or, if the page never said so (a crash), until a recipient page of this
 * server opens an hour later or more. Docs: docs/end-to-end-encryption.md, "Files in the browser".
 */
export const DOWNLOAD_SPOOL_DIR = 'secret-push-downloads';
const RANGE_BYTES = 8 * 1_048_576;
const LEFT_BEHIND_MS = 3_600_000;

export interface DownloadSpoolRequest {
  /** The file envelope's address (same origin: the view's download link). */
  url: string;
  key: Uint8Array;
  passphrase?: string;
  /** Its name in the spool, chosen by the page. */
  name: string;
}
/** `damaged`: the envelope failed authentication (or is not a file); else the spool or the network failed. */
export type DownloadSpoolAnswer = { ok: true; bytes: number } | { ok: false; damaged: boolean };

const directory = () => opfsDirectory(DOWNLOAD_SPOOL_DIR);

/** In the worker: decrypts the download into the spool; its plaintext size. A file left half written is removed. */
async function writeDecrypted({ url, key, passphrase, name }: DownloadSpoolRequest): Promise<number> {
  const dir = await directory();
  if (!dir) throw new Error('no origin private file system here');
  const { stream, header } = createDecryptStream(key, passphrase);
  const bytes = await writeThroughSyncHandle(dir, name, inRanges(url).pipeThrough(stream));
  if ((await header).content !== 'file') {
    await dir.removeEntry(name).catch(() => undefined);
    throw new EnvelopeError('format', 'This download is not a file envelope.');
  }
  return bytes;
}

/**
 * The envelope at `url`, fetched a range at a time (206 with `Content-Range`), each asked for
 * only when the decryption has taken the last; from a server that answers a range with the
 * whole file (200), that one response.
 */
function inRanges(url: string): ReadableStream<Uint8Array> {
  let at = 0;
  let total = Infinity;
  let body: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (!body) {
          if (at >= total) return controller.close();
          const res = await fetch(url, { credentials: 'same-origin', headers: { Range: `bytes=${at}-${at + RANGE_BYTES - 1}` } });
          if (!res.body || (res.status !== 206 && !(res.status === 200 && at === 0))) throw new Error(`download answered ${res.status}`);
          total = res.status === 200 ? -1 : Number(/\/(\d+)$/.exec(res.headers.get('Content-Range') ?? '')?.[1] ?? NaN);
          if (Number.isNaN(total)) throw new Error('a range came without the file size');
          body = res.body.getReader();
        }
        const { done, value } = await body.read();
        if (!done) {
          at += value.length;
          return controller.enqueue(value);
        }
        body = undefined;
      }
    },
  });
}

/** The download worker's side (one request, one answer each); the key is zeroed when done. */
export function answerDownloadSpoolRequests(): void {
  addEventListener('message', async (event: Event) => {
    const request = (event as MessageEvent<DownloadSpoolRequest>).data;
    let answer: DownloadSpoolAnswer;
    try {
      answer = { ok: true, bytes: await writeDecrypted(request) };
    } catch (e) {
      answer = { ok: false, damaged: e instanceof EnvelopeError };
    } finally {
      request.key.fill(0);
    }
    postMessage(answer);
  });
}

/**
 * The page's side: the decrypted file from the spool (removed when the page goes), `damaged`,
 * or null where the spool could not be used (no OPFS or workers, the quota, the network): the
 * caller then takes another way.
 */
export async function spoolDecryptedDownload(workerScript: string, request: Omit<DownloadSpoolRequest, 'name'>): Promise<File | 'damaged' | null> {
  const dir = await directory();
  if (!dir || typeof Worker !== 'function') return null;
  const name = `${crypto.randomUUID()}.bin`;
  try {
    // The key is copied into the worker (structured clone) and zeroed there when it is done.
    const answer = await askWorker<DownloadSpoolAnswer>(workerScript, { ...request, name } satisfies DownloadSpoolRequest, { ok: false, damaged: false });
    if (!answer?.ok) return answer?.damaged ? 'damaged' : null;
    addEventListener('pagehide', () => void dir.removeEntry(name).catch(() => undefined), { once: true });
    return await (await dir.getFileHandle(name)).getFile();
  } catch {
    await dir.removeEntry(name).catch(() => undefined);
    return null;
  }
}

/** Removes decrypted files an hour old or more (a page that went without saying so: a crash). */
export async function removeLeftDownloads(): Promise<void> {
  await removeOlderThan(await directory(), LEFT_BEHIND_MS);
}
