import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createBackgroundEnv, recordPush } from '../../extension/lib/background-env';
import { recallKinds } from '../../extension/lib/kind-memory';
import { saveSettings } from '../../extension/lib/settings-save';
import { lastPushItem } from '../../extension/lib/settings-storage';
import { record } from './fakes';

// fakeBrowser has no scripting: stub it on the object the code imports.
function stubScripting(impl: (injection: { target: unknown; func: (...a: never[]) => unknown; args?: unknown[] }) => unknown) {
  const executeScript = vi.fn(async (injection: Parameters<typeof impl>[0]) => [{ result: await impl(injection) }]);
  (browser as unknown as { scripting: unknown }).scripting = { executeScript };
  return executeScript;
}

describe('background environment', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    vi.restoreAllMocks();
  });

  it('reads the selection in the clicked frame', async () => {
    const exec = stubScripting(() => 'picked text');
    const env = createBackgroundEnv();
    expect(await env.readSelection(5, 2)).toBe('picked text');
    expect(exec.mock.calls[0][0].target).toEqual({ tabId: 5, frameIds: [2] });
  });

  it('gives an empty selection when the page cannot be scripted', async () => {
    (browser as unknown as { scripting: unknown }).scripting = {
      executeScript: vi.fn(async () => Promise.reject(new Error('Cannot access a chrome:// URL'))),
    };
    expect(await createBackgroundEnv().readSelection(5)).toBe('');
  });

  it('copies through the tab when it cannot copy itself', async () => {
    const exec = stubScripting((injection) => injection.args?.[0] === 'https://link' && true);
    // happy-dom has a document but refuses the clipboard here, as Chromium's worker would.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(async () => Promise.reject(new Error('no'))) }, configurable: true });
    expect(await createBackgroundEnv().copy('https://link', 4)).toBe(true);
    expect(exec.mock.calls[0][0].target).toEqual({ tabId: 4 });
    expect(await createBackgroundEnv().copy('https://link')).toBe(false);
  });

  it('copies directly where the background has a clipboard (Firefox)', async () => {
    const exec = stubScripting(() => true);
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    expect(await createBackgroundEnv().copy('https://link', 4)).toBe(true);
    expect(writeText).toHaveBeenCalledWith('https://link');
    expect(exec).not.toHaveBeenCalled();
  });

  it('notifies with the extension icon', async () => {
    const create = vi.spyOn(fakeBrowser.notifications, 'create');
    await createBackgroundEnv().notify('Title', 'Body');
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ type: 'basic', title: 'Title', message: 'Body', iconUrl: expect.stringContaining('icon/128.png') }));
  });

  it('loads the saved settings', async () => {
    await saveSettings({ serverUrl: 'https://s.example', apiToken: 'tk', defaults: { expire_after_views: 1 } });
    expect(await createBackgroundEnv().loadSettings()).toEqual({ serverUrl: 'https://s.example', apiToken: 'tk', defaults: { expire_after_views: 1 } });
  });

  it('remembers the kind and the last link of a push', async () => {
    const r = record({ url_token: 'abc123token' });
    await recordPush(r, 'url');
    expect(await recallKinds(['abc123token', 'other'])).toEqual({ abc123token: { kind: 'url' } });
    expect(await lastPushItem.getValue()).toMatchObject({ html_url: r.html_url, kind: 'url' });
    // The token itself is a secret: only a hash of it is stored.
    expect(JSON.stringify(await fakeBrowser.storage.local.get(null))).not.toContain('abc123token');
  });
});
