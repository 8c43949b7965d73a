import type { PushInput, PushLimits, VersionDocument } from '../../shared/push-schema';
import { t, tn, type MessageKey } from './i18n';
import type { PushDefaults } from './settings-storage';

/** The kinds the extension can push (files from the popup only, not the context menu). */
export type ExtensionKind = 'text' | 'url' | 'qr' | 'file';

/** Used until the server has told its own limits (the Password Pusher defaults). */
export const fallbackLimits: PushLimits = {
  days: { default: 7, min: 1, max: 90 },
  views: { default: 5, min: 1, max: 100 },
  retrieval_step: true,
  deletable_by_viewer: true,
  max_payload_chars: 1_048_576,
  max_qr_chars: 1024,
};

/** Kinds offered, in order: those the version document reports as disabled are left out. */
export function offeredKinds(version: VersionDocument | undefined): ExtensionKind[] {
  if (!version) return ['text', 'url', 'qr'];
  const p = version.features.pushes;
  if (!p.enabled) return [];
  const kinds: ExtensionKind[] = ['text'];
  if (p.url_pushes.enabled) kinds.push('url');
  if (p.qr_code_pushes.enabled) kinds.push('qr');
  return kinds;
}

/** Whether the popup offers a file push: files are on, and an account is not needed or a token is set. */
export function filesOffered(version: VersionDocument | undefined, hasToken: boolean): boolean {
  const files = version?.features.pushes.file_attachments;
  return Boolean(version?.features.pushes.enabled && files?.enabled && (!files.requires_authentication || hasToken));
}

/**
 * Whether a push goes end to end: text and files, when the user's setting allows it (on unless
 * turned off) and the server says it takes such pushes. URL and QR pushes never: the server
 * must read them (it redirects to the URL, it draws the QR code).
 */
export function endToEndWanted(kind: string, defaults: PushDefaults, limits: Pick<PushLimits, 'end_to_end'> | undefined): boolean {
  return (kind === 'text' || kind === 'file') && defaults.end_to_end !== false && limits?.end_to_end === true;
}

/** The options of one push as the form holds them. */
export interface PushOptions {
  expire_after_days: number;
  expire_after_views: number;
  retrieval_step: boolean;
  deletable_by_viewer: boolean;
  passphrase: string;
  name: string;
  note: string;
  /** Scheduled release: a local date and time (`<input type=datetime-local>`), '' for none. */
  not_before: string;
}

/** The user's defaults where set, else the server's. */
export function initialOptions(defaults: PushDefaults, limits: PushLimits): PushOptions {
  return {
    expire_after_days: defaults.expire_after_days ?? limits.days.default,
    expire_after_views: defaults.expire_after_views ?? limits.views.default,
    retrieval_step: defaults.retrieval_step ?? limits.retrieval_step,
    deletable_by_viewer: defaults.deletable_by_viewer ?? limits.deletable_by_viewer,
    passphrase: '',
    name: '',
    note: '',
    not_before: '',
  };
}

/** The create input for a push; optional text fields are sent only when filled in. */
export function buildPushInput(kind: ExtensionKind, payload: string, options: PushOptions): PushInput {
  const input: PushInput = {
    kind,
    payload,
    expire_after_days: options.expire_after_days,
    expire_after_views: options.expire_after_views,
    retrieval_step: options.retrieval_step,
  };
  // URL pushes are never deletable by viewers: the server ignores (or refuses) the field.
  if (kind !== 'url') input.deletable_by_viewer = options.deletable_by_viewer;
  if (options.passphrase) input.passphrase = options.passphrase;
  if (options.name.trim()) input.name = options.name.trim();
  if (options.note.trim()) input.note = options.note.trim();
  // The browser reads the field's time as local; the server wants its offset (…Z).
  if (options.not_before) input.not_before = new Date(options.not_before).toISOString();
  return input;
}

/** The create input of a context-menu push: default options only. */
export function defaultPushInput(kind: ExtensionKind, payload: string, defaults: PushDefaults): PushInput {
  const input: PushInput = { kind, payload };
  if (defaults.expire_after_days !== undefined) input.expire_after_days = defaults.expire_after_days;
  if (defaults.expire_after_views !== undefined) input.expire_after_views = defaults.expire_after_views;
  if (defaults.retrieval_step !== undefined) input.retrieval_step = defaults.retrieval_step;
  if (kind !== 'url' && defaults.deletable_by_viewer !== undefined) input.deletable_by_viewer = defaults.deletable_by_viewer;
  return input;
}

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Checks the form before anything is sent, with the same bounds the server applies; the
 * messages are keyed by field like the server's 422 answers.
 */
export function checkPush(kind: ExtensionKind, payload: string, options: PushOptions, limits: PushLimits): Record<string, string> {
  const problems: Record<string, string> = {};
  if (kind === 'file') {
    // The file itself is checked by the form (it is not a payload).
  } else if (!payload.trim()) {
    problems.payload =
      kind === 'text' ? t('check_type_text') : t('check_no_address');
  } else if (kind === 'url' && !isWebUrl(payload.trim())) {
    problems.payload = t('only_web_urls');
  } else if (kind === 'qr' && payload.length > limits.max_qr_chars) {
    problems.payload = t('qr_too_long', limits.max_qr_chars, payload.length);
  } else if (payload.length > limits.max_payload_chars) {
    problems.payload = t('secret_too_long', limits.max_payload_chars);
  }
  const range = (value: number, b: { min: number; max: number }, message: 'between_days' | 'between_views') =>
    Number.isInteger(value) && value >= b.min && value <= b.max ? undefined : t(message, b.min, b.max);
  const days = range(options.expire_after_days, limits.days, 'between_days');
  if (days) problems.expire_after_days = days;
  const views = range(options.expire_after_views, limits.views, 'between_views');
  if (views) problems.expire_after_views = views;
  return problems;
}

/** "Expires in 7 days or after 5 views, whichever comes first." */
export function describeRemaining(days: number, views: number): string {
  return t('expires', tn('expires_days', days, days), tn('expires_views', views, views));
}

const kindKeys: Record<string, MessageKey> = { text: 'kind_text', url: 'kind_url', qr: 'kind_qr', file: 'kind_file' };

/** "Text", "URL", "QR code", "File" in the UI language; an unknown kind as the server names it. */
export function kindLabel(kind: string): string {
  const key = kindKeys[kind];
  return key ? t(key) : kind;
}
