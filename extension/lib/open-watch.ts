import type { OwnerPushRecord } from '../../shared/push-schema';
import type { PushApi } from './api-client';
import { t } from './i18n';
import type { Settings } from './settings-storage';
import { tokenToSend } from './settings-storage';
import type { StorageItem } from './storage-item';

/** How often the background looks for newly opened pushes (an `alarms` period, in minutes). */
export const OPEN_WATCH_PERIOD_MINUTES = 1;
/** Opened pushes remembered (so each is reported once); the oldest are forgotten first. */
const REMEMBERED = 500;

export interface OpenWatchEnv {
  loadSettings(): Promise<Settings>;
  createApi(settings: Settings): PushApi;
  /** Whether the user asked for these notifications. */
  enabled: StorageItem<boolean>;
  /** push_ids already reported as opened; null until the first look (which reports nothing). */
  seen: StorageItem<string[] | null>;
  notify(title: string, message: string): Promise<void>;
}

/**
 * The opt-in "first opened" notification: looks at the newest pushes of the signed-in user and
 * tells once about each one a recipient has opened since the last look. The first look after the
 * user turns it on only takes note of what is already opened. The notification names the push by
 * the label its owner gave it, never its secret or link. Resolves with how many were reported.
 */
export async function checkOpened(env: OpenWatchEnv): Promise<number> {
  if (!(await env.enabled.getValue())) return 0;
  const settings = await env.loadSettings();
  if (!settings.serverUrl || !tokenToSend(settings)) return 0;
  const api = env.createApi(settings);
  const [active, expired] = await Promise.all([api.active(1), api.expired(1)]);
  const opened = [...active, ...expired].filter((r): r is OwnerPushRecord => Boolean(r.push_id && r.first_viewed_at));
  const seen = await env.seen.getValue();
  if (seen === null) {
    await env.seen.setValue(opened.map((r) => r.push_id).slice(-REMEMBERED));
    return 0;
  }
  const known = new Set(seen);
  const fresh = opened.filter((r) => !known.has(r.push_id));
  if (!fresh.length) return 0;
  await env.seen.setValue([...seen, ...fresh.map((r) => r.push_id)].slice(-REMEMBERED));
  for (const r of fresh) await env.notify(t('notify_opened_title'), r.name ? t('notify_opened_named', r.name) : t('notify_opened_unnamed'));
  return fresh.length;
}
