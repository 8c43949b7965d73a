import { describe, expect, it } from 'vitest';
import { maskedSettings } from '../../../server/admin/mask-settings.js';

const env = (value: string) => ({ value, source: 'environment' as const });

describe('the configuration shown to administrators', () => {
  it('masks credentials and the passwords inside URLs, and shows everything else as set', () => {
    const shown = Object.fromEntries(
      maskedSettings({
        MASTER_KEY: env('ab'.repeat(32)),
        OIDC_CLIENT_SECRET: env('client-secret-value'),
        METRICS_TOKEN: env('metrics-token-value-1234'),
        SMTP_URL: env('smtps://mailer:smtp-password-value@mail.example:465'),
        DATABASE_URL: env('postgres://app:db-password-value@db.example:5432/push'),
        WIKI_BASE_URL: env('https://wiki.example/w/'),
        BRAND_NAME: env('Acme Vault'),
      }).map((s) => [s.name, s.value]),
    );
    expect(JSON.stringify(shown)).not.toMatch(/abab|client-secret-value|metrics-token-value|smtp-password-value|db-password-value/);
    expect(shown.SMTP_URL).toBe('smtps://mailer:%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2%E2%80%A2@mail.example:465');
    expect(shown.DATABASE_URL).toContain('@db.example:5432/push');
    expect(shown.WIKI_BASE_URL).toBe('https://wiki.example/w/');
    expect(shown.BRAND_NAME).toBe('Acme Vault');
    expect(shown.OIDC_CLIENT_SECRET).toBe('••••••••');
  });
});
