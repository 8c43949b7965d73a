import type { ApiConnection, PushApi } from './api-client';
import { t } from './i18n';
import { DescribedError, type Problem } from './problem';

/**
 * The popup's way to the server and to the QR encoder: both run in the background, which has
 * the tRPC client already (for the context menu), so the popup ships neither the client, the
 * encoder nor the code that words errors (≈11 KB gzipped; see scripts/bundle-size.ts). A
 * request is a plain message; a failure comes back described (errors.ts) by the background.
 */

export type ApiMethod = keyof PushApi;

export type RelayRequest =
  | { relay: 'api'; connection: Omit<ApiConnection, 'fetch'>; method: ApiMethod; args: unknown[] }
  | { relay: 'qr'; text: string };

export type RelayAnswer = { ok: true; value: unknown } | { ok: false; problem: Problem };

/** A QR code as one SVG path of dark modules on a `modules`-wide square. */
export interface QrPath {
  modules: number;
  path: string;
}

export type SendMessage = (message: RelayRequest) => Promise<RelayAnswer | undefined>;

async function ask<T>(send: SendMessage, message: RelayRequest): Promise<T> {
  const answer = await send(message);
  // No answer: the background did not load (a broken install); say so rather than hang.
  if (!answer) throw new DescribedError({ kind: 'unknown', message: t('background_silent'), fields: {} });
  if (!answer.ok) throw new DescribedError(answer.problem);
  return answer.value as T;
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
  };
}

/** The QR code of `text`, drawn by the background. */
export function relayedQrPath(text: string, send: SendMessage): Promise<QrPath> {
  return ask<QrPath>(send, { relay: 'qr', text });
}
