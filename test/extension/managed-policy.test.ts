import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { menuIds, menuVisibility } from '../../extension/lib/context-menu';
import { cleanPolicy, readManagedPolicy, serverLocked } from '../../extension/lib/managed-policy';
import { DEFAULT_FIREFOX_ADDON_ID } from '../../extension/lib/firefox-addon-id';
import { offeredKinds } from '../../extension/lib/push-options';
import { saveSettings } from '../../extension/lib/settings-save';
import { loadSettings } from '../../extension/lib/settings-storage';

/**
 * The organisation's policy (storage.managed) over the user's settings. The browsers' own
 * reading of policies (Chromium's /etc/chromium/policies, Firefox's policies.json) is tested in
 * test/e2e/extension-policy.test.ts; here, what the extension makes of the values.
 */
describe('managed policy', () => {
  beforeEach(() => fakeBrowser.reset());

  it('keeps only well-formed values: a wrong type or a bad address is dropped, not trusted', () => {
    expect(
      cleanPolicy({
        serverUrl: ' https://push.corp.example/ ',
        allowServerChange: 'no',
        pushDefaults: { expire_after_days: 2, expire_after_views: 1.5, retrieval_step: true, end_to_end: 'yes' },
        offerUrlPushes: false,
        somethingElse: 1,
      }),
    ).toEqual({ serverUrl: 'https://push.corp.example', pushDefaults: { expire_after_days: 2, retrieval_step: true }, offerUrlPushes: false });
    expect(cleanPolicy({ serverUrl: 'ftp://files.example', pushDefaults: 'none' })).toEqual({});
    expect(cleanPolicy(null)).toEqual({});
  });

  it('reads no policy as an empty one (Firefox rejects the call when no policy names the add-on)', async () => {
    expect(await readManagedPolicy()).toEqual({});
    const spy = vi.spyOn(fakeBrowser.storage.managed, 'get').mockRejectedValue(new Error('Managed storage manifest not found'));
    expect(await readManagedPolicy()).toEqual({});
    expect(await loadSettings()).toEqual({ serverUrl: '', apiToken: '', defaults: {} });
    spy.mockRestore();
  });

  it('a locked address replaces the user\'s; the token stays the user\'s own', async () => {
    await saveSettings({ serverUrl: 'https://elsewhere.example', apiToken: 'mine', tokenOrigin: 'https://elsewhere.example', defaults: {} });
    await fakeBrowser.storage.managed.set({ serverUrl: 'https://push.corp.example' });
    const settings = await loadSettings();
    expect(settings.serverUrl).toBe('https://push.corp.example');
    expect(serverLocked(settings.policy)).toBe(true);
    expect(settings.apiToken).toBe('mine');
    // Saving does not write the organisation's address as the user's (it would outlive the policy).
    await saveSettings({ ...settings, apiToken: 'mine' });
    expect((await fakeBrowser.storage.sync.get('serverUrl')).serverUrl).toBe('https://elsewhere.example');
  });

  it('an address the user may change is used until they set their own', async () => {
    await fakeBrowser.storage.managed.set({ serverUrl: 'https://push.corp.example', allowServerChange: true });
    expect((await loadSettings()).serverUrl).toBe('https://push.corp.example');
    await saveSettings({ ...(await loadSettings()), serverUrl: 'https://mine.example' });
    const settings = await loadSettings();
    expect(settings.serverUrl).toBe('https://mine.example');
    expect(serverLocked(settings.policy)).toBe(false);
  });

  it('the policy\'s defaults are in force over the user\'s, and are not saved as theirs', async () => {
    await saveSettings({ serverUrl: 'https://push.corp.example', apiToken: '', defaults: { expire_after_days: 30, expire_after_views: 9, end_to_end: true } });
    await fakeBrowser.storage.managed.set({ pushDefaults: { expire_after_days: 1, retrieval_step: true, end_to_end: false } });
    const settings = await loadSettings();
    expect(settings.defaults).toEqual({ expire_after_days: 1, expire_after_views: 9, retrieval_step: true, end_to_end: false });
    await saveSettings(settings);
    expect((await fakeBrowser.storage.sync.get('pushDefaults')).pushDefaults).toEqual({ expire_after_views: 9 });
  });

  it('URL and QR pushes turned off by policy are offered neither in the popup nor in the context menu', () => {
    const policy = cleanPolicy({ offerUrlPushes: false, offerQrPushes: false });
    expect(offeredKinds(undefined, policy)).toEqual(['text']);
    expect(offeredKinds(undefined, cleanPolicy({ offerQrPushes: false }))).toEqual(['text', 'url']);
    expect(offeredKinds(undefined, {})).toEqual(['text', 'url', 'qr']);
    expect(menuVisibility(undefined, policy)).toMatchObject({ [menuIds.selection]: true, [menuIds.link]: false, [menuIds.page]: false });
  });
});

describe('the example policies in deploy/policies/', () => {
  it('give the extension exactly what they say (every key kept, nothing dropped)', async () => {
    const { readFileSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    const dir = resolve(import.meta.dirname, '../../deploy/policies');
    const read = (name: string) => JSON.parse(readFileSync(resolve(dir, name), 'utf8'));
    const values = [
      Object.values(read('chromium-linux-secret-push.json')['3rdparty'].extensions)[0],
      Object.values(read('edge-linux-secret-push.json')['3rdparty'].extensions)[0],
      read('firefox-policies.json').policies['3rdparty'].Extensions[DEFAULT_FIREFOX_ADDON_ID],
    ];
    for (const value of values) expect(cleanPolicy(value)).toEqual(value);
  });
});
