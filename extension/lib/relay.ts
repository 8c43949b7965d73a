import type { OwnerPushRecord, PushInput } from '../../shared/push-schema';
import type { ApiConnection, PushApi } from './api-client';
import type { UploadReport } from './file-host-protocol';
import { t } from './i18n';
import { DescribedError, type Problem } from './problem';
import type { PasswordRule } from './generator/password';

/**
 * The popup's way to the server and to the QR encoder: both run in the background, which has
 * the tRPC client already (for the context menu), so the popup ships neither the client, the
 * encoder nor the code that words errors (≈11 KB gzipped; see scripts/bundle-size.ts). A
 * request is a plain message; a failure comes back described (errors.ts) by the background.
 */

export type ApiMethod = keyof PushApi;

type Connection = Omit<ApiConnection, 'fetch'>;

export type RelayRequest =
  | { relay: 'api'; connection: Connection; method: ApiMethod; args: unknown[] }
  | { relay: 'qr'; text: string }
  /** A text push, encrypted by the background when `endToEnd` (push-sending.ts). */
  | { relay: 'push'; connection: Connection; input: PushInput; endToEnd: boolean }
  /** A slice of a file being handed to the background (base64: Chromium's messages are JSON). */
  | { relay: 'file-part'; upload: string; data: string }
  /** The file whose slices were sent under `upload`, pushed (end to end when `endToEnd`). */
  | { relay: 'push-file'; connection: Connection; upload: string; name: string; type: string; input: PushInput; endToEnd: boolean }
  /** Opens the file host (file-host-opening.ts); answers whether there is one. */
  | { relay: 'file-host' }
  /** The file host has had nothing to do for a while; answers whether it is closed (file-host-opening.ts). */
  | { relay: 'file-host-idle' }
  /** The file host's upload, for the background to read as its own (the link's key added, failures worded). */
  | { relay: 'file-pushed'; connection: Connection; report: UploadReport; linkKey?: string; hint: string }
  /**
   * What the popup needs of the tab and of what this browser remembers of pushes, answered by
   * the background, which has the code for the context menu already (the popup then ships none).
   */
  | { relay: 'selection'; tabId: number }
  /** `hint` (a file's name) or `from` (the page or URL the hint is taken from: push-label.ts). */
  | { relay: 'remember'; urlToken: string; kind: string; hint?: string; from?: string }
  | { relay: 'titles'; records: Array<{ url_token: string; name: string | null; file_names?: string[] }> }
  | { relay: 'whole-link'; record: { url_token: string; html_url: string } }
  /** A generated password or passphrase (generator/): the background has the generator for the context menu. */
  | { relay: 'generate'; what: GenerateRequest };

/** What to generate: characters by a rule, or a passphrase of `words` EFF words. */
export type GenerateRequest = { rule: PasswordRule } | { words: number };

export type RelayAnswer = { ok: true; value: unknown } | { ok: false; problem: Problem };

/** A QR code as one SVG path of dark modules on a `modules`-wide square. */
export interface QrPath {
  modules: number;
  path: string;
}

export type SendMessage = (message: RelayRequest) => Promise<RelayAnswer | undefined>;

/** What an answer carries; a failure thrown as the `DescribedError` the background described. */
export function answered<T>(answer: RelayAnswer | undefined): T {
  // No answer: the background did not load (a broken install); say so rather than hang.
  if (!answer) throw new DescribedError({ kind: 'unknown', message: t('background_silent'), fields: {} });
  if (!answer.ok) throw new DescribedError(answer.problem);
  return answer.value as T;
}

export async function ask<T>(send: SendMessage, message: RelayRequest): Promise<T> {
  return answered<T>(await send(message));
}

/** A `PushApi` whose calls the background makes; failures are thrown as `DescribedError`s. */
export function relayedPushApi({ serverUrl, apiToken }: Omit<ApiConnection, 'fetch'>, send: SendMessage): PushApi {
  const call =
    <M extends ApiMethod>(method: M) =>
    (...args: Parameters<PushApi[M]>) =>
      ask<Awaited<ReturnType<PushApi[M]>>>(send, { relay: 'api', connection: { serverUrl, apiToken }, method, args });
  return {
    version: call('version'),
    limits: call('limits'),
    create: call('create'),
    active: call('active'),
    expired: call('expired'),
    audit: call('audit'),
    expire: call('expire'),
    // FormData does not survive Chromium's messaging: files go through relayedFilePush.
    createWithFiles: call('createWithFiles'),
    requests: call('requests'),
    closeRequest: call('closeRequest'),
    createRequest: call('createRequest'),
    emailLink: call('emailLink'),
  };
}

/** A text push made by the background (which holds the cryptography, so the popup does not). */
export function relayedPush(connection: Connection, input: PushInput, endToEnd: boolean, send: SendMessage): Promise<OwnerPushRecord> {
  return ask<OwnerPushRecord>(send, { relay: 'push', connection, input, endToEnd });
}

/** The QR code of `text`, drawn by the background. */
export function relayedQrPath(text: string, send: SendMessage): Promise<QrPath> {
  return ask<QrPath>(send, { relay: 'qr', text });
}
