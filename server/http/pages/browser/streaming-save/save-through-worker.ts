// The recipient page's side of the save worker (e2e-save-worker.ts): registers it, hands it one
// download, opens the one-shot address in a hidden frame (the browser's download manager takes
// the answer and writes it to disk as it is decrypted) and reports how the download ended.
import { HEARTBEAT_MS, KEEP_ALIVE_MS, SAVE_SCOPE, SAVE_WORKER_SCRIPT, type KeepAlive, type SaveEvent, type SaveRequest } from './save-protocol.js';

/** A worker that does not answer a request at all is broken: the page falls back to its Blob path. */
const READY_TIMEOUT_MS = 10_000;

/**
 * The active save worker, or null where there is none to be had: no service workers (an
 * insecure origin other than localhost, Firefox's private windows, a browser setting), or a
 * registration that failed. Registered once per page, ahead of the first click.
 */
let registration: Promise<ServiceWorker | null> | undefined;
export function saveWorker(): Promise<ServiceWorker | null> {
  registration ??= (async () => {
    if (!globalThis.isSecureContext || !('serviceWorker' in navigator)) return null;
    try {
      const reg = await navigator.serviceWorker.register(SAVE_WORKER_SCRIPT, { scope: SAVE_SCOPE });
      return reg.active ?? (await activated(reg.installing ?? reg.waiting));
    } catch {
      return null;
    }
  })();
  return registration;
}

function activated(worker: ServiceWorker | null): Promise<ServiceWorker | null> {
  if (!worker) return Promise.resolve(null);
  return new Promise((resolve) => {
    const check = () => {
      if (worker.state === 'activated') resolve(worker);
      else if (worker.state === 'redundant') resolve(null);
    };
    worker.addEventListener('statechange', check);
    check();
  });
}

export type SaveOutcome =
  /** The worker could not take the download (nothing was fetched): use another path. */
  | { ok: false; started: false }
  /** The download started and failed: the browser marked it failed (no complete file). */
  | { ok: false; started: true; reason: string }
  | { ok: true; bytes: number };

/** Streams one file to disk through the worker; resolves when the download has ended. */
export async function saveThroughWorker(worker: ServiceWorker, request: Omit<SaveRequest, 'type'>): Promise<SaveOutcome> {
  const channel = new MessageChannel();
  const events: SaveEvent[] = [];
  let wake: (() => void) | undefined;
  channel.port1.onmessage = (e: MessageEvent<SaveEvent>) => {
    events.push(e.data);
    wake?.();
  };
  const next = async (timeoutMs?: number): Promise<SaveEvent | null> => {
    if (!events.length) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        if (timeoutMs) setTimeout(resolve, timeoutMs);
      });
    }
    return events.shift() ?? null;
  };
  // The key is copied into the worker (structured clone), never sent anywhere else.
  worker.postMessage({ type: 'save', ...request } satisfies SaveRequest, [channel.port2]);
  const ping = setInterval(() => worker.postMessage({ type: 'keep-alive' } satisfies KeepAlive), KEEP_ALIVE_MS);
  let frame: HTMLIFrameElement | undefined;
  try {
    const ready = await next(READY_TIMEOUT_MS);
    if (ready?.type !== 'ready') return { ok: false, started: false };
    frame = document.createElement('iframe');
    frame.hidden = true;
    frame.src = ready.path;
    document.body.append(frame);
    let started = false;
    for (;;) {
      const event = await next(HEARTBEAT_MS * 4);
      // Silence: the browser stopped the worker, and the download with it (it will never end).
      if (!event) return started ? { ok: false, started: true, reason: 'worker-stopped' } : { ok: false, started: false };
      if (event.type === 'started') started = true;
      else if (event.type === 'done') return { ok: true, bytes: event.bytes };
      else if (event.type === 'failed') return started ? { ok: false, started: true, reason: event.reason } : { ok: false, started: false };
    }
  } finally {
    clearInterval(ping);
    channel.port1.close();
    // Only once the download has ended: the frame is where the browser's download came from.
    frame?.remove();
  }
}
