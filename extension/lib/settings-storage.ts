import { checkServerUrl } from './server-address';
import { defineItem } from './storage-item';
import { readManagedPolicy, serverLocked, type ManagedPolicy } from './managed-policy';
import { cleanDefaults, type PushDefaults } from './push-defaults';

export { cleanDefaults, type PushDefaults };
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

export interface Settings {
  serverUrl: string;
  apiToken: string;
  defaults: PushDefaults;
  /** The origin the user agreed to send the token to; the token goes nowhere else. */
  tokenOrigin?: string;
  /**
   * The organisation's policy (lib/managed-policy.ts), when there is one: `serverUrl` and
   * `defaults` above already follow it; the views read it to say what is set by it.
   */
  policy?: ManagedPolicy;
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

/**
 * The settings in force: the user's, with the organisation's policy over them. A locked address
 * replaces the user's; an unlocked one is used until the user sets their own. Defaults the
 * policy sets replace the user's (the user still changes them for one push in the form).
 */
export async function loadSettings(): Promise<Settings> {
  const [serverUrl, apiToken, defaults, tokenOrigin, policy] = await Promise.all([
    serverUrlItem.getValue(),
    apiTokenItem.getValue(),
    pushDefaultsItem.getValue(),
    tokenOriginItem.getValue(),
    readManagedPolicy(),
  ]);
  const managedUrl = policy.serverUrl && (serverLocked(policy) || !serverUrl) ? policy.serverUrl : undefined;
  const settings: Settings = { serverUrl: managedUrl ?? serverUrl, apiToken, defaults: { ...cleanDefaults(defaults), ...policy.pushDefaults } };
  if (tokenOrigin) settings.tokenOrigin = tokenOrigin;
  if (Object.keys(policy).length > 0) settings.policy = policy;
  return settings;
}
