import type { OwnerPushRecord, PushInput } from '../../shared/push-schema';
import type { FileChannelMessage, FileChannelName, Connection, FilePushAnswer, FilePushRequest, HostSilenceMs } from './file-host-protocol';
import { t } from './i18n';
import { answered, ask, type SendMessage } from './relay';
import { testWaitMs } from './test-wait';

const HOST_SILENCE_MS = 15_000 satisfies HostSilenceMs;

/**
 * How the popup hands a file over to be pushed; loaded when a file is pushed (its own chunk).
 * To the file host where there is one (entrypoints/file-host): the file goes over a
 * BroadcastChannel, which passes a reference to its bytes, and the host encrypts it to disk and
 * uploads it, and finishes even when the popup has closed; a host gone silent in the middle
 * (crashed, or closed) is given up on with a clear error. Else to the background in slices (a
 * runtime message cannot carry a File in Chromium), which builds the envelope in memory.
 */
export async function handOverFilePush(connection: Connection, input: PushInput, file: File, endToEnd: boolean, send: SendMessage): Promise<OwnerPushRecord> {
  if (!(await ask<boolean>(send, { relay: 'file-host' }))) return slicedFilePush(connection, input, file, endToEnd, send);
  const channel = new BroadcastChannel('secret-push-files' satisfies FileChannelName);
  const id = crypto.randomUUID();
  try {
    const answer = await new Promise<FilePushAnswer['answer']>((resolve) => {
      // Every message of the host about this request (its heartbeat) resets the watchdog.
      let watchdog: ReturnType<typeof setTimeout>;
      const listen = () => (watchdog = setTimeout(resolve, testWaitMs('file-host-silence', HOST_SILENCE_MS), { ok: false, problem: { kind: 'unknown', message: t('file_host_silent'), fields: {} } }));
      channel.onmessage = ({ data }: MessageEvent<FileChannelMessage>) => {
        if (data.id !== id) return;
        clearTimeout(watchdog);
        if ('answer' in data) resolve(data.answer);
        else listen();
      };
      listen();
      channel.postMessage({ id, connection, input, file, endToEnd } satisfies FilePushRequest);
    });
    return answered<OwnerPushRecord>(answer);
  } finally {
    channel.close();
  }
}

const FILE_SLICE_BYTES = 1_048_576;

/** The file in 1 MiB slices to the background, then pushed there (relay-handler.ts). */
async function slicedFilePush(connection: Connection, input: PushInput, file: File, endToEnd: boolean, send: SendMessage): Promise<OwnerPushRecord> {
  const upload = crypto.randomUUID();
  for (let at = 0; at < file.size; at += FILE_SLICE_BYTES) {
    const bytes = new Uint8Array(await file.slice(at, at + FILE_SLICE_BYTES).arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 32_768) binary += String.fromCharCode(...bytes.subarray(i, i + 32_768));
    await ask<null>(send, { relay: 'file-part', upload, data: btoa(binary) });
  }
  return ask<OwnerPushRecord>(send, { relay: 'push-file', connection, upload, name: file.name, type: file.type, input, endToEnd });
}
