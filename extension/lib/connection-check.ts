import { problemOf, type Problem } from './problem';
import { t } from './i18n';
import type { PushApi } from './api-client';
import { checkServerUrl } from './server-address';
import { tokenToSend, type ServerInfo, type Settings } from './settings-storage';

/** What checking a connection needs: the popup and the background both have it. */
export interface ConnectionEnv {
  hasOrigin(originPattern: string): Promise<boolean>;
  /** A described API (described-api.ts): its failures carry their problem. */
  createApi(settings: Settings): PushApi;
}

export interface Check {
  info?: ServerInfo;
  tokenOk?: boolean;
  problem?: Problem;
  tokenProblem?: Problem;
}

/** The problem of a server the browser does not let the extension reach (not the server's fault). */
export function noAccessProblem(origin: string): Problem {
  return { kind: 'no-access', message: t('no_access', origin), fields: {} };
}

/** Asks the server about itself (and whether the token works); never throws. */
export async function checkConnection(env: ConnectionEnv, settings: Settings): Promise<Check> {
  const check = checkServerUrl(settings.serverUrl);
  if (check.ok && !(await env.hasOrigin(check.originPattern).catch(() => false))) {
    return { problem: noAccessProblem(check.origin) };
  }
  const api = env.createApi(settings);
  let info: ServerInfo;
  try {
    const [version, limits] = await Promise.all([api.version(), api.limits()]);
    info = { serverUrl: settings.serverUrl, version, limits, checkedAt: new Date().toISOString() };
  } catch (err) {
    return { problem: problemOf(err) };
  }
  if (!tokenToSend(settings)) return { info };
  try {
    await api.active(1);
    return { info, tokenOk: true };
  } catch (err) {
    return { info, tokenOk: false, tokenProblem: problemOf(err) };
  }
}


/**
 * Finishes the set-up when host access arrives, wherever it was granted (the popup may have
 * been closed by the permission prompt): asks the server about itself and keeps the answer,
 * so the popup and the context menu know what it offers. Null when the new access is not for
 * the saved server, or the server did not answer (the popup says why when opened).
 */
export async function finishSetup(
  env: ConnectionEnv & { loadSettings(): Promise<Settings>; saveServerInfo(info: ServerInfo): Promise<void> },
  addedOrigins: string[],
): Promise<Check | null> {
  if (addedOrigins.length === 0) return null;
  const settings = await env.loadSettings();
  // Whatever pattern was granted (the server's own, or a wider one from the browser's site
  // settings), what counts is whether the saved server is now reachable.
  const target = checkServerUrl(settings.serverUrl);
  if (!target.ok || !(await env.hasOrigin(target.originPattern).catch(() => false))) return null;
  const check = await checkConnection(env, settings);
  if (check.info) await env.saveServerInfo(check.info);
  return check;
}
