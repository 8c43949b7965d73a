import { describe, expect, it } from 'vitest';
import {
  buildPushInput,
  checkPush,
  defaultPushInput,
  describeRemaining,
  initialOptions,
  offeredKinds,
} from '../../extension/lib/push-options';
import { limits, versionDocument } from './fakes';

describe('push options', () => {
  it('offers only the kinds the server has enabled', () => {
    expect(offeredKinds(versionDocument())).toEqual(['text', 'url', 'qr']);
    expect(offeredKinds(versionDocument({ url: false }))).toEqual(['text', 'qr']);
    expect(offeredKinds(versionDocument({ qr: false, url: false }))).toEqual(['text']);
    expect(offeredKinds(versionDocument({ enabled: false }))).toEqual([]);
    expect(offeredKinds(undefined)).toEqual(['text', 'url', 'qr']);
  });

  it("takes the user's defaults over the server's", () => {
    expect(initialOptions({ expire_after_views: 1, retrieval_step: false }, limits)).toMatchObject({
      expire_after_days: 7,
      expire_after_views: 1,
      retrieval_step: false,
      deletable_by_viewer: true,
    });
  });

  it('builds the create input, leaving out empty text fields and viewer deletion of URLs', () => {
    const options = { ...initialOptions({}, limits), name: ' DB password ', passphrase: 'open sesame' };
    expect(buildPushInput('text', 'hunter2', options)).toEqual({
      kind: 'text',
      payload: 'hunter2',
      expire_after_days: 7,
      expire_after_views: 5,
      retrieval_step: true,
      deletable_by_viewer: true,
      passphrase: 'open sesame',
      name: 'DB password',
    });
    expect(buildPushInput('url', 'https://x.example', initialOptions({}, limits))).not.toHaveProperty('deletable_by_viewer');
    expect(defaultPushInput('text', 'a', {})).toEqual({ kind: 'text', payload: 'a' });
    expect(defaultPushInput('url', 'https://a', { deletable_by_viewer: true, expire_after_days: 2 })).toEqual({
      kind: 'url',
      payload: 'https://a',
      expire_after_days: 2,
    });
  });

  it('checks the form against the server limits', () => {
    const ok = initialOptions({}, limits);
    expect(checkPush('text', 'x', ok, limits)).toEqual({});
    expect(checkPush('text', '  ', ok, limits)).toHaveProperty('payload');
    expect(checkPush('url', 'ftp://x', ok, limits).payload).toMatch(/web addresses/);
    expect(checkPush('qr', 'x'.repeat(1025), ok, limits).payload).toMatch(/1024/);
    const bad = checkPush('text', 'x', { ...ok, expire_after_days: 91, expire_after_views: 0 }, limits);
    expect(bad.expire_after_days).toBe('Choose between 1 and 90 days.');
    expect(bad.expire_after_views).toBe('Choose between 1 and 100 views.');
    expect(checkPush('text', 'x', { ...ok, expire_after_days: Number.NaN }, limits)).toHaveProperty('expire_after_days');
  });

  it('describes what remains', () => {
    expect(describeRemaining(1, 1)).toBe('Expires in 1 day or after 1 view, whichever comes first.');
    expect(describeRemaining(7, 5)).toBe('Expires in 7 days or after 5 views, whichever comes first.');
  });
});
