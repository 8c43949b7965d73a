import type { ApiConnection, PushApi } from './api-client';
import { problemOf } from './problem';
import type { ApiMethod, QrPath, RelayAnswer, RelayRequest } from './relay';

export interface RelayEnv {
  /** A described API (described-api.ts): its failures carry their problem. */
  createApi(connection: Omit<ApiConnection, 'fetch'>): PushApi;
  qrPath(text: string): QrPath;
}

/** Every `PushApi` method, by name (a method added to `PushApi` and not here fails to compile). */
const methods: Record<ApiMethod, true> = { version: true, limits: true, create: true, active: true, expired: true, audit: true, expire: true };

export function isRelayRequest(message: unknown): message is RelayRequest {
  const relay = typeof message === 'object' && message !== null ? (message as { relay?: unknown }).relay : undefined;
  return relay === 'api' || relay === 'qr';
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
  return async (request) => {
    try {
      if (request.relay === 'qr') return { ok: true, value: env.qrPath(request.text) };
      // Only the popup sends these; anything else is a bug, answered as an unknown failure.
      if (!Object.hasOwn(methods, request.method)) return { ok: false, problem: problemOf(undefined) };
      const api = apiFor(request.connection);
      const value = await (api[request.method] as (...args: unknown[]) => Promise<unknown>)(...request.args);
      return { ok: true, value };
    } catch (err) {
      return { ok: false, problem: problemOf(err) };
    }
  };
}
