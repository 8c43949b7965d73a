import { browser } from 'wxt/browser';
import type { OwnerPushRecord } from '../../shared/push-schema';
import { createPushApi } from './api-client';
import { copyHere, copyViaTab } from './clipboard';
import type { MenuEnv } from './context-menu';
import { rememberKind } from './kind-memory';
import { notify } from './notify';
import { passwordField } from './password-field';
import type { ExtensionKind } from './push-options';
import { readSelection, type ScriptRunner } from './selection';
import { lastPushItem, loadSettings, tokenToSend } from './settings-storage';

/** Keeps what the popup needs to show a push made elsewhere (the kind, and the last link). */
export async function recordPush(record: OwnerPushRecord, kind: ExtensionKind, hint?: string): Promise<void> {
  await Promise.all([
    rememberKind(record.url_token, kind, hint),
    lastPushItem
      .setValue({
        html_url: record.html_url,
        kind,
        created_at: record.created_at,
        days_remaining: record.days_remaining,
        views_remaining: record.views_remaining,
      })
      .catch(() => undefined), // no session storage (old Firefox): nothing to show later, no harm
  ]);
}

/** The real browser behind the context-menu handler. */
export function createBackgroundEnv(): MenuEnv {
  const scripting = browser.scripting as unknown as ScriptRunner;
  // A Firefox MV2 background page has a DOM and may write the clipboard itself;
  // Chromium's service worker has neither, so it writes through the tab.
  const hasDom = typeof document !== 'undefined';
  return {
    loadSettings,
    createApi: (settings) => createPushApi({ serverUrl: settings.serverUrl, apiToken: tokenToSend(settings) }),
    readSelection: (tabId, frameId) => readSelection(scripting, tabId, frameId),
    passwordField: (tabId, frameId, value) => passwordField(scripting, tabId, frameId, value),
    copy: async (text, tabId) => {
      if (hasDom && (await copyHere(text))) return true;
      return tabId === undefined ? false : copyViaTab(scripting, tabId, text);
    },
    notify: (title, message) => notify(browser.notifications, browser.runtime.getURL('/icon/128.png'), title, message),
    pushed: recordPush,
  };
}
