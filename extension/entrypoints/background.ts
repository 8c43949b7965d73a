import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { createBackgroundEnv } from '../lib/background-env';
import { handleMenuClick, installMenus, type MenuClick, type MenuRegistry, type MenuTab } from '../lib/context-menu';

/** Wiring only: the logic is in lib/context-menu.ts. */
export default defineBackground(() => {
  const env = createBackgroundEnv();
  const menus = browser.contextMenus as unknown as MenuRegistry;
  const onMenuClick = (info: MenuClick, tab?: MenuTab) => handleMenuClick(env, info, tab);

  browser.runtime.onInstalled.addListener(() => void installMenus(menus));
  browser.runtime.onStartup.addListener(() => void installMenus(menus));
  browser.contextMenus.onClicked.addListener((info, tab) => void onMenuClick(info, tab));

  // The same handler, reachable from automation (a native context menu cannot be clicked by it).
  (globalThis as { secretPush?: unknown }).secretPush = { onMenuClick };
});
