import { cleanup, render, screen } from '@testing-library/preact';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../extension/components/App';
import { checkOpened, type OpenWatchEnv } from '../../extension/lib/open-watch';
import { notifyOpenedItem, openedSeenItem } from '../../extension/lib/settings-storage';
import { fakeApi, fakeEnv, record, settings } from './fakes';

afterEach(cleanup);

describe('History: read receipts', () => {
  it('shows when each push was first opened, how many views are used, and wrong passphrases', async () => {
    const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
    const api = fakeApi({
      active: vi.fn(async () => [
        record({ url_token: 'opened1', name: 'wifi', expire_after_views: 3, views_remaining: 2, first_viewed_at: twoMinutesAgo, failed_passphrase_attempts: 2 }),
        record({ url_token: 'fresh22', name: 'vpn', expire_after_views: 5, views_remaining: 5 }),
      ]),
    });
    render(<App env={fakeEnv(api, { loadSettings: vi.fn(async () => settings({ apiToken: 'tok' })) })} initialTab="history" />);
    await screen.findByText('wifi');
    const receipts = [...document.querySelectorAll('[data-receipt]')].map((p) => p.textContent);
    expect(receipts).toEqual(['opened 2 min. ago · 1 of 3 views · 2 wrong passphrases', 'not opened yet · 0 of 5 views']);
  });

  it('shows nothing for records of a server without read receipts', async () => {
    const old = record({ url_token: 'older11', name: 'old server' }) as Record<string, unknown>;
    delete old.push_id;
    const api = fakeApi({ active: vi.fn(async () => [old as never]) });
    render(<App env={fakeEnv(api, { loadSettings: vi.fn(async () => settings({ apiToken: 'tok' })) })} initialTab="history" />);
    await screen.findByText('old server');
    expect(document.querySelectorAll('[data-receipt]')).toHaveLength(0);
  });
});

describe('first-opened notifications (opt-in)', () => {
  beforeEach(() => fakeBrowser.reset());

  const watchEnv = (api: ReturnType<typeof fakeApi>, notify = vi.fn(async () => undefined)): OpenWatchEnv & { notify: typeof notify } => ({
    loadSettings: async () => settings({ apiToken: 'tok' }),
    createApi: () => api,
    enabled: notifyOpenedItem,
    seen: openedSeenItem,
    notify,
  });

  it('does nothing unless turned on; the first look only takes note; then tells once per newly opened push, without its link', async () => {
    const opened = new Date().toISOString();
    let active = [record({ url_token: 'aaa111', name: 'wifi', first_viewed_at: opened }), record({ url_token: 'bbb222', name: null })];
    const api = fakeApi({ active: vi.fn(async () => active) });
    const env = watchEnv(api);

    expect(await checkOpened(env)).toBe(0);
    expect(api.active).not.toHaveBeenCalled();

    await notifyOpenedItem.setValue(true);
    expect(await checkOpened(env)).toBe(0); // wifi was opened before: no notification
    expect(await openedSeenItem.getValue()).toEqual(['Haaa111']);

    active = [active[0]!, { ...active[1]!, first_viewed_at: opened }];
    expect(await checkOpened(env)).toBe(1);
    expect(env.notify).toHaveBeenCalledWith('Your secret was opened', 'One of your pushes was opened for the first time.');
    expect(JSON.stringify(env.notify.mock.calls)).not.toContain('bbb222');
    expect(await checkOpened(env)).toBe(0);
    expect(env.notify).toHaveBeenCalledTimes(1);
  });

  it('names the push by its owner label', async () => {
    await notifyOpenedItem.setValue(true);
    await openedSeenItem.setValue([]);
    const api = fakeApi({ expired: vi.fn(async () => [record({ url_token: 'ccc333', name: 'db password', first_viewed_at: new Date().toISOString(), expired: true })]) });
    const env = watchEnv(api);
    expect(await checkOpened(env)).toBe(1);
    expect(env.notify).toHaveBeenCalledWith('Your secret was opened', '“db password” was opened for the first time.');
  });
});
