import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  applyMenuVisibility,
  handleMenuClick,
  installMenus,
  menuIds,
  menuItems,
  type MenuEnv,
} from '../../extension/lib/context-menu';
import { apiError, fakeApi, networkError, record, settings, SERVER, versionDocument } from './fakes';

function menuEnv(overrides: Partial<MenuEnv> = {}, api = fakeApi()) {
  return {
    api,
    env: {
      loadSettings: vi.fn(async () => settings({ defaults: { expire_after_days: 2 } })),
      createApi: vi.fn(() => api),
      readSelection: vi.fn(async () => ''),
      copy: vi.fn(async () => true),
      notify: vi.fn(async () => undefined),
      pushed: vi.fn(async () => undefined),
      ...overrides,
    } satisfies MenuEnv,
  };
}

describe('context menu items', () => {
  beforeEach(() => fakeBrowser.reset());

  it('creates one item per context, replacing old ones', async () => {
    const created: unknown[] = [];
    const registry = { removeAll: vi.fn(async () => void created.splice(0)), create: vi.fn((i: unknown) => created.push(i)) };
    await installMenus(registry);
    await installMenus(registry);
    expect(created).toEqual(menuItems().map((i) => ({ ...i, visible: true })));
    expect(menuItems().map((i) => [i.title, i.contexts])).toEqual([
      ['Push selection', ['selection']],
      ['Push this link', ['link']],
      ["Push this page's URL", ['page']],
      ['Push a new password', ['editable']],
    ]);
  });
});

describe('menu visibility', () => {
  it('hides the URL items when the server has URL pushes switched off', async () => {
    const created: Array<{ id: string; visible?: boolean }> = [];
    await installMenus({ removeAll: () => undefined, create: (i) => created.push(i) }, versionDocument({ url: false }));
    expect(Object.fromEntries(created.map((i) => [i.id, i.visible]))).toEqual({
      [menuIds.selection]: true,
      [menuIds.link]: false,
      [menuIds.page]: false,
      [menuIds.password]: true,
    });

    const updates: Record<string, boolean> = {};
    const menus = { update: vi.fn(async (id: string, p: { visible: boolean }) => void (updates[id] = p.visible)) };
    await applyMenuVisibility(menus, versionDocument({ enabled: false }));
    expect(updates).toEqual({ [menuIds.selection]: false, [menuIds.link]: false, [menuIds.page]: false, [menuIds.password]: false });
    await applyMenuVisibility(menus, undefined);
    expect(updates).toEqual({ [menuIds.selection]: true, [menuIds.link]: true, [menuIds.page]: true, [menuIds.password]: true });
  });

  it('does not fail when an item does not exist yet', async () => {
    await expect(applyMenuVisibility({ update: async () => Promise.reject(new Error('no item')) }, undefined)).resolves.toBeUndefined();
  });
});

describe('handleMenuClick', () => {
  it('"Push a new password": checks the clicked frame holds a password field, pushes a generated password, then fills it in', async () => {
    const calls: Array<[number, number | undefined, string | undefined]> = [];
    const { env, api } = menuEnv({ passwordField: vi.fn(async (tab: number, frame: number | undefined, value?: string) => (calls.push([tab, frame, value]), true)) });
    const outcome = await handleMenuClick(env, { menuItemId: menuIds.password, frameId: 4, pageUrl: 'https://login.example.org/' }, { id: 9 });
    expect(outcome).toMatchObject({ ok: true, kind: 'text', filled: true });
    const pushed = vi.mocked(api.create).mock.calls[0]![0].payload!;
    // 20 characters of the four sets, the same value pushed and filled in, after the push.
    expect(pushed).toMatch(/^[\x21-\x7e]{20}$/);
    expect(calls).toEqual([
      [9, 4, undefined],
      [9, 4, pushed],
    ]);
    expect(vi.mocked(api.create).mock.invocationCallOrder[0]).toBeLessThan(vi.mocked(env.passwordField!).mock.invocationCallOrder[1]!);
    expect(env.notify).toHaveBeenCalledWith('Link copied', 'A new password is in the field, and its link is copied. Expires in 7 days or after 5 views, whichever comes first.');
    expect(JSON.stringify(vi.mocked(env.notify).mock.calls)).not.toContain(pushed);
    // Two clicks, two different passwords.
    await handleMenuClick(env, { menuItemId: menuIds.password, frameId: 4 }, { id: 9 });
    expect(vi.mocked(api.create).mock.calls[1]![0].payload).not.toBe(pushed);
  });

  it('"Push a new password" on a field that is not a password field pushes nothing and says so', async () => {
    const { env, api } = menuEnv({ passwordField: vi.fn(async () => false) });
    const outcome = await handleMenuClick(env, { menuItemId: menuIds.password, frameId: 0 }, { id: 9 });
    expect(outcome).toMatchObject({ ok: false, problem: { kind: 'nothing' } });
    expect(api.create).not.toHaveBeenCalled();
    expect(env.notify).toHaveBeenCalledWith(expect.any(String), 'Right-click a password field to push a new password into it.');
  });

  it('pushes the selection read from the page (keeping line breaks) with the default options', async () => {
    const { env, api } = menuEnv({ readSelection: vi.fn(async () => 'line one\nline two') });
    const outcome = await handleMenuClick(
      env,
      { menuItemId: menuIds.selection, selectionText: 'line one line two', frameId: 3, pageUrl: 'https://wiki.example.org/ops' },
      { id: 9 },
    );
    expect(env.readSelection).toHaveBeenCalledWith(9, 3);
    expect(api.create).toHaveBeenCalledWith({ kind: 'text', payload: 'line one\nline two', expire_after_days: 2 });
    expect(outcome).toMatchObject({ ok: true, kind: 'text', copied: true });
    const link = (outcome as { record: { html_url: string } }).record.html_url;
    expect(env.copy).toHaveBeenCalledWith(link, 9);
    // Named, never shown: notifications stay in the system's history.
    expect(env.notify).toHaveBeenCalledWith('Link copied', 'Text push from wiki.example.org. Expires in 7 days or after 5 views, whichever comes first.');
    expect(JSON.stringify(vi.mocked(env.notify).mock.calls)).not.toContain(link);
    expect(JSON.stringify(vi.mocked(env.notify).mock.calls)).not.toContain('line one');
    expect(env.pushed).toHaveBeenCalledWith(expect.objectContaining({ html_url: link }), 'text', 'from wiki.example.org');
  });

  it("falls back to the browser's selectionText when the page cannot be read", async () => {
    const { env, api } = menuEnv();
    await handleMenuClick(env, { menuItemId: menuIds.selection, selectionText: 'from the menu' }, { id: 1 });
    expect(api.create).toHaveBeenCalledWith(expect.objectContaining({ payload: 'from the menu' }));
  });

  it('pushes a link and the page URL as url pushes', async () => {
    const { env, api } = menuEnv();
    await handleMenuClick(env, { menuItemId: menuIds.link, linkUrl: 'https://a.example/x' }, { id: 1 });
    await handleMenuClick(env, { menuItemId: menuIds.page, pageUrl: 'https://b.example/y' }, { id: 1, url: 'https://ignored' });
    await handleMenuClick(env, { menuItemId: menuIds.page }, { id: 1, url: 'https://c.example/z' });
    expect(api.create.mock.calls.map(([i]) => [i.kind, i.payload])).toEqual([
      ['url', 'https://a.example/x'],
      ['url', 'https://b.example/y'],
      ['url', 'https://c.example/z'],
    ]);
  });

  it('refuses non-web links without asking the server', async () => {
    const { env, api } = menuEnv();
    const outcome = await handleMenuClick(env, { menuItemId: menuIds.link, linkUrl: 'mailto:a@b.example' }, { id: 1 });
    expect(outcome?.ok).toBe(false);
    expect(api.create).not.toHaveBeenCalled();
    expect(env.notify).toHaveBeenCalledWith('Secret Push: not pushed', expect.stringMatching(/web addresses/));
  });

  it('says to choose a server first', async () => {
    const { env, api } = menuEnv({ loadSettings: vi.fn(async () => settings({ serverUrl: '' })) });
    await handleMenuClick(env, { menuItemId: menuIds.selection, selectionText: 'x' }, { id: 1 });
    expect(api.create).not.toHaveBeenCalled();
    expect(env.notify).toHaveBeenCalledWith('Secret Push: not pushed', expect.stringMatching(/Settings/));
  });

  it('notifies server failures in plain words', async () => {
    const cases: Array<[Error, RegExp]> = [
      [networkError(), new RegExp(`cannot be reached at ${SERVER}`)],
      [apiError('UNPROCESSABLE_CONTENT', 422, '', { kind: ['URL pushes are disabled.'] }), /URL pushes are disabled\./],
      [apiError('TOO_MANY_REQUESTS', 429), /Too many requests: try again in a minute/],
      [apiError('UNAUTHORIZED', 401), /API token/],
    ];
    for (const [error, message] of cases) {
      const { env } = menuEnv({}, fakeApi({ create: vi.fn(async () => Promise.reject(error)) }));
      const outcome = await handleMenuClick(env, { menuItemId: menuIds.link, linkUrl: 'https://a.example' }, { id: 1 });
      expect(outcome?.ok).toBe(false);
      expect(env.copy).not.toHaveBeenCalled();
      expect(env.notify).toHaveBeenCalledWith('Secret Push: not pushed', expect.stringMatching(message));
    }
  });

  it('says where to find the link when the clipboard cannot be written', async () => {
    const { env } = menuEnv({ copy: vi.fn(async () => false) });
    const outcome = await handleMenuClick(env, { menuItemId: menuIds.selection, selectionText: 'x' }, { id: 1 });
    expect(outcome).toMatchObject({ ok: true, copied: false });
    expect(env.notify).toHaveBeenCalledWith('Pushed: copy the link from Secret Push', expect.stringContaining('open Secret Push to copy the link'));
    expect(JSON.stringify(vi.mocked(env.notify).mock.calls)).not.toContain('/p/');
  });

  it('ignores items that are not its own', async () => {
    const { env } = menuEnv();
    expect(await handleMenuClick(env, { menuItemId: 'other' }, { id: 1 })).toBeNull();
    expect(env.notify).not.toHaveBeenCalled();
  });

  it('still succeeds when remembering the push fails', async () => {
    const { env } = menuEnv({ pushed: vi.fn(async () => Promise.reject(new Error('quota'))) });
    const outcome = await handleMenuClick(env, { menuItemId: menuIds.selection, selectionText: 'x' }, { id: 1 });
    expect(outcome?.ok).toBe(true);
    const { env: bare } = menuEnv({ pushed: undefined });
    expect((await handleMenuClick(bare, { menuItemId: menuIds.selection, selectionText: 'x' }, { id: 1 }))?.ok).toBe(true);
    expect(record).toBeDefined();
  });
});
