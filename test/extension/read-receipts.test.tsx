import { cleanup, render, screen } from '@testing-library/preact';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../extension/components/App';
// Loaded up front, as the browser reads the chunk from the package on disk: a first dynamic
// import transformed by vitest under a loaded machine can outlast findBy's one second.
import '../../extension/components/lazy-views';
import { checkOpened, type OpenWatchEnv } from '../../extension/lib/open-watch';
import { receiptText, withReceipts, type RecordWithReceipt } from '../../extension/lib/read-receipt';
import { notifyOpenedItem, openedSeenItem } from '../../extension/lib/settings-storage';
import { fakeApi, fakeEnv, record, settings } from './fakes';

afterEach(cleanup);

describe('read receipts: worded in the background, shown by History', () => {
  it('words when a push was first opened, how many views are used, and wrong passphrases; nothing for older servers', async () => {
    const now = Date.parse('2026-01-01T12:00:00.000Z');
    const opened = record({ expire_after_views: 3, views_remaining: 2, first_viewed_at: '2026-01-01T11:58:00.000Z', failed_passphrase_attempts: 2 });
    expect(receiptText(opened, now)).toBe('opened 2 min. ago · 1 of 3 views · 2 wrong passphrases');
    expect(receiptText(record({ expire_after_views: 5, views_remaining: 5 }), now)).toBe('not opened yet · 0 of 5 views');
    expect(receiptText(record({ first_viewed_at: '2025-12-29T12:00:00.000Z' }), now)).toMatch(/^opened 3 days ago · /);
    const old = record() as Record<string, unknown>;
    delete old.push_id;
    expect(receiptText(old as never, now)).toBeUndefined();

    const api = withReceipts(fakeApi({ active: vi.fn(async () => [opened]), expired: vi.fn(async () => [old as never]) }));
    expect(((await api.active(1))[0] as RecordWithReceipt).receipt).toMatch(/^opened .* · 1 of 3 views · 2 wrong passphrases$/);
    expect(((await api.expired(1))[0] as RecordWithReceipt).receipt).toBeUndefined();
  });

  it('History shows the worded receipt it is given', async () => {
    const api = fakeApi({ active: vi.fn(async () => [{ ...record({ url_token: 'opened1', name: 'wifi' }), receipt: 'opened 2 min. ago · 1 of 3 views' }]) });
    render(<App env={fakeEnv(api, { loadSettings: vi.fn(async () => settings({ apiToken: 'tok' })) })} initialTab="history" />);
    await screen.findByText('wifi');
    expect(screen.getByText('opened 2 min. ago · 1 of 3 views').className).toBe('meta');
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
