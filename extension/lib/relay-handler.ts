import type { ApiConnection, PushApi } from './api-client';
import type { OwnerPushRecord } from '../../shared/push-schema';
import type { UploadReport } from './file-host-protocol';
import { sendFilePush, sendPush, withKey } from './push-sending';
import { problemOf } from './problem';
import { recallKinds, rememberKind } from './kind-memory';
import { wholeLink } from './link-keys';
import { pushHint, pushTitles } from './push-label';
import { generatePassphrase, generatePassword } from './generator/password';
import type { ApiMethod, QrPath, RelayAnswer, RelayRequest } from './relay';

export interface RelayEnv {
  /** A described API (described-api.ts): its failures carry their problem. */
  createApi(connection: ApiConnection): PushApi;
  qrPath(text: string): QrPath;
  /** Opens the file host (file-host-opening.ts): whether there is one. */
  openFileHost(): Promise<boolean>;
  /** Closes the file host, which said it is idle, unless a popup has just asked for it: whether it did. */
  closeIdleFileHost(): Promise<boolean>;
  /** Keeps a push the file host made, for a popup that closed before it ended (background-env.ts: recordPush). */
  pushed(record: OwnerPushRecord, kind: 'file', hint?: string): Promise<void>;
  /** The text selected in a tab (selection.ts). */
  readSelection(tabId: number): Promise<string>;
  /** The EFF word list (generator/word-list.ts), loaded on first use. */
  loadWords(): Promise<string[]>;
}

/** The file host's upload answered again, as a fetch would, so that the API client reads it as its own. */
function replay(report: UploadReport): typeof fetch {
  return async () => {
    if ('failed' in report) throw new Error(report.failed);
    if ('networkError' in report) throw new TypeError(report.networkError);
    return new Response(report.body, { status: report.status, headers: report.retryAfter ? { 'Retry-After': report.retryAfter } : {} });
  };
}

/**
 * Every `PushApi` method, by name (a method added to `PushApi` and not here fails to compile),
 * and whether the popup may call it through the relay (FormData does not survive messaging).
 */
const methods: Record<ApiMethod, boolean> = {
  version: true,
  limits: true,
  create: true,
  active: true,
  expired: true,
  audit: true,
  expire: true,
  createWithFiles: false,
  requests: true,
  closeRequest: true,
  createRequest: true,
  emailLink: true,
};

const relayKinds = new Set(['api', 'qr', 'push', 'file-part', 'push-file', 'file-host', 'file-host-idle', 'file-pushed', 'selection', 'remember', 'titles', 'whole-link', 'generate']);

export function isRelayRequest(message: unknown): message is RelayRequest {
  const relay = typeof message === 'object' && message !== null ? (message as { relay?: unknown }).relay : undefined;
  return typeof relay === 'string' && relayKinds.has(relay);
}

/**
 * The background's side of relay.ts. One API client per server and token, kept while the
 * background lives, so that calls the popup makes together still share one batched request.
 */
export function createRelayHandler(env: RelayEnv): (request: RelayRequest) => Promise<RelayAnswer> {
  const clients = new Map<string, PushApi>();
  const apiFor = (connection: Omit<ApiConnection, 'fetch'>) => {
    const key = JSON.stringify([connection.serverUrl, connection.apiToken ?? '']);
    let api = clients.get(key);
    if (!api) {
      // A token replaced in Settings is not kept in memory for long: the oldest client goes.
      if (clients.size >= 4) clients.delete(clients.keys().next().value!);
      clients.set(key, (api = env.createApi({ serverUrl: connection.serverUrl, apiToken: connection.apiToken })));
    }
    return api;
  };
  /** Files being handed over by the popup, a slice at a time (at most two at once). */
  const uploads = new Map<string, Blob[]>();
  return async (request) => {
    try {
      if (request.relay === 'qr') return { ok: true, value: env.qrPath(request.text) };
      if (request.relay === 'selection') return { ok: true, value: await env.readSelection(request.tabId) };
      if (request.relay === 'remember') {
        const hint = request.hint ?? (request.from ? pushHint(request.kind, request.from, request.from) : undefined);
        return { ok: true, value: await rememberKind(request.urlToken, request.kind, hint) };
      }
      if (request.relay === 'titles') return { ok: true, value: pushTitles(request.records, await recallKinds(request.records.map((r) => r.url_token))) };
      if (request.relay === 'whole-link') return { ok: true, value: await wholeLink(request.record) };
      if (request.relay === 'generate') {
        const { what } = request;
        return { ok: true, value: 'words' in what ? generatePassphrase(await env.loadWords(), what.words) : generatePassword(what.rule) };
      }
      if (request.relay === 'push') return { ok: true, value: await sendPush(apiFor(request.connection), request.input, request.endToEnd) };
      if (request.relay === 'file-part') {
        const bytes = Uint8Array.from(atob(request.data), (c) => c.charCodeAt(0));
        if (!uploads.has(request.upload)) {
          // A popup closed in the middle of handing a file over leaves its slices: the oldest go.
          if (uploads.size >= 2) uploads.delete(uploads.keys().next().value!);
          uploads.set(request.upload, []);
        }
        uploads.get(request.upload)!.push(new Blob([bytes]));
        return { ok: true, value: null };
      }
      if (request.relay === 'file-host') return { ok: true, value: await env.openFileHost() };
      if (request.relay === 'file-host-idle') return { ok: true, value: await env.closeIdleFileHost() };
      if (request.relay === 'file-pushed') {
        // A fresh client: the answer is the host's, not a request of its own.
        const record = await env.createApi({ ...request.connection, fetch: replay(request.report) }).createWithFiles(new FormData());
        const finished = request.linkKey ? await withKey(record, request.linkKey) : record;
        await env.pushed(finished, 'file', request.hint);
        return { ok: true, value: finished };
      }
      if (request.relay === 'push-file') {
        const parts = uploads.get(request.upload) ?? [];
        uploads.delete(request.upload);
        const file = new File(parts, request.name, { type: request.type });
        return { ok: true, value: await sendFilePush(apiFor(request.connection), request.input, file, request.endToEnd) };
      }
      // Only the popup sends these; anything else is a bug, answered as an unknown failure.
      if (methods[request.method] !== true) return { ok: false, problem: problemOf(undefined) };
      const api = apiFor(request.connection);
      const value = await (api[request.method] as (...args: unknown[]) => Promise<unknown>)(...request.args);
      return { ok: true, value };
    } catch (err) {
      return { ok: false, problem: problemOf(err) };
    }
  };
}
