import { describe, expect, it } from 'vitest';
import { SharedStrings, shareRepeatedStrings } from '../../../../server/storage/embedded/shared-strings.js';
import type { AuditRecord, StoredPush } from '../../../../server/storage/records.js';

const push = (over: Partial<StoredPush>) => ({ token: 'Habc', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', ...over }) as StoredPush;
const entry = (over: Partial<AuditRecord>): AuditRecord => ({ kind: 'view', ip: '192.0.2.1', userAgent: 'curl/8', referrer: '', at: '2026-01-01T00:00:00.000Z', ...over });

describe('shareRepeatedStrings', () => {
  it('changes no value, whether or not the strings repeat', () => {
    const shared = new SharedStrings();
    const a = push({ updatedAt: '2026-01-02T00:00:00.000Z' });
    const trailA = [entry({ kind: 'creation' }), entry({ at: '2026-01-03T00:00:00.000Z', ip: '2001:db8::1', userAgent: 'x'.repeat(600) })];
    const b = push({ token: 'Hdef' });
    const trailB = [entry({ referrer: 'https://example.com/' })];
    const before = structuredClone([a, trailA, b, trailB]);
    shareRepeatedStrings(a, 'Habc', trailA, shared);
    shareRepeatedStrings(b, 'Hdef', trailB, shared);
    expect([a, trailA, b, trailB]).toEqual(before);
  });

  it('keeps a record whose token differs from its key as it is', () => {
    const p = push({ token: 'Hother' });
    shareRepeatedStrings(p, 'Habc', [], new SharedStrings());
    expect(p.token).toBe('Hother');
  });
});
