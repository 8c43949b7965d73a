import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { createBackgroundEnv, recordPush } from '../lib/background-env';
import { closeIdleFileHost, openFileHost, type HostPlace } from '../lib/file-host-opening';
import {
  applyMenuVisibility,
  handleMenuClick,
  installMenus,
  type MenuClick,
  type MenuRegistry,
  type MenuTab,
} from '../lib/context-menu';
import { finishSetup } from '../lib/connection-check';
import { createPushApi, type ApiConnection } from '../lib/api-client';
import { describedApi } from '../lib/described-api';
import { loadSettings, notifyOpenedItem, openedSeenItem, serverInfoItem, tokenToSend } from '../lib/settings-storage';
import { checkOpened, OPEN_WATCH_PERIOD_MINUTES } from '../lib/open-watch';
import { withReceipts } from '../lib/read-receipt';
import { t } from '../lib/i18n';
import { qrPath } from '../lib/qr-path';
import { createRelayHandler, isRelayRequest } from '../lib/relay-handler';
import { loadWordList, WORD_LIST_FILE } from '../lib/generator/word-list';
import { handleConnect, isConnectRequest } from '../lib/connect-handler';
import { apiTokenItem, tokenOriginItem } from '../lib/settings-storage';

/** Wiring only: the logic is in lib/context-menu.ts. */
export default defineBackground(() => {
  const env = createBackgroundEnv();
  const described = (c: ApiConnection) => withReceipts(describedApi(createPushApi(c), c.serverUrl, Boolean(c.apiToken)));
  const menus = browser.contextMenus as unknown as MenuRegistry;
  const onMenuClick = (info: MenuClick, tab?: MenuTab) => handleMenuClick(env, info, tab);

  // The opt-in for "first opened" notifications is a checkbox in the toolbar button's own menu
  // (the popup stays within its size budget).
  const NOTIFY_MENU = 'secret-push-notify-opened';
  const install = async () => {
    await installMenus(menus, (await serverInfoItem.getValue())?.version);
    const contexts = [browser.action ? 'action' : 'browser_action'] as ['action'];
    browser.contextMenus.create({ id: NOTIFY_MENU, type: 'checkbox', title: t('notify_opened'), contexts, checked: await notifyOpenedItem.getValue() });
  };
  browser.runtime.onInstalled.addListener(() => void install());
  browser.runtime.onStartup.addListener(() => void install());
  // The popup refreshes what the server offers; hide the items of kinds it switched off.
  serverInfoItem.watch((info) => void applyMenuVisibility(browser.contextMenus, info?.version));
  browser.contextMenus.onClicked.addListener((info, tab) =>
    void (info.menuItemId === NOTIFY_MENU ? notifyOpenedItem.setValue(Boolean(info.checked)) : onMenuClick(info, tab)),
  );

  // First run: the popup saves the settings, then asks for host access; the prompt may close
  // the popup before the answer comes, so the set-up is finished here when access arrives.
  const setupEnv = {
    loadSettings,
    hasOrigin: (pattern: string) => browser.permissions.contains({ origins: [pattern] }),
    createApi: (settings: Awaited<ReturnType<typeof loadSettings>>) => described({ serverUrl: settings.serverUrl, apiToken: tokenToSend(settings) }),
    saveServerInfo: (info: Parameters<typeof serverInfoItem.setValue>[0]) => serverInfoItem.setValue(info),
  };
  const setupDone = (origins: string[]) => finishSetup(setupEnv, origins);
  browser.permissions.onAdded.addListener((added) => void setupDone(added.origins ?? []));

  // The popup's server calls and QR codes (lib/relay.ts). sendResponse, not a returned
  // promise: Chromium's onMessage does not wait for a promise.
  const hostPlace = {
    offscreen: (browser as unknown as { offscreen?: HostPlace['offscreen'] }).offscreen,
    runtime: browser.runtime as unknown as HostPlace['runtime'],
    document: typeof document === 'undefined' ? undefined : document,
  };
  const relay = createRelayHandler({
    createApi: described,
    qrPath,
    openFileHost: () => openFileHost(hostPlace),
    closeIdleFileHost: () => closeIdleFileHost(hostPlace),
    pushed: recordPush,
    readSelection: (tabId) => env.readSelection(tabId),
    loadWords: () => loadWordList(browser.runtime.getURL(`/${WORD_LIST_FILE}` as never)),
  });
  browser.runtime.onMessage.addListener((message: unknown, sender: { id?: string }, sendResponse: (answer: unknown) => void) => {
    if (sender.id !== browser.runtime.id || !isRelayRequest(message)) return false;
    void relay(message).then(sendResponse);
    return true;
  });

  // "Connect" (lib/connect-flow.ts): here, not in the popup, which closes when the sign-in window opens.
  const identity = (browser as unknown as { identity: { getRedirectURL(): string; launchWebAuthFlow(d: { url: string; interactive: boolean }): Promise<string | undefined> } }).identity;
  const connectEnv = {
    redirectUrl: () => identity.getRedirectURL(),
    launchWebAuthFlow: (url: string) => identity.launchWebAuthFlow({ url, interactive: true }),
    fetch: (input: RequestInfo | URL, init?: RequestInit) => fetch(input, init),
    crypto,
    loadSettings,
    saveToken: async (token: string, origin: string) => void (await Promise.all([apiTokenItem.setValue(token), tokenOriginItem.setValue(origin)])),
  };
  browser.runtime.onMessage.addListener((message: unknown, sender: { id?: string }, sendResponse: (answer: unknown) => void) => {
    if (sender.id !== browser.runtime.id || !isConnectRequest(message)) return false;
    void handleConnect(connectEnv).then(sendResponse, (err: unknown) => sendResponse({ ok: false, reason: 'failed', detail: String(err) }));
    return true;
  });

  // Opt-in read receipts: an alarm looks for newly opened pushes while the setting is on.
  const OPEN_WATCH = 'open-watch';
  const watchEnv = { loadSettings, createApi: setupEnv.createApi, enabled: notifyOpenedItem, seen: openedSeenItem, notify: env.notify };
  const lookForOpened = () => checkOpened(watchEnv).catch(() => 0); // offline or signed out: the next alarm tries again
  const arm = async (on: boolean) => {
    if (!on) return void (await browser.alarms.clear(OPEN_WATCH));
    await browser.alarms.create(OPEN_WATCH, { periodInMinutes: OPEN_WATCH_PERIOD_MINUTES });
  };
  browser.alarms.onAlarm.addListener((alarm) => void (alarm.name === OPEN_WATCH && lookForOpened()));
  browser.runtime.onStartup.addListener(() => void notifyOpenedItem.getValue().then(arm));
  // Turned on: start from what is opened now (no notification for the past), then watch.
  notifyOpenedItem.watch((on) => {
    void Promise.resolve(browser.contextMenus.update(NOTIFY_MENU, { checked: on })).catch(() => undefined);
    void openedSeenItem.setValue(null).then(() => arm(on)).then(() => (on ? lookForOpened() : 0));
  });

  // The same handler, reachable from automation (a native context menu cannot be clicked by it).
  (globalThis as { secretPush?: unknown }).secretPush = { onMenuClick, setupDone, lookForOpened };
});
