import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../extension/components/App';
import { OptionsApp } from '../../extension/components/OptionsApp';
// Loaded up front, as the browser reads the chunk from the package on disk: a first dynamic
// import transformed by vitest under a loaded machine can outlast findBy's one second.
import '../../extension/components/lazy-views';
import { apiError, fakeApi, fakeEnv, limits, networkError, record, settings, versionDocument } from './fakes';

afterEach(cleanup);

const serverInfo = (v = versionDocument()) => ({ serverUrl: 'https://push.example.org', version: v, limits, checkedAt: 'now' });

describe('popup: Push', () => {
  it('pre-fills the selection and pushes it with the form options, then copies the link at once', async () => {
    const api = fakeApi({ create: vi.fn(async () => record({ html_url: 'https://push.example.org/p/abc/r', days_remaining: 3, views_remaining: 2 })) });
    const env = fakeEnv(api, { readSelection: vi.fn(async () => 'my secret\nsecond line') });
    render(<App env={env} />);

    const secret = (await screen.findByLabelText(/Secret \(from the selection/)) as HTMLTextAreaElement;
    expect(secret.value).toBe('my secret\nsecond line');
    expect(env.readSelection).toHaveBeenCalledWith(7);

    fireEvent.input(screen.getByLabelText('Days'), { target: { value: '3' } });
    fireEvent.input(screen.getByLabelText('Views'), { target: { value: '2' } });
    fireEvent.input(screen.getByLabelText(/Name/), { target: { value: 'wifi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Push secret' }));

    await screen.findByRole('heading', { name: 'Text pushed' });
    expect(api.create).toHaveBeenCalledWith({
      kind: 'text',
      payload: 'my secret\nsecond line',
      expire_after_days: 3,
      expire_after_views: 2,
      retrieval_step: true,
      deletable_by_viewer: true,
      name: 'wifi',
    });
    expect(env.copy).toHaveBeenCalledWith('https://push.example.org/p/abc/r');
    expect((screen.getByLabelText('Secret link') as HTMLInputElement).value).toBe('https://push.example.org/p/abc/r');
    expect(screen.getByText('Copied to the clipboard.')).toBeTruthy();
    expect(screen.getByText('Expires in 3 days or after 2 views, whichever comes first.')).toBeTruthy();
    expect((await screen.findByRole('img', { name: 'QR code of the secret link' })).querySelector('path')?.getAttribute('d')).toMatch(/^M\d/);
    // The background makes the hint ('from example.com') from the page's address: never the secret.
    expect(env.rememberKind).toHaveBeenCalledWith(expect.any(String), 'text', undefined, 'https://example.com/page');
    expect(env.saveDraft).toHaveBeenLastCalledWith(null);
  });

  it("pushes the tab's URL and a QR code of it", async () => {
    const api = fakeApi();
    const env = fakeEnv(api);
    render(<App env={env} />);
    fireEvent.click(await screen.findByLabelText("This page's URL"));
    await waitFor(() => expect((screen.getByLabelText(/Address to push/) as HTMLInputElement).value).toBe('https://example.com/page'));
    fireEvent.click(screen.getByRole('button', { name: 'Push URL' }));
    await screen.findByRole('heading', { name: 'URL pushed' });
    expect(api.create).toHaveBeenLastCalledWith(expect.objectContaining({ kind: 'url', payload: 'https://example.com/page' }));
    expect(api.create.mock.lastCall?.[0]).not.toHaveProperty('deletable_by_viewer');

    fireEvent.click(screen.getByRole('button', { name: 'Push another' }));
    fireEvent.click(await screen.findByLabelText('QR code of the URL'));
    fireEvent.click(screen.getByRole('button', { name: 'Push QR code' }));
    await screen.findByRole('heading', { name: 'QR code pushed' });
    expect(api.create).toHaveBeenLastCalledWith(expect.objectContaining({ kind: 'qr', payload: 'https://example.com/page' }));
  });

  it("shows a branded server's name (BRAND_NAME) in its header once connected, else its own", async () => {
    const branded = { ...versionDocument(), secret_push_name: 'Acme Vault' };
    render(<App env={fakeEnv(fakeApi({ version: vi.fn(async () => branded) }), { loadServerInfo: vi.fn(async () => serverInfo(branded)) })} />);
    expect((await screen.findByRole('heading', { level: 1, name: 'Acme Vault' })).textContent).toBe('Acme Vault');
    cleanup();
    render(<App env={fakeEnv(fakeApi(), { loadServerInfo: vi.fn(async () => serverInfo()) })} />);
    await screen.findByLabelText('QR code of the URL');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Secret Push');
  });

  it('does not offer kinds the server has disabled', async () => {
    const env = fakeEnv(fakeApi({ version: vi.fn(async () => versionDocument({ url: false })) }), {
      loadServerInfo: vi.fn(async () => serverInfo(versionDocument({ url: false }))),
    });
    render(<App env={env} />);
    await screen.findByLabelText('QR code of the URL');
    expect(screen.queryByLabelText("This page's URL")).toBeNull();
  });

  it('checks the form before sending, next to the control', async () => {
    const api = fakeApi();
    render(<App env={fakeEnv(api)} />);
    fireEvent.input(await screen.findByLabelText('Days'), { target: { value: '500' } });
    fireEvent.click(screen.getByRole('button', { name: 'Push secret' }));
    const days = screen.getByLabelText('Days');
    expect(days.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(days.getAttribute('aria-describedby')!.split(' ')[0])?.textContent).toBe('Choose between 1 and 90 days.');
    expect(screen.getByText('Type or select the text to push.')).toBeTruthy();
    expect(api.create).not.toHaveBeenCalled();
  });

  it("shows the server's 422 message next to the field it concerns", async () => {
    const api = fakeApi({
      create: vi.fn(async () => Promise.reject(apiError('UNPROCESSABLE_CONTENT', 422, 'Validation failed', { expire_after_views: ['must be between 1 and 10'] }))),
    });
    render(<App env={fakeEnv(api)} />);
    fireEvent.input(await screen.findByLabelText('Secret'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Push secret' }));
    await waitFor(() => expect(screen.getByLabelText('Views').getAttribute('aria-invalid')).toBe('true'));
    const errorId = screen.getByLabelText('Views').getAttribute('aria-describedby')!;
    expect(document.getElementById(errorId)?.textContent).toBe('Views must be between 1 and 10.');
  });

  it('says when the server cannot be reached', async () => {
    const api = fakeApi({ create: vi.fn(async () => Promise.reject(networkError())) });
    render(<App env={fakeEnv(api)} />);
    fireEvent.input(await screen.findByLabelText('Secret'), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Push secret' }));
    const alert = await screen.findByText(/cannot be reached at https:\/\/push\.example\.org/);
    expect(alert.closest('[role="alert"]')).toBeTruthy();
  });

  it('asks for host access when it is missing', async () => {
    const env = fakeEnv(fakeApi(), { hasOrigin: vi.fn(async () => false) });
    render(<App env={env} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Allow access to https://push.example.org' }));
    expect(env.requestOrigin).toHaveBeenCalledWith('https://push.example.org/*');
  });

  it('offers Settings (the options page) when no server is set, which opens on the server address', async () => {
    const env = fakeEnv(fakeApi(), { loadSettings: vi.fn(async () => settings({ serverUrl: '' })) });
    render(<App env={env} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Open Settings' }));
    expect(env.openOptions).toHaveBeenCalledTimes(1);
    // The header's Settings opens it too; Settings is no tab of the popup.
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(env.openOptions).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('tab', { name: 'Settings' })).toBeNull();
    cleanup();
    render(<OptionsApp env={env} />);
    expect(await screen.findByLabelText('Server address')).toBeTruthy();
    expect(screen.getByText(/Welcome! Enter the address of your Secret Push server/)).toBeTruthy();
  });
});

describe('popup: tabs', () => {
  it('moves between tabs with the arrow keys', async () => {
    render(<App env={fakeEnv(fakeApi())} />);
    const push = await screen.findByRole('tab', { name: 'Push' });
    expect(push.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(push, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'History' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'History' }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    // Coming back to Push must not move the focus away from the tabs.
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Push' }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(screen.getByRole('tab', { name: 'History' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe('tab-history');
  });
});

describe('popup: History', () => {
  it('explains why it is empty without a token', async () => {
    const api = fakeApi();
    render(<App env={fakeEnv(api)} initialTab="history" />);
    expect(await screen.findByText(/empty without an API token/)).toBeTruthy();
    expect(api.active).not.toHaveBeenCalled();
  });

  it('lists active pushes, expires one, shows expired ones and an audit log', async () => {
    let active = [record({ url_token: 'aaa111', name: 'wifi', views_remaining: 4, days_remaining: 6 }), record({ url_token: 'bbb222', name: null })];
    const api = fakeApi({
      active: vi.fn(async () => active),
      expired: vi.fn(async () => [record({ url_token: 'ccc333', name: 'old', expired: true, expired_on: '2025-01-03T00:00:00.000Z' })]),
      expire: vi.fn(async (token: string) => {
        active = active.filter((r) => r.url_token !== token);
        return record({ url_token: token, expired: true });
      }),
      audit: vi.fn(async () => [{ ip: '10.0.0.1', user_agent: 'Firefox', referrer: '', kind: 'view' as const, created_at: '2025-01-02T03:04:05.000Z', updated_at: '' }]),
    });
    const env = fakeEnv(api, {
      loadSettings: vi.fn(async () => settings({ apiToken: 'tok' })),
      recallKinds: vi.fn(async () => ({ aaa111: { kind: 'qr' }, bbb222: { kind: 'url', hint: 'example.com' } })),
    });
    render(<App env={env} initialTab="history" />);

    const list = await screen.findByRole('list', { name: 'Active pushes' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]).getByText('wifi')).toBeTruthy();
    expect(within(items[0]).getByText('QR code')).toBeTruthy();
    expect(within(items[0]).getByText(/1 view of 5 used · 4 views and 6 days left/)).toBeTruthy();
    // No name: the kind and the host of the pushed URL, never the secret.
    expect(within(items[1]).getByText('URL push · example.com')).toBeTruthy();

    fireEvent.click(within(items[0]).getByRole('button', { name: 'Copy the link of wifi' }));
    await waitFor(() => expect(env.copy).toHaveBeenCalledWith(record({ url_token: 'aaa111' }).html_url));

    const audit = within(items[0]).getByText('Audit log').closest('details')!;
    audit.open = true;
    fireEvent(audit, new Event('toggle'));
    expect(await within(items[0]).findByText('Viewed')).toBeTruthy();
    expect(api.audit).toHaveBeenCalledWith('aaa111', 1);

    fireEvent.click(within(items[0]).getByRole('button', { name: 'Expire wifi now' }));
    // Asked first; nothing is sent until confirmed.
    expect(within(items[0]).getByText(/Expire wifi now\? Its link stops working/)).toBeTruthy();
    expect(api.expire).not.toHaveBeenCalled();
    fireEvent.click(within(items[0]).getByRole('button', { name: 'Yes, expire it' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Active pushes' })).getAllByRole('listitem')).toHaveLength(1));
    expect(api.expire).toHaveBeenCalledWith('aaa111');

    fireEvent.click(screen.getByRole('button', { name: 'Expired' }));
    const expired = await screen.findByRole('list', { name: 'Expired pushes' });
    expect(within(expired).getByText('old')).toBeTruthy();
    expect(within(expired).queryByRole('button', { name: /Expire/ })).toBeNull();
  });

  it('names file pushes by their files: a label this browser remembers first, else the names the server lists', async () => {
    const api = fakeApi({
      active: vi.fn(async () => [
        record({ url_token: 'e2e111', name: null, created_at: '2025-01-03T00:00:00.000Z' }),
        record({ url_token: 'srv222', name: null, created_at: '2025-01-02T00:00:00.000Z', file_names: ['contract.pdf'] }),
        record({ url_token: 'srv333', name: null, created_at: '2025-01-01T00:00:00.000Z', file_names: ['a-very-long-file-name-for-a-quarterly-report.pdf', 'b.txt', 'c.txt'] }),
      ]),
    });
    const env = fakeEnv(api, {
      loadSettings: vi.fn(async () => settings({ apiToken: 'tok' })),
      // An end-to-end encrypted file push made here: its name is known to this browser only.
      recallKinds: vi.fn(async () => ({ e2e111: { kind: 'file', hint: 'passport.jpg' } })),
    });
    render(<App env={env} initialTab="history" />);
    const items = within(await screen.findByRole('list', { name: 'Active pushes' })).getAllByRole('listitem');
    expect(items.map((li) => li.querySelector('strong')?.textContent)).toEqual([
      'File push · passport.jpg',
      'File push · contract.pdf',
      'File push · a-very-long-file-name-for-a-qua… and 2 more',
    ]);
    expect(within(items[1]).getByText('File')).toBeTruthy(); // the kind badge, from the listed names
  });

  it('shows the newest first and loads older pushes on request, 50 at a time', async () => {
    const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString();
    // The server's order is not trusted: the list is sorted by creation time.
    const first = Array.from({ length: 50 }, (_, i) => record({ name: `p${i}`, created_at: at(100 - i) })).reverse();
    const api = fakeApi({ active: vi.fn(async (page: number) => (page === 1 ? first : [record({ name: 'oldest', created_at: at(1) })])) });
    render(<App env={fakeEnv(api, { loadSettings: vi.fn(async () => settings({ apiToken: 'tok' })) })} initialTab="history" />);
    const list = await screen.findByRole('list', { name: 'Active pushes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(50);
    expect(within(list).getAllByRole('listitem')[0].querySelector('strong')?.textContent).toBe('p0');
    fireEvent.click(screen.getByRole('button', { name: 'Show older pushes' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(51));
    expect(within(list).getAllByRole('listitem')[50].querySelector('strong')?.textContent).toBe('oldest');
    expect(api.active).toHaveBeenLastCalledWith(2);
    expect(screen.queryByRole('button', { name: 'Show older pushes' })).toBeNull();
  });

  it('says when the token is refused', async () => {
    const api = fakeApi({ active: vi.fn(async () => Promise.reject(apiError('UNAUTHORIZED', 401))) });
    render(<App env={fakeEnv(api, { loadSettings: vi.fn(async () => settings({ apiToken: 'bad' })) })} initialTab="history" />);
    expect(await screen.findByText(/did not accept your API token/)).toBeTruthy();
  });
});

describe('Settings (the options page)', () => {
  it('asks for access to the server origin in the click itself, saves, and shows what the server offers', async () => {
    const api = fakeApi({ version: vi.fn(async () => versionDocument({ qr: false })) });
    const requestOrigin = vi.fn(async (_pattern: string) => true);
    const env = fakeEnv(api, { loadSettings: vi.fn(async () => settings({ serverUrl: '' })), requestOrigin });
    render(<OptionsApp env={env} />);

    fireEvent.input(await screen.findByLabelText('Server address'), { target: { value: 'http://127.0.0.1:8080/' } });
    fireEvent.input(screen.getByLabelText(/API token/), { target: { value: ' tok ' } });
    fireEvent.input(screen.getByLabelText('Days'), { target: { value: '2' } });
    fireEvent.click(screen.getByLabelText('Let the recipient delete the push'));
    expect(screen.getByRole('link', { name: 'Get a token from your server' }).getAttribute('href')).toBe('http://127.0.0.1:8080/users/token');

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    // First the host that will receive the token; nothing saved or asked yet.
    expect(screen.getByText(/Your API token will be sent to/).textContent).toBe('Your API token will be sent to 127.0.0.1:8080.');
    expect(env.saveSettings).not.toHaveBeenCalled();
    expect(requestOrigin).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Send the token to 127.0.0.1:8080 and save' }));
    // Saved, then access asked, both synchronously in the click: saved before any prompt can
    // close the popup, asked while the user gesture lasts.
    expect(env.saveSettings).toHaveBeenCalledTimes(1);
    expect(requestOrigin.mock.calls).toEqual([['http://127.0.0.1/*']]);
    expect(vi.mocked(env.saveSettings).mock.invocationCallOrder[0]).toBeLessThan(requestOrigin.mock.invocationCallOrder[0]);

    expect(await screen.findByText(/Connected to Secret Push 1\.2\.3/)).toBeTruthy();
    expect(screen.getByText('Pushes: text, URL')).toBeTruthy();
    expect(screen.getByText('Your API token works.')).toBeTruthy();
    expect(env.saveSettings).toHaveBeenCalledWith({
      serverUrl: 'http://127.0.0.1:8080',
      apiToken: 'tok',
      defaults: { expire_after_days: 2, deletable_by_viewer: false },
      tokenOrigin: 'http://127.0.0.1:8080',
    });
    expect(env.saveServerInfo).toHaveBeenCalled();
  });

  it('refuses a bad address next to the field, without asking for anything', async () => {
    const env = fakeEnv(fakeApi());
    render(<OptionsApp env={env} />);
    fireEvent.input(await screen.findByLabelText('Server address'), { target: { value: 'ftp://x.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByLabelText('Server address').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/not ftp:\/\//)).toBeTruthy();
    expect(screen.getByText(/must start with https:\/\//)).toBeTruthy();
    expect(env.requestOrigin).not.toHaveBeenCalled();
    expect(env.saveSettings).not.toHaveBeenCalled();
  });

  it('says what happens when access is refused', async () => {
    const env = fakeEnv(fakeApi(), { requestOrigin: vi.fn(async () => false) });
    render(<OptionsApp env={env} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/may not reach https:\/\/push\.example\.org until you allow it/)).toBeTruthy();
  });

  it('warns before the token goes over plain http to another machine', async () => {
    const env = fakeEnv(fakeApi(), { loadSettings: vi.fn(async () => settings({ serverUrl: '' })) });
    render(<OptionsApp env={env} />);
    fireEvent.input(await screen.findByLabelText('Server address'), { target: { value: 'http://push.example.org' } });
    fireEvent.input(screen.getByLabelText(/API token/), { target: { value: 'tok' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getAllByText(/http:\/\/ is not encrypted: your API token and your secrets can be read on the way to push\.example\.org/)).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(env.saveSettings).not.toHaveBeenCalled();
  });

  it('says that access is missing when checking without it, and offers it', async () => {
    const api = fakeApi();
    const env = fakeEnv(api, { hasOrigin: vi.fn(async () => false) });
    render(<OptionsApp env={env} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Check connection' }));
    expect(await screen.findByText(/Secret Push is not allowed to reach https:\/\/push\.example\.org yet/)).toBeTruthy();
    expect(api.version).not.toHaveBeenCalled(); // the server is not blamed: it was never asked
    const allow = screen.getAllByRole('button', { name: 'Allow access to https://push.example.org' });
    fireEvent.click(allow[allow.length - 1]);
    expect(env.requestOrigin).toHaveBeenCalledWith('https://push.example.org/*');
  });

  it('checks the connection and reports a refused token', async () => {
    const api = fakeApi({ active: vi.fn(async () => Promise.reject(apiError('UNAUTHORIZED', 401))) });
    render(<OptionsApp env={fakeEnv(api, { loadSettings: vi.fn(async () => settings({ apiToken: 'bad' })) })} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Check connection' }));
    expect(await screen.findByText(/did not accept your API token/)).toBeTruthy();
    expect(screen.getByText(/Connected to Secret Push/)).toBeTruthy();
  });
});
