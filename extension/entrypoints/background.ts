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
import { serverInfoItem } from '../lib/settings-storage';

/** Wiring only: the logic is in lib/context-menu.ts. */
export default defineBackground(() => {
  const env = createBackgroundEnv();
  const menus = browser.contextMenus as unknown as MenuRegistry;
  const onMenuClick = (info: MenuClick, tab?: MenuTab) => handleMenuClick(env, info, tab);

  const install = async () => installMenus(menus, (await serverInfoItem.getValue())?.version);
  browser.runtime.onInstalled.addListener(() => void install());
  browser.runtime.onStartup.addListener(() => void install());
  // The popup refreshes what the server offers; hide the items of kinds it switched off.
  serverInfoItem.watch((info) => void applyMenuVisibility(browser.contextMenus, info?.version));
  browser.contextMenus.onClicked.addListener((info, tab) => void onMenuClick(info, tab));

  // The same handler, reachable from automation (a native context menu cannot be clicked by it).
  (globalThis as { secretPush?: unknown }).secretPush = { onMenuClick };
});
