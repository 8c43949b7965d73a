import { browser } from 'wxt/browser';
import type { ConnectResult } from './connect-handler';
import type { PushApi } from './api-client';
import { copyHere } from './clipboard';
import type { PushTitle } from './push-label';
import type { OwnerPushRecord, PushInput } from '../../shared/push-schema';
import { ask, relayedPush, relayedPushApi, relayedQrPath, type GenerateRequest, type QrPath, type SendMessage } from './relay';
import {
  draftItem,
  lastPushItem,
  loadSettings,
  tokenToSend,
  serverInfoItem,
  type LastPush,
  type PushDraft,
  type ServerInfo,
  type Settings,
} from './settings-storage';

export interface TargetTab {
  id: number;
  url?: string;
  title?: string;
}

/** Everything the popup touches outside itself; component tests pass a fake one. */
export interface PopupEnv {
  loadSettings(): Promise<Settings>;
  loadServerInfo(): Promise<ServerInfo | null>;
  saveServerInfo(info: ServerInfo): Promise<void>;
  lastPush(): Promise<LastPush | null>;
  /** The server's API; the calls are made by the background (relay.ts). */
  createApi(settings: Settings): PushApi;
  /** A QR code of `text`, drawn by the background. */
  qrPath(text: string): Promise<QrPath>;
  /** A text push, made (and encrypted, when `endToEnd`) by the background. */
  sendPush(settings: Settings, input: PushInput, endToEnd: boolean): Promise<OwnerPushRecord>;
  /** A file push, the file handed to the file host or the background, which encrypt it when `endToEnd` (file-handoff.ts). */
  sendFilePush(settings: Settings, input: PushInput, file: File, endToEnd: boolean): Promise<OwnerPushRecord>;
  /** Opens Settings, the extension's options page (components/OptionsApp.tsx), in a tab. */
  openOptions(): void;
  /** The tab the popup acts on (see `findTargetTab`). */
  targetTab(): Promise<TargetTab | null>;
  readSelection(tabId: number): Promise<string>;
  copy(text: string): Promise<boolean>;
  hasOrigin(originPattern: string): Promise<boolean>;
  /** Asks for host permission. Call it synchronously inside a click handler (a user gesture). */
  requestOrigin(originPattern: string): Promise<boolean>;
  /**
   * `webRequest`, which lets the background read why a request failed (net-errors.ts): Firefox
   * only, where it is an optional permission (wxt.config.ts says why not Chromium).
   */
  netErrors?: {
    /** Asks for it. Call it synchronously inside a click handler (a user gesture). */
    request(): Promise<boolean>;
    /** Gives it back once a reason has been read: it is held for nothing else. */
    release(): Promise<unknown>;
  };
  /**
   * "Connect": the background signs in to the saved server in the browser's identity window and
   * keeps the token it gets (lib/connect-flow.ts). Optional: component tests leave it out.
   */
  connect?(): Promise<ConnectResult>;
  /** Remembers a push's kind and hint: `hint` as it is (a file's name), or taken from `from` (the page or URL). */
  rememberKind(urlToken: string, kind: string, hint?: string, from?: string): Promise<void>;
  /** The unsent form, kept in session storage (memory only) while the popup is closed. */
  loadDraft(): Promise<PushDraft | null>;
  saveDraft(draft: PushDraft | null): Promise<void>;
  /** History's titles of listed pushes (push-label.ts: pushTitles). */
  pushTitles(records: Array<{ url_token: string; name: string | null; file_names?: string[] }>): Promise<Record<string, PushTitle>>;
  /** A generated password or passphrase, made by the background (generator/). */
  generate(what: GenerateRequest): Promise<string>;
  /** The push's link with its key when this extension made it end to end (link-keys.ts). */
  wholeLink(record: { url_token: string; html_url: string }): Promise<string>;
}

/** The part of `tabs` used to find the target tab. */
export interface TabFinder {
  get(tabId: number): Promise<{ id?: number; url?: string; title?: string }>;
  query(q: { active: true; currentWindow: true }): Promise<Array<{ id?: number; url?: string; title?: string }>>;
}

/**
 * The tab the popup pushes from. Opened from the toolbar, that is the active tab of the
 * popup's window (the one `activeTab` was granted for). `?tabId=<id>` in the popup's address
 * overrides it: that is how a test, which opens popup.html in a tab of its own, names the page
 * it means. When the popup is itself the active tab there is no target tab.
 */
export async function findTargetTab(tabs: TabFinder, search: string, ownPrefix: string): Promise<TargetTab | null> {
  const override = new URLSearchParams(search).get('tabId');
  try {
    const tab = override ? await tabs.get(Number(override)) : (await tabs.query({ active: true, currentWindow: true }))[0];
    if (!tab || tab.id === undefined || tab.url?.startsWith(ownPrefix)) return null;
    return { id: tab.id, url: tab.url, title: tab.title };
  } catch {
    return null;
  }
}

export function createPopupEnv(): PopupEnv {
  const send: SendMessage = (message) => browser.runtime.sendMessage(message);
  return {
    loadSettings,
    loadServerInfo: () => serverInfoItem.getValue(),
    saveServerInfo: (info) => serverInfoItem.setValue(info),
    lastPush: () => lastPushItem.getValue().catch(() => null),
    createApi: (settings) => relayedPushApi({ serverUrl: settings.serverUrl, apiToken: tokenToSend(settings) }, send),
    qrPath: (text) => relayedQrPath(text, send),
    sendPush: (settings, input, endToEnd) => relayedPush({ serverUrl: settings.serverUrl, apiToken: tokenToSend(settings) }, input, endToEnd, send),
    // `.then(m => …)`: Vite wraps `(await import()).name` in its preload helper (1.8 KB).
    sendFilePush: (settings, input, file, endToEnd) =>
      import('./file-handoff').then((m) => m.handOverFilePush({ serverUrl: settings.serverUrl, apiToken: tokenToSend(settings) }, input, file, endToEnd, send)),
    // The popup closes itself once the page is asked for (Firefox leaves it open over the new tab).
    openOptions: () => void browser.runtime.openOptionsPage().finally(() => location.pathname.endsWith('/popup.html') && window.close()),
    targetTab: () => findTargetTab(browser.tabs as unknown as TabFinder, location.search, browser.runtime.getURL('/')),
    // These four are answered by the background (relay-handler.ts), which has their code already.
    readSelection: (tabId) => ask<string>(send, { relay: 'selection', tabId }),
    copy: copyHere,
    hasOrigin: (pattern) => browser.permissions.contains({ origins: [pattern] }),
    requestOrigin: (pattern) => browser.permissions.request({ origins: [pattern] }),
    netErrors: import.meta.env.FIREFOX
      ? {
          request: () => browser.permissions.request({ permissions: ['webRequest'] }),
          release: () => browser.permissions.remove({ permissions: ['webRequest'] }),
        }
      : undefined,
    connect: () => browser.runtime.sendMessage({ connect: 'start' }) as Promise<ConnectResult>,
    rememberKind: (urlToken, kind, hint, from) => ask<void>(send, { relay: 'remember', urlToken, kind, hint, from }),
    pushTitles: (records) =>
      ask<Record<string, PushTitle>>(send, { relay: 'titles', records: records.map(({ url_token, name, file_names }) => ({ url_token, name, file_names })) }),
    generate: (what) => ask<string>(send, { relay: 'generate', what }),
    wholeLink: (record) => ask<string>(send, { relay: 'whole-link', record: { url_token: record.url_token, html_url: record.html_url } }),
    // Session storage may be missing (an old Firefox): then there is simply no draft.
    loadDraft: () => draftItem.getValue().catch(() => null),
    saveDraft: (draft) => (draft ? draftItem.setValue(draft) : draftItem.removeValue()).catch(() => undefined),
  };
}
