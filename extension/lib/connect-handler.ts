import { connectExtension, type ConnectAnswer, type ConnectFlowEnv } from './connect-flow';
import { checkServerUrl } from './server-address';
import type { Settings } from './settings-storage';

/** The popup's "Connect" (Settings, or the notice that the token no longer works), handled by the background. */
export interface ConnectRequest {
  connect: 'start';
}

export function isConnectRequest(message: unknown): message is ConnectRequest {
  return typeof message === 'object' && message !== null && (message as { connect?: unknown }).connect === 'start';
}

export interface ConnectHandlerEnv extends ConnectFlowEnv {
  loadSettings(): Promise<Settings>;
  /** Keeps the token as a pasted one is kept, for the origin it was made by. */
  saveToken(token: string, origin: string): Promise<void>;
}

/** Connects to the saved server (the one the user confirmed) and keeps the token; the popup gets no token back. */
export type ConnectResult = Exclude<ConnectAnswer, { ok: true }> | { ok: true; label: string };

export async function handleConnect(env: ConnectHandlerEnv): Promise<ConnectResult> {
  const settings = await env.loadSettings();
  const server = checkServerUrl(settings.serverUrl);
  if (!server.ok) return { ok: false, reason: 'failed', detail: server.error };
  const answer = await connectExtension(env, server.url);
  if (!answer.ok) return answer;
  await env.saveToken(answer.token, server.origin);
  return { ok: true, label: answer.label };
}
