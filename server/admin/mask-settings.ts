import type { SettingSource } from '../config.js';

/** Settings whose values are credentials: shown as set or not, never their value. */
const SECRET_SETTINGS = new Set(['MASTER_KEY', 'MASTER_KEY_OLD', 'METRICS_TOKEN', 'OIDC_CLIENT_SECRET']);

/** The effective configuration fit to show an administrator: secrets masked, URLs without their passwords. */
export function maskedSettings(settings: Record<string, SettingSource>): { name: string; value: string; source: SettingSource['source'] }[] {
  return Object.entries(settings)
    .map(([name, s]) => ({ name, value: mask(name, s.value), source: s.source }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function mask(name: string, value: string): string {
  if (value === '') return '';
  if (SECRET_SETTINGS.has(name)) return '••••••••';
  // Any URL setting may carry a password (DATABASE_URL, SMTP_URL's login, a wiki behind basic
  // auth): shown without it.
  if (name.endsWith('_URL')) {
    try {
      const url = new URL(value);
      if (url.password) url.password = '••••••••';
      return url.toString();
    } catch {
      return name === 'DATABASE_URL' ? '••••••••' : value;
    }
  }
  return value;
}
