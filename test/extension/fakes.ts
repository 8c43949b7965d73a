import { vi } from 'vitest';
import type { OwnerPushRecord, PushInput, PushLimits, VersionDocument } from '../../shared/push-schema';
import { sendFilePush, sendPush } from '../../extension/lib/push-sending';
import type { PushApi } from '../../extension/lib/api-client';
import { describedApi } from '../../extension/lib/described-api';
import { qrPath } from '../../extension/lib/qr-path';
import type { PopupEnv } from '../../extension/lib/popup-env';
import { tokenToSend, type Settings } from '../../extension/lib/settings-storage';
import { pushTitles } from '../../extension/lib/push-label';
import { generatePassphrase, generatePassword } from '../../extension/lib/generator/password';

export const SERVER = 'https://push.example.org';

export function versionDocument(pushes: { url?: boolean; qr?: boolean; enabled?: boolean } = {}, anonymous = true): VersionDocument {
  return {
    application_version: '1.2.3',
    api_version: '2.1',
    edition: 'oss',
    features: {
      anonymous_access: anonymous,
      api_token_authentication: true,
      accounts: { enabled: false },
      pushes: {
        enabled: pushes.enabled ?? true,
        email_auto_dispatch: false,
        file_attachments: { enabled: true, requires_authentication: true },
        url_pushes: { enabled: pushes.url ?? true },
        qr_code_pushes: { enabled: pushes.qr ?? true },
      },
      requests: { enabled: false },
    },
  };
}

export const limits: PushLimits = {
  days: { default: 7, min: 1, max: 90 },
  views: { default: 5, min: 1, max: 100 },
  retrieval_step: true,
  deletable_by_viewer: true,
  max_payload_chars: 1_048_576,
  max_qr_chars: 1024,
};

let counter = 0;
export function record(overrides: Partial<OwnerPushRecord> = {}): OwnerPushRecord {
  const token = overrides.url_token ?? `tok${++counter}abcdefgh`;
  return {
    expire_after_views: 5,
    expired: false,
    url_token: token,
    deletable_by_viewer: true,
    retrieval_step: true,
    expired_on: null,
    passphrase: '',
    created_at: '2025-01-02T03:04:05.000Z',
    updated_at: '2025-01-02T03:04:05.000Z',
    expire_after_days: 7,
    days_remaining: 7,
    views_remaining: 5,
    deleted: false,
    json_url: `${SERVER}/p/${token}.json`,
    html_url: `${SERVER}/p/${token}/r`,
    note: null,
    name: null,
    push_id: `H${token}`,
    first_viewed_at: null,
    failed_passphrase_attempts: 0,
    max_failed_passphrase_attempts: null,
    ...overrides,
  };
}

/** A tRPC-like error as `@trpc/client` throws it. */
export function apiError(code: string, httpStatus: number, message = '', fieldErrors?: Record<string, string[]>): Error {
  return Object.assign(new Error(message), { name: 'TRPCClientError', data: { code, httpStatus, fieldErrors } });
}

export function networkError(): Error {
  return Object.assign(new Error('Failed to fetch'), { name: 'TRPCClientError', cause: new TypeError('Failed to fetch') });
}

export function fakeApi(overrides: Partial<PushApi> = {}): PushApi & { [K in keyof PushApi]: ReturnType<typeof vi.fn> } {
  return {
    version: vi.fn(async () => versionDocument()),
    limits: vi.fn(async () => limits),
    create: vi.fn(async (input) => record({ name: input.name ?? null, ...(input.end_to_end ? { end_to_end: true as const } : {}) })),
    createWithFiles: vi.fn(async (form: FormData) => record({ ...(form.get('push[end_to_end]') === 'true' ? { end_to_end: true as const } : {}) })),
    active: vi.fn(async () => []),
    expired: vi.fn(async () => []),
    audit: vi.fn(async () => []),
    expire: vi.fn(async (token: string) => record({ url_token: token, expired: true })),
    requests: vi.fn(async () => []),
    closeRequest: vi.fn(async () => {
      throw new Error('closeRequest not set up in this test');
    }),
    createRequest: vi.fn(),
    emailLink: vi.fn(async (input: { notify_emails: string[] | string }) => ({ sent: (typeof input.notify_emails === 'string' ? input.notify_emails.split(',') : input.notify_emails).length })),
    ...overrides,
  } as never;
}

export const settings = (overrides: Partial<Settings> = {}): Settings => ({
  serverUrl: SERVER,
  apiToken: '',
  defaults: {},
  // The user agreed to send the token to this server (Settings shows the host first).
  tokenOrigin: SERVER,
  ...overrides,
});

type Remembered = Record<string, { kind: string; hint?: string }>;

/** `recallKinds`: what the background remembers of pushes (kind-memory.ts); History's titles are made from it as the background makes them. */
export function fakeEnv(api: PushApi, { recallKinds = async (): Promise<Remembered> => ({}), ...overrides }: Partial<PopupEnv> & { recallKinds?(tokens: string[]): Promise<Remembered> } = {}) {
  const env = {
    loadSettings: vi.fn(async () => settings()),
    saveSettings: vi.fn(async () => undefined),
    loadServerInfo: vi.fn(async () => null),
    saveServerInfo: vi.fn(async () => undefined),
    lastPush: vi.fn(async () => null),
    // As the background hands it to the popup: failures already described (relay.ts).
    createApi: vi.fn((s: Settings) => describedApi(api, s.serverUrl, Boolean(tokenToSend(s)))),
    qrPath: vi.fn(async (text: string) => qrPath(text)),
    // As the background makes them for the popup (relay.ts), against the fake API.
    sendPush: vi.fn((s: Settings, input: PushInput, endToEnd: boolean) => sendPush(describedApi(api, s.serverUrl, Boolean(tokenToSend(s))), input, endToEnd)),
    sendFilePush: vi.fn((s: Settings, input: PushInput, file: File, endToEnd: boolean) =>
      sendFilePush(describedApi(api, s.serverUrl, Boolean(tokenToSend(s))), input, file, endToEnd),
    ),
    openOptions: vi.fn(),
    targetTab: vi.fn(async () => ({ id: 7, url: 'https://example.com/page', title: 'A page' })),
    readSelection: vi.fn(async () => ''),
    copy: vi.fn(async () => true),
    hasOrigin: vi.fn(async () => true),
    requestOrigin: vi.fn(async () => true),
    rememberKind: vi.fn(async () => undefined),
    pushTitles: vi.fn(async (records: Parameters<PopupEnv['pushTitles']>[0]) => pushTitles(records, await recallKinds(records.map((r) => r.url_token)))),
    generate: vi.fn(async (what: Parameters<PopupEnv['generate']>[0]) =>
      'words' in what ? generatePassphrase(['alpha', 'bravo', 'charlie', 'delta'], what.words) : generatePassword(what.rule),
    ),
    wholeLink: vi.fn(async (r: { url_token: string; html_url: string }) => (r.html_url.includes('#') ? r.html_url : (await import('../../extension/lib/link-keys')).wholeLink(r))),
    loadDraft: vi.fn(async () => null),
    saveDraft: vi.fn(async () => undefined),
    ...overrides,
  };
  return env as typeof env & PopupEnv;
}
