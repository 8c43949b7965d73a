import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  checkServerUrl,
  cleanDefaults,
  loadSettings,
  saveSettings,
  serverInfoItem,
  storageKeys,
  tokenPageUrl,
} from '../../extension/lib/settings-storage';
import { limits, versionDocument } from './fakes';

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
  });

  it('names every key in one place, the token in the local area', () => {
    expect(storageKeys.apiToken.startsWith('local:')).toBe(true);
    expect(Object.values(storageKeys).filter((k) => k.startsWith('sync:'))).not.toContain(storageKeys.apiToken);
  });

  it('forgets what it knew about a server when the address changes', async () => {
    await saveSettings({ serverUrl: 'https://a.example', apiToken: '', defaults: {} });
    await serverInfoItem.setValue({ serverUrl: 'https://a.example', version: versionDocument(), limits, checkedAt: 'x' });
    await saveSettings({ serverUrl: 'https://a.example', apiToken: 't', defaults: {} });
    expect(await serverInfoItem.getValue()).not.toBeNull();
    await saveSettings({ serverUrl: 'https://b.example', apiToken: 't', defaults: {} });
    expect(await serverInfoItem.getValue()).toBeNull();
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

describe('checkServerUrl', () => {
  it('canonicalises an address and gives a port-free origin pattern', () => {
    expect(checkServerUrl(' https://push.example.org/ ')).toEqual({
      ok: true,
      url: 'https://push.example.org',
      origin: 'https://push.example.org',
      originPattern: 'https://push.example.org/*',
    });
    expect(checkServerUrl('http://127.0.0.1:8080/secret/?q=1#x')).toEqual({
      ok: true,
      url: 'http://127.0.0.1:8080/secret',
      origin: 'http://127.0.0.1:8080',
      originPattern: 'http://127.0.0.1/*',
    });
  });

  it('assumes https when no scheme is typed', () => {
    const r = checkServerUrl('push.example.org');
    expect(r.ok && r.url).toBe('https://push.example.org');
  });

  it('refuses what is not a web server address, in words', () => {
    for (const bad of ['', 'ftp://x.example', 'javascript:alert(1)', 'https://user:pw@x.example', 'http://']) {
      const r = checkServerUrl(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.error.length).toBeGreaterThan(10);
    }
  });

  it('points at the token page of the server', () => {
    expect(tokenPageUrl('https://push.example.org/')).toBe('https://push.example.org/users/token');
  });
});
