import { describe, expect, it, vi } from 'vitest';
import { findTargetTab } from '../../extension/lib/popup-env';

const own = 'chrome-extension://abc/';
const tabs = (active: { id?: number; url?: string }, byId: Record<number, { id?: number; url?: string }> = {}) => ({
  get: vi.fn(async (id: number) => {
    if (!byId[id]) throw new Error('No tab with id');
    return byId[id];
  }),
  query: vi.fn(async () => [active]),
});

describe('findTargetTab', () => {
  it("is the active tab of the popup's window", async () => {
    expect(await findTargetTab(tabs({ id: 3, url: 'https://a.example' }), '', own)).toEqual({ id: 3, url: 'https://a.example', title: undefined });
  });

  it('takes ?tabId= over the active tab', async () => {
    const t = tabs({ id: 3 }, { 8: { id: 8, url: 'https://b.example' } });
    expect(await findTargetTab(t, '?tabId=8', own)).toMatchObject({ id: 8, url: 'https://b.example' });
    expect(t.query).not.toHaveBeenCalled();
  });

  it('is none when the popup is itself the active tab or the tab is gone', async () => {
    expect(await findTargetTab(tabs({ id: 3, url: `${own}popup.html` }), '', own)).toBeNull();
    expect(await findTargetTab(tabs({ id: 3 }), '?tabId=99', own)).toBeNull();
  });
});
