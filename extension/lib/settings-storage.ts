import { checkServerUrl } from './server-address';
import { defineItem, storageArea } from './storage-item';
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
  /** The origin the user agreed to send the API token to (shown before it is first sent). */
  tokenOrigin: 'local:tokenOrigin',
  serverInfo: 'local:serverInfo',
  pushKinds: 'local:pushKinds',
  /** The keys of the end-to-end pushes made here (never synced), so History can copy whole links. */
  linkKeys: 'local:linkKeys',
  lastPush: 'session:lastPush',
  /** The popup's unsent form: memory only, never synced, removed after a push. */
  draft: 'session:draft',
  /** Opt-in: a notification when one of the user's pushes is first opened. */
  notifyOpened: 'local:notifyOpened',
  /** push_ids already reported as opened (lib/open-watch.ts). */
  openedSeen: 'local:openedSeen',
} as const;

/** The options a user may preset; a missing field means "the server's default". */
export interface PushDefaults {
  expire_after_days?: number;
  expire_after_views?: number;
  retrieval_step?: boolean;
  deletable_by_viewer?: boolean;
  /** Encrypt text and file pushes in the extension (docs/end-to-end-encryption.md); on unless false. */
  end_to_end?: boolean;
}

export interface Settings {
  serverUrl: string;
  apiToken: string;
  defaults: PushDefaults;
  /** The origin the user agreed to send the token to; the token goes nowhere else. */
  tokenOrigin?: string;
}

/** The token, only for the server the user agreed to send it to (a synced address may differ). */
export function tokenToSend(settings: Settings): string | undefined {
  const check = checkServerUrl(settings.serverUrl);
  return settings.apiToken && check.ok && settings.tokenOrigin === check.origin ? settings.apiToken : undefined;
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

export const serverUrlItem = /* @__PURE__ */ defineItem<string>(storageKeys.serverUrl, '');
export const apiTokenItem = /* @__PURE__ */ defineItem<string>(storageKeys.apiToken, '');
export const pushDefaultsItem = /* @__PURE__ */ defineItem<PushDefaults>(storageKeys.pushDefaults, {});
export const serverInfoItem = /* @__PURE__ */ defineItem<ServerInfo>(storageKeys.serverInfo);
export const pushKindsItem = /* @__PURE__ */ defineItem<Record<string, string>>(storageKeys.pushKinds, {});
export const linkKeysItem = /* @__PURE__ */ defineItem<Record<string, string>>(storageKeys.linkKeys, {});
export const lastPushItem = /* @__PURE__ */ defineItem<LastPush>(storageKeys.lastPush);
/** The popup's unsent push form. The passphrase is never kept, even in memory storage. */
export interface PushDraft {
  kind: string;
  text: string;
  address?: string;
  name?: string;
  note?: string;
}
export const draftItem = /* @__PURE__ */ defineItem<PushDraft>(storageKeys.draft);
export const tokenOriginItem = /* @__PURE__ */ defineItem<string>(storageKeys.tokenOrigin, '');
export const notifyOpenedItem = /* @__PURE__ */ defineItem<boolean>(storageKeys.notifyOpened, false);
export const openedSeenItem = /* @__PURE__ */ defineItem<string[]>(storageKeys.openedSeen);

export async function loadSettings(): Promise<Settings> {
  const [serverUrl, apiToken, defaults, tokenOrigin] = await Promise.all([
    serverUrlItem.getValue(),
    apiTokenItem.getValue(),
    pushDefaultsItem.getValue(),
    tokenOriginItem.getValue(),
  ]);
  const settings: Settings = { serverUrl, apiToken, defaults: cleanDefaults(defaults) };
  if (tokenOrigin) settings.tokenOrigin = tokenOrigin;
  return settings;
}

/** `sync:serverUrl` → ['sync', 'serverUrl'] */
function area(key: string): [area: 'sync' | 'local', name: string] {
  const [a, name] = key.split(':') as ['sync' | 'local', string];
  return [a, name];
}

/**
 * Writes the settings with the storage calls issued before this function returns (no await
 * before them): the popup may be closed by the browser's permission prompt the moment after
 * the click, and a write that was never issued would be lost. Cached server info names its
 * server, so info about another server is ignored rather than deleted here.
 */
export function saveSettings(settings: Settings): Promise<void> {
  const values: Record<string, unknown> = {
    [storageKeys.serverUrl]: settings.serverUrl.trim(),
    [storageKeys.pushDefaults]: cleanDefaults(settings.defaults),
    [storageKeys.apiToken]: settings.apiToken.trim(),
    [storageKeys.tokenOrigin]: settings.tokenOrigin ?? '',
  };
  const byArea: Record<'sync' | 'local', Record<string, unknown>> = { sync: {}, local: {} };
  for (const [key, value] of Object.entries(values)) {
    const [a, name] = area(key);
    byArea[a][name] = value;
  }
  return Promise.all([storageArea('sync').set(byArea.sync), storageArea('local').set(byArea.local)]).then(() => undefined);
}

/** Keeps only well-formed fields, so a damaged or hand-edited value cannot break the form. */
export function cleanDefaults(value: unknown): PushDefaults {
  const out: PushDefaults = {};
  if (!value || typeof value !== 'object') return out;
  const v = value as Record<string, unknown>;
  for (const key of ['expire_after_days', 'expire_after_views'] as const) {
    if (typeof v[key] === 'number' && Number.isSafeInteger(v[key])) out[key] = v[key] as number;
  }
  for (const key of ['retrieval_step', 'deletable_by_viewer', 'end_to_end'] as const) {
    if (typeof v[key] === 'boolean') out[key] = v[key] as boolean;
  }
  return out;
}
