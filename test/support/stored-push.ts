import { randomBytes } from 'node:crypto';
import type { StoredPush } from '../../server/storage/records.js';

/** The time stored test records are made at. */
export const T0 = Date.parse('2026-01-01T00:00:00.000Z');
export const iso = (ms: number) => new Date(ms).toISOString();

let tokenCounter = 0;

/** A push record as the service stores it (an anonymous one-view text push), for store-level tests. */
export function storedPush(overrides: Partial<StoredPush> = {}): StoredPush {
  const token = overrides.token ?? `tok${++tokenCounter}${randomBytes(4).toString('hex')}`;
  return {
    token,
    kind: 'text',
    ownerId: null,
    name: null,
    payload: 'v1.sealed-payload',
    note: null,
    passphrase: null,
    hasPassphrase: false,
    files: [],
    filesPurgeAt: null,
    expireAfterDays: 7,
    expireAfterViews: 1,
    expiresAt: iso(T0 + 7 * 86_400_000),
    deletableByViewer: true,
    retrievalStep: false,
    views: 0,
    createdAt: iso(T0),
    updatedAt: iso(T0),
    expiredAt: null,
    deleted: false,
    ...overrides,
  };
}
