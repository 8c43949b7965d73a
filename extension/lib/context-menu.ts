import type { OwnerPushRecord, VersionDocument } from '../../shared/push-schema';
import type { PushApi } from './api-client';
import { describeError, type Problem } from './errors';
import { generatePassword, menuPasswordRule } from './generator/password';
import { t } from './i18n';
import { sendPush } from './push-sending';
import { defaultPushInput, endToEndWanted, describeRemaining, offeredKinds, type ExtensionKind } from './push-options';
import { pushHint, pushLabel } from './push-label';
import type { Settings } from './settings-storage';

export const menuIds = {
  selection: 'secret-push-selection',
  link: 'secret-push-link',
  page: 'secret-push-page',
  password: 'secret-push-new-password',
} as const;

/**
 * 'editable': the browsers cannot show an item on password fields only (contextMenus has no
 * such context, and a content script on every site to hide it elsewhere would need access to
 * all sites), so "Push a new password" is on every editable field and checks on click, in the
 * clicked frame, that the field is a password field; elsewhere it says so and pushes nothing.
 */
export type MenuContext = 'selection' | 'link' | 'page' | 'editable';

export interface MenuItem {
  id: string;
  title: string;
  contexts: MenuContext[];
  visible?: boolean;
}

/** The items, titled in the browser's language (asked when they are created). */
export function menuItems(): MenuItem[] {
  return [
    { id: menuIds.selection, title: t('menu_selection'), contexts: ['selection'] },
    { id: menuIds.link, title: t('menu_link'), contexts: ['link'] },
    { id: menuIds.page, title: t('menu_page'), contexts: ['page'] },
    { id: menuIds.password, title: t('menu_new_password'), contexts: ['editable'] },
  ];
}

/** The part of `contextMenus` that creating the items needs. */
export interface MenuRegistry {
  removeAll(): Promise<void> | void;
  create(item: MenuItem): unknown;
}

/** (Re)creates the items; safe to call on every install, update and browser start. */
export async function installMenus(menus: MenuRegistry, version?: VersionDocument): Promise<void> {
  await menus.removeAll();
  const visible = menuVisibility(version);
  for (const item of menuItems()) menus.create({ ...item, visible: visible[item.id] });
}

/** Items for kinds the server has switched off are hidden (unknown server: all shown). */
export function menuVisibility(version: VersionDocument | undefined): Record<string, boolean> {
  const kinds = offeredKinds(version);
  return {
    [menuIds.selection]: kinds.includes('text'),
    [menuIds.link]: kinds.includes('url'),
    [menuIds.page]: kinds.includes('url'),
    [menuIds.password]: kinds.includes('text'),
  };
}

/** Shows or hides the items when what we know about the server changes. */
export async function applyMenuVisibility(
  menus: { update(id: string, props: { visible: boolean }): Promise<void> | void },
  version: VersionDocument | undefined,
): Promise<void> {
  for (const [id, visible] of Object.entries(menuVisibility(version))) {
    try {
      await menus.update(id, { visible });
    } catch {
      // Not created yet: installMenus applies the same rule.
    }
  }
}

/** What the browser passes to `contextMenus.onClicked` (the fields used here). */
export interface MenuClick {
  menuItemId: string | number;
  selectionText?: string;
  linkUrl?: string;
  pageUrl?: string;
  frameId?: number;
}

export interface MenuTab {
  id?: number;
  url?: string;
}

/** Everything the handler touches, passed in so tests need no browser. */
export interface MenuEnv {
  loadSettings(): Promise<Settings>;
  createApi(settings: Settings): PushApi;
  /** The full selection of the page ('' if it cannot be read). */
  readSelection(tabId: number, frameId?: number): Promise<string>;
  /** Writes the link to the clipboard; false if that was not possible. */
  copy(text: string, tabId?: number): Promise<boolean>;
  notify(title: string, message: string): Promise<void>;
  /**
   * The password field focused in the clicked frame: checked (no `value`) or filled. False when
   * it is not one or cannot be reached. Optional: without it the item pushes nothing.
   */
  passwordField?(tabId: number, frameId: number | undefined, value?: string): Promise<boolean>;
  /** Called after a successful push (remember its kind, keep it for the popup). */
  pushed?(record: OwnerPushRecord, kind: ExtensionKind, hint?: string): Promise<void>;
}

export type MenuOutcome =
  | { ok: true; kind: ExtensionKind; record: OwnerPushRecord; copied: boolean; filled?: boolean }
  | { ok: false; problem: Problem | { kind: 'setup' | 'nothing'; message: string } };

/** What the clicked item pushes: kind and payload. */
async function source(env: MenuEnv, info: MenuClick, tab: MenuTab | undefined): Promise<{ kind: ExtensionKind; payload: string; fill?: boolean } | null> {
  switch (info.menuItemId) {
    case menuIds.selection: {
      // The browser's selectionText folds line breaks; read the real selection when the tab allows it.
      const fromPage = tab?.id !== undefined ? await env.readSelection(tab.id, info.frameId) : '';
      const text = fromPage.trim() ? fromPage : (info.selectionText ?? '');
      return { kind: 'text', payload: text };
    }
    case menuIds.link:
      return { kind: 'url', payload: info.linkUrl ?? '' };
    case menuIds.page:
      return { kind: 'url', payload: info.pageUrl ?? tab?.url ?? '' };
    case menuIds.password:
      // Only into a password field; the value lives in this call only (never stored).
      return tab?.id !== undefined && (await env.passwordField?.(tab.id, info.frameId))
        ? { kind: 'text', payload: generatePassword(menuPasswordRule), fill: true }
        : { kind: 'text', payload: '', fill: true };
    default:
      return null;
  }
}

/**
 * Pushes what the menu item points at with the default options, copies the secret link and
 * says so in a notification; failures are notified in plain words too.
 */
export async function handleMenuClick(env: MenuEnv, info: MenuClick, tab?: MenuTab): Promise<MenuOutcome | null> {
  const what = await source(env, info, tab);
  if (!what) return null;

  const fail = async (problem: Exclude<MenuOutcome, { ok: true }>['problem']): Promise<MenuOutcome> => {
    await env.notify(t('notify_failed'), problem.message);
    return { ok: false, problem };
  };

  if (!what.payload.trim()) {
    return fail({ kind: 'nothing', message: what.fill ? t('menu_not_password_field') : what.kind === 'text' ? t('no_selected_text') : t('no_address') });
  }
  if (what.kind === 'url' && !/^https?:\/\//i.test(what.payload)) {
    return fail({ kind: 'nothing', message: t('only_web_urls') });
  }

  const settings = await env.loadSettings();
  if (!settings.serverUrl) {
    return fail({ kind: 'setup', message: t('menu_choose_server') });
  }

  let record: OwnerPushRecord;
  try {
    const api = env.createApi(settings);
    // End to end only when the server says it takes it (asked only when the setting would use it).
    const limits = endToEndWanted(what.kind, settings.defaults, { end_to_end: true }) ? await api.limits().catch(() => undefined) : undefined;
    record = await sendPush(api, defaultPushInput(what.kind, what.payload, settings.defaults), endToEndWanted(what.kind, settings.defaults, limits));
  } catch (err) {
    return fail(describeError(err, settings.serverUrl, Boolean(settings.apiToken)));
  }

  const hint = pushHint(what.kind, what.payload, info.pageUrl ?? tab?.url);
  try {
    await env.pushed?.(record, what.kind, hint);
  } catch {
    // Remembering the push is a convenience; the push itself succeeded.
  }
  // The new password goes into the field only once its push exists (the link is the way to it).
  const filled = what.fill && tab?.id !== undefined ? await env.passwordField!(tab.id, info.frameId, what.payload) : undefined;
  const copied = await env.copy(record.html_url, tab?.id);
  // Never the link itself: notifications stay in the system's notification history.
  const label = pushLabel(record.name, what.kind, hint);
  const expiry = describeRemaining(record.days_remaining, record.views_remaining);
  await env.notify(
    copied ? t('notify_copied') : t('notify_not_copied'),
    what.fill ? t(filled ? 'notify_password_body' : 'notify_password_not_filled', expiry)
    : copied ? t('notify_copied_body', label, expiry) : t('notify_not_copied_body', label, expiry),
  );
  return { ok: true, kind: what.kind, record, copied, ...(what.fill ? { filled } : {}) };
}
