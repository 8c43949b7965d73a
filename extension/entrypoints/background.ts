import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { createBackgroundEnv } from '../lib/background-env';
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
import { loadSettings, serverInfoItem, tokenToSend } from '../lib/settings-storage';
import { qrPath } from '../lib/qr-path';
import { createRelayHandler, isRelayRequest } from '../lib/relay-handler';

/** Wiring only: the logic is in lib/context-menu.ts. */
export default defineBackground(() => {
  const env = createBackgroundEnv();
  const described = (c: ApiConnection) => describedApi(createPushApi(c), c.serverUrl, Boolean(c.apiToken));
  const menus = browser.contextMenus as unknown as MenuRegistry;
  const onMenuClick = (info: MenuClick, tab?: MenuTab) => handleMenuClick(env, info, tab);

  const install = async () => installMenus(menus, (await serverInfoItem.getValue())?.version);
  browser.runtime.onInstalled.addListener(() => void install());
  browser.runtime.onStartup.addListener(() => void install());
  // The popup refreshes what the server offers; hide the items of kinds it switched off.
  serverInfoItem.watch((info) => void applyMenuVisibility(browser.contextMenus, info?.version));
  browser.contextMenus.onClicked.addListener((info, tab) => void onMenuClick(info, tab));

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
  const relay = createRelayHandler({ createApi: described, qrPath });
  browser.runtime.onMessage.addListener((message: unknown, sender: { id?: string }, sendResponse: (answer: unknown) => void) => {
    if (sender.id !== browser.runtime.id || !isRelayRequest(message)) return false;
    void relay(message).then(sendResponse);
    return true;
  });

  // The same handler, reachable from automation (a native context menu cannot be clicked by it).
  (globalThis as { secretPush?: unknown }).secretPush = { onMenuClick, setupDone };
});
