import { storage } from 'wxt/utils/storage';
import type { PushLimits, VersionDocument } from '../../shared/push-schema';

/**
 * Every storage key of the extension, in one place.
 * - The API token lives in `storage.local` only: never synced to other devices.
 * - The server URL and default options are harmless preferences and follow the user (`sync`).
 * - The last push (its secret link) is kept in `session` storage: memory only, gone on restart.
 */
export const storageKeys = {
  serverUrl: 'sync:serverUrl',
  pushDefaults: 'sync:pushDefaults',
  apiToken: 'local:apiToken',
  serverInfo: 'local:serverInfo',
  pushKinds: 'local:pushKinds',
  lastPush: 'session:lastPush',
} as const;

/** The options a user may preset; a missing field means "the server's default". */
export interface PushDefaults {
  expire_after_days?: number;
  expire_after_views?: number;
  retrieval_step?: boolean;
  deletable_by_viewer?: boolean;
}

export interface Settings {
  serverUrl: string;
  apiToken: string;
  defaults: PushDefaults;
}

/** What the server said about itself the last time we asked (lets the popup draw at once). */
export interface ServerInfo {
  serverUrl: string;
  version: VersionDocument;
  limits: PushLimits;
  checkedAt: string;
}

/** The result of the last push made from the context menu, for the popup to show again. */
export interface LastPush {
  html_url: string;
  kind: string;
  created_at: string;
  days_remaining: number;
  views_remaining: number;
}

export const serverUrlItem = storage.defineItem<string>(storageKeys.serverUrl, { fallback: '' });
export const apiTokenItem = storage.defineItem<string>(storageKeys.apiToken, { fallback: '' });
export const pushDefaultsItem = storage.defineItem<PushDefaults>(storageKeys.pushDefaults, { fallback: {} });
export const serverInfoItem = storage.defineItem<ServerInfo>(storageKeys.serverInfo);
export const pushKindsItem = storage.defineItem<Record<string, string>>(storageKeys.pushKinds, { fallback: {} });
export const lastPushItem = storage.defineItem<LastPush>(storageKeys.lastPush);

export async function loadSettings(): Promise<Settings> {
  const [serverUrl, apiToken, defaults] = await Promise.all([
    serverUrlItem.getValue(),
    apiTokenItem.getValue(),
    pushDefaultsItem.getValue(),
  ]);
  return { serverUrl, apiToken, defaults: cleanDefaults(defaults) };
}

export async function saveSettings(settings: Settings): Promise<void> {
  const serverUrl = settings.serverUrl.trim();
  const previous = await serverUrlItem.getValue();
  await Promise.all([
    serverUrlItem.setValue(serverUrl),
    apiTokenItem.setValue(settings.apiToken.trim()),
    pushDefaultsItem.setValue(cleanDefaults(settings.defaults)),
  ]);
  // What we knew about another server no longer applies.
  if (previous !== serverUrl) await serverInfoItem.removeValue();
}

/** Keeps only well-formed fields, so a damaged or hand-edited value cannot break the form. */
export function cleanDefaults(value: unknown): PushDefaults {
  const out: PushDefaults = {};
  if (!value || typeof value !== 'object') return out;
  const v = value as Record<string, unknown>;
  for (const key of ['expire_after_days', 'expire_after_views'] as const) {
    if (typeof v[key] === 'number' && Number.isSafeInteger(v[key])) out[key] = v[key] as number;
  }
  for (const key of ['retrieval_step', 'deletable_by_viewer'] as const) {
    if (typeof v[key] === 'boolean') out[key] = v[key] as boolean;
  }
  return out;
}

export type ServerUrlCheck = { ok: true; url: string; origin: string; originPattern: string } | { ok: false; error: string };

/**
 * Checks a server URL typed by a user and gives its canonical form (no trailing slash), its
 * origin and the match pattern to ask host permission for.
 */
export function checkServerUrl(input: string): ServerUrlCheck {
  const text = input.trim();
  if (!text) return { ok: false, error: 'Enter the address of your Secret Push server, like https://push.example.org.' };
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return { ok: false, error: `"${text}" is not a web address. It should look like https://push.example.org.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, error: 'The server address must start with https:// (or http:// for a local server).' };
  }
  if (url.username || url.password) return { ok: false, error: 'Leave user names and passwords out of the server address.' };
  url.search = '';
  url.hash = '';
  const path = url.pathname.replace(/\/+$/, '');
  return {
    ok: true,
    url: `${url.origin}${path}`,
    origin: url.origin,
    // Match patterns take no port: Chromium and Firefox then match every port of the host.
    originPattern: `${url.protocol}//${url.hostname}/*`,
  };
}

/** The server's page where a signed-in user makes an API token. */
export function tokenPageUrl(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}/users/token`;
}
