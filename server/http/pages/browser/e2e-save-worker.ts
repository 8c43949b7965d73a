// The recipient's save worker: a service worker that streams a decrypted end-to-end file into the
// browser's download manager, so that a large file is written to disk as it is decrypted instead
// of being held whole in memory (the page's Blob path). The page hands it the ciphertext's address
// and the key over a MessagePort (never over the network), then opens the one-shot address it
// gets back in a hidden frame; the answer to that request is the ciphertext piped through the
// decrypting stream, as an attachment. A damaged or cut-off ciphertext errors the response body:
// the browser then marks the download failed instead of keeping a short file.
//
// The key lives only in this worker's memory, for one download: it is dropped (and its bytes
// zeroed) when the download ends, fails or is never started. Nothing here logs.
import { attachmentDisposition } from '../../../../shared/content-disposition.js';
import { createDecryptStream, EnvelopeError } from '../../../../shared/e2e/envelope-crypto.js';
import { envelopeLengthProblem, plaintextBytes } from '../../../../shared/e2e/envelope-format.js';
import { PUSH_KEY_BYTES } from '../../../../shared/e2e/link-key.js';
import { HEARTBEAT_MS, SAVE_SCOPE, type SaveEvent, type SaveFailure, type SaveRequest } from './streaming-save/save-protocol.js';

// The DOM library's types are in scope for these scripts; the worker's own events are declared here.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Response | Promise<Response>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  data: unknown;
  ports: readonly MessagePort[];
}
interface WorkerScope {
  location: Location;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
}
const worker = self as unknown as WorkerScope;

interface Job {
  url: string;
  key: Uint8Array;
  passphrase?: string;
  name: string;
  type: string;
  port: MessagePort;
  expiry: ReturnType<typeof setTimeout>;
  heartbeat: ReturnType<typeof setInterval>;
}

/** One-shot addresses not yet opened, by id. */
const jobs = new Map<string, Job>();
/** A page that asked and never opened the address (closed, crashed): its key goes after this. */
const UNOPENED_MS = 60_000;
const CIPHERTEXT_PATH = /^\/p\/[a-z0-9_-]{1,64}\/files\/[^/]+$/;
const MIME_TYPE = /^[a-z0-9!#$&^_.+-]{1,64}\/[a-z0-9!#$&^_.+-]{1,64}$/i;

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));

function forget(job: Job, event?: SaveEvent) {
  clearTimeout(job.expiry);
  clearInterval(job.heartbeat);
  job.key.fill(0);
  job.passphrase = undefined;
  if (event) job.port.postMessage(event);
  job.port.close();
}

/** Why a request cannot be a download, or null. */
function refusal(data: Partial<SaveRequest>): string | null {
  if (!(data.key instanceof Uint8Array) || data.key.length !== PUSH_KEY_BYTES) return `the key must be ${PUSH_KEY_BYTES} bytes`;
  if (typeof data.url !== 'string') return 'the ciphertext address is missing';
  let url: URL | null = null;
  try {
    url = new URL(data.url, worker.location.origin);
  } catch {
    // not an address at all
  }
  if (!url || url.origin !== worker.location.origin || !CIPHERTEXT_PATH.test(url.pathname)) return 'the ciphertext address is not a file of a push on this server';
  if (typeof data.name !== 'string') return 'the file name is missing';
  if (data.passphrase !== undefined && typeof data.passphrase !== 'string') return 'the passphrase must be text';
  return null;
}

worker.addEventListener('message', (event) => {
  const data = event.data as Partial<SaveRequest> | null;
  const port = event.ports[0];
  // Keep-alive pings need no answer: receiving them is what keeps the worker running.
  if (data?.type !== 'save' || !port) return;
  const problem = refusal(data);
  if (problem) {
    port.postMessage({ type: 'refused', reason: problem } satisfies SaveEvent);
    return port.close();
  }
  const id = randomId();
  const job: Job = {
    url: new URL(data.url!, worker.location.origin).href,
    key: data.key!,
    passphrase: data.passphrase,
    name: data.name!,
    type: data.mimeType && MIME_TYPE.test(data.mimeType) ? data.mimeType : 'application/octet-stream',
    port,
    expiry: setTimeout(() => {
      jobs.delete(id);
      forget(job, { type: 'failed', reason: 'cancelled' });
    }, UNOPENED_MS),
    // A browser may stop this worker whatever it is doing (Firefox does, once it thinks it idle);
    // its jobs and ports go with it, silently: the page takes silence for that.
    heartbeat: setInterval(() => port.postMessage({ type: 'alive' } satisfies SaveEvent), HEARTBEAT_MS),
  };
  jobs.set(id, job);
  port.postMessage({ type: 'ready', path: SAVE_SCOPE + id } satisfies SaveEvent);
});

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== worker.location.origin || !url.pathname.startsWith(SAVE_SCOPE)) return;
  const id = url.pathname.slice(SAVE_SCOPE.length);
  const job = jobs.get(id);
  // One-shot: a second request for the same address (a reload, a copied URL) finds nothing.
  jobs.delete(id);
  if (!job) {
    event.respondWith(new Response('This download address was used already or has expired. Go back to the secret’s page and download again.', { status: 404, headers: plainText() }));
    return;
  }
  clearTimeout(job.expiry);
  let finished!: () => void;
  // Kept alive until the last byte (or the failure): the response body is produced here.
  event.waitUntil(new Promise<void>((resolve) => (finished = resolve)));
  let ended = false;
  event.respondWith(
    decryptedResponse(job, (outcome) => {
      // A failed pull is followed by the browser cancelling the body: the first word stands.
      if (ended) return;
      ended = true;
      forget(job, outcome);
      finished();
    }),
  );
});

function plainText(): HeadersInit {
  return { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };
}

async function decryptedResponse(job: Job, end: (outcome: SaveEvent) => void): Promise<Response> {
  const fail = (reason: SaveFailure, status: number) => {
    end({ type: 'failed', reason });
    return new Response('The file could not be downloaded. Go back to the secret’s page for details.', { status, headers: plainText() });
  };
  let res: Response;
  try {
    res = await fetch(job.url, { credentials: 'same-origin', cache: 'no-store' });
  } catch {
    return fail('fetch', 502);
  }
  if (!res.ok || !res.body) return fail('fetch', 502);
  const { stream } = createDecryptStream(job.key, job.passphrase);
  const plaintext = res.body.pipeThrough(stream).getReader();
  let bytes = 0;
  const body = new ReadableStream<Uint8Array>({
    // Pulled by the download manager as it writes: a record is decrypted only when there is room.
    async pull(controller) {
      try {
        const { done, value } = await plaintext.read();
        if (done) {
          controller.close();
          end({ type: 'done', bytes });
        } else {
          bytes += value.length;
          controller.enqueue(value);
        }
      } catch (e) {
        controller.error(e);
        end({ type: 'failed', reason: e instanceof EnvelopeError ? e.code : 'fetch' });
      }
    },
    cancel(reason) {
      void plaintext.cancel(reason).catch(() => undefined);
      end({ type: 'failed', reason: 'cancelled' });
    },
  });
  const headers: Record<string, string> = {
    'Content-Type': job.type,
    'Content-Disposition': attachmentDisposition(job.name),
    'X-Content-Type-Options': 'nosniff',
    // Should the browser ever render it instead of saving it, it runs nothing.
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'no-store',
  };
  // The download manager then knows the size (progress, and a short file can never look complete).
  const envelope = Number(res.headers.get('Content-Length'));
  if (Number.isSafeInteger(envelope) && envelope > 0 && !envelopeLengthProblem(envelope)) headers['Content-Length'] = String(plaintextBytes(envelope));
  job.port.postMessage({ type: 'started' } satisfies SaveEvent);
  return new Response(body, { status: 200, headers });
}

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
