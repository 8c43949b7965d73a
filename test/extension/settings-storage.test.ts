import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { saveSettings } from '../../extension/lib/settings-save';
import {
  cleanDefaults,
  loadSettings,
  storageKeys,
  tokenToSend,
} from '../../extension/lib/settings-storage';

describe('settings storage', () => {
  beforeEach(() => fakeBrowser.reset());

  it('starts empty', async () => {
    expect(await loadSettings()).toEqual({ serverUrl: '', apiToken: '', defaults: {} });
  });

  it('keeps the API token in storage.local and never in sync', async () => {
    await saveSettings({ serverUrl: 'https://push.example.org', apiToken: ' secret-token ', defaults: { expire_after_days: 3 } });
    const local = await fakeBrowser.storage.local.get(null);
    const sync = await fakeBrowser.storage.sync.get(null);
    expect(local.apiToken).toBe('secret-token');
    expect(JSON.stringify(sync)).not.toContain('secret-token');
    expect(sync.serverUrl).toBe('https://push.example.org');
    expect(sync.pushDefaults).toEqual({ expire_after_days: 3 });
    expect(await loadSettings()).toEqual({
      serverUrl: 'https://push.example.org',
      apiToken: 'secret-token',
      defaults: { expire_after_days: 3 },
    });
    expect(local.tokenOrigin).toBe('');
  });

  it('names every key in one place, the token in the local area', () => {
    expect(storageKeys.apiToken.startsWith('local:')).toBe(true);
    expect(Object.values(storageKeys).filter((k) => k.startsWith('sync:'))).not.toContain(storageKeys.apiToken);
  });

  it('issues every write before it returns: a popup closed right after the click keeps them', () => {
    const calls: string[] = [];
    for (const area of ['sync', 'local'] as const) {
      const set = fakeBrowser.storage[area].set.bind(fakeBrowser.storage[area]);
      fakeBrowser.storage[area].set = (items: Record<string, unknown>) => {
        calls.push(`${area}:${Object.keys(items).sort().join(',')}`);
        return set(items);
      };
    }
    void saveSettings({ serverUrl: 'https://a.example', apiToken: 't', defaults: {}, tokenOrigin: 'https://a.example' });
    // Synchronously, before any await could let the page be torn down.
    expect(calls.sort()).toEqual(['local:apiToken,tokenOrigin', 'sync:pushDefaults,serverUrl']);
  });

  it('sends the token only to the origin the user agreed to', async () => {
    await saveSettings({ serverUrl: 'https://a.example/push', apiToken: 't', defaults: {}, tokenOrigin: 'https://a.example' });
    const settings = await loadSettings();
    expect(tokenToSend(settings)).toBe('t');
    // The address came from another device (sync storage): the token stays home until confirmed.
    await fakeBrowser.storage.sync.set({ serverUrl: 'https://b.example' });
    expect(tokenToSend(await loadSettings())).toBeUndefined();
  });

  it('drops damaged default values', async () => {
    expect(cleanDefaults({ expire_after_days: 2.5, expire_after_views: 4, retrieval_step: 'yes', deletable_by_viewer: false, x: 1 })).toEqual({
      expire_after_views: 4,
      deletable_by_viewer: false,
    });
    expect(cleanDefaults(null)).toEqual({});
    await fakeBrowser.storage.sync.set({ pushDefaults: { expire_after_days: 'many' } });
    expect((await loadSettings()).defaults).toEqual({});
  });
});

