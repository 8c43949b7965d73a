import type { FileChannelMessage, FileChannelName, FilePushAnswer, HeartbeatMs } from '../../lib/file-host-protocol';
import { hostFilePush, sweepAbandonedSpool, type HostedUpload } from '../../lib/file-host-push';
import type { RelayAnswer, RelayRequest } from '../../lib/relay';
import { testWaitMs } from '../../lib/test-wait';

// The file host: a page without a window that encrypts and uploads the files the popup hands it
// (lib/file-handoff.ts), so that a large upload neither sits in memory nor ends when the popup
// closes. Chromium: an offscreen document (its service worker cannot start the spool worker);
// Firefox: a frame in the background page. Opened by the background (lib/file-host-opening.ts),
// which closes it again when it says it has been idle (no upload) for IDLE_MS.

// The runtime API without wxt/browser, which the popup would then load as a chunk of its own.
type Runtime = { sendMessage(message: RelayRequest): Promise<RelayAnswer | undefined> };
const { browser, chrome } = globalThis as { browser?: { runtime: Runtime }; chrome?: { runtime: Runtime } };
const runtime = (browser ?? chrome)!.runtime;
const channel = new BroadcastChannel('secret-push-files' satisfies FileChannelName);
const HEARTBEAT_MS = 2_000 satisfies HeartbeatMs;
/** Reopening costs a few hundred milliseconds; an idle page holds its own memory (tens of MB). */
const IDLE_MS = 20_000;
void sweepAbandonedSpool();

let working = 0;
let idleTimer: ReturnType<typeof setTimeout> | undefined;
function armIdle() {
  clearTimeout(idleTimer);
  if (working === 0) idleTimer = setTimeout(reportIdle, testWaitMs('file-host-idle', IDLE_MS));
}
async function reportIdle() {
  // The background closes this page, unless a popup has just asked for it (its request may be on its way).
  const answer = await runtime.sendMessage({ relay: 'file-host-idle' }).catch(() => undefined);
  if (!(answer?.ok && answer.value === true)) armIdle();
}
armIdle();

channel.addEventListener('message', async (event: MessageEvent<FileChannelMessage>) => {
  if (!('file' in event.data)) return;
  const { id, connection, input, file, endToEnd } = event.data;
  working++;
  clearTimeout(idleTimer);
  // The popup gives up on a host that stops saying this (it crashed, or was closed).
  const heartbeat = setInterval(() => channel.postMessage({ id, alive: true } satisfies FileChannelMessage), HEARTBEAT_MS);
  try {
    let hosted: HostedUpload;
    try {
      hosted = await hostFilePush({ connection, input, file, endToEnd });
    } catch (err) {
      hosted = { report: { failed: err instanceof Error ? err.message : String(err) }, envelope: 'none' };
    }
    // The background reads the answer with the extension's APIs (words, storage) this page lacks.
    const request: RelayRequest = { relay: 'file-pushed', connection, report: hosted.report, linkKey: hosted.linkKey, hint: file.name };
    const answer: RelayAnswer | undefined = await runtime.sendMessage(request).catch(() => undefined);
    channel.postMessage({ id, answer, envelope: hosted.envelope } satisfies FilePushAnswer);
  } finally {
    clearInterval(heartbeat);
    working--;
    armIdle();
  }
});
