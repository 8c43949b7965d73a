import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../extension/components/App';
// Loaded up front, as the browser reads the chunk from the package on disk.
import '../../extension/components/lazy-views';
import type { OwnerRequest } from '../../shared/request-schema';
import { fakeApi, fakeEnv, limits, record, settings, versionDocument } from './fakes';

/** The popup's generator, "E-mail the link…", "Opens from" and Requests with a fake API (the e2e test runs them in browsers). */
afterEach(cleanup);

const info = (more: Partial<typeof limits>) => ({ serverUrl: 'https://push.example.org', version: versionDocument(), limits: { ...limits, ...more }, checkedAt: 'now' });

describe('popup: issue 34/31/35 additions', () => {
  it('"Generate and push" pushes what the generator made, and the strength follows the choices', async () => {
    const api = fakeApi();
    const env = fakeEnv(api, { loadServerInfo: vi.fn(async () => info({})) });
    render(<App env={env} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Generate a password…' }));
    expect(await screen.findByText('Strength: 129 bits')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Symbols'));
    expect(screen.getByText('Strength: 119 bits')).toBeTruthy(); // 20 × log2(62)
    fireEvent.input(screen.getByLabelText('Length'), { target: { value: '4' } });
    expect(screen.getByText('Enter a whole number between 8 and 128.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Generate and push' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.input(screen.getByLabelText('Length'), { target: { value: '16' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate and push' }));
    await screen.findByRole('heading', { name: 'Text pushed' });
    const pushed = vi.mocked(api.create).mock.calls[0]![0].payload!;
    expect(pushed).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(env.generate).toHaveBeenCalledWith({ rule: { length: 16, sets: ['lower', 'upper', 'digits'] } });
    // Never in the draft.
    expect(JSON.stringify(vi.mocked(env.saveDraft).mock.calls)).not.toContain(pushed);
  });

  it('offers "E-mail the link…" only with e-mail on the server and a token; sends the push and the addresses', async () => {
    const pushWith = async (email_links: boolean) => {
      const api = fakeApi({
        limits: vi.fn(async () => ({ ...limits, email_links })),
        create: vi.fn(async () => record({ url_token: 'mail1', html_url: 'https://push.example.org/p/mail1/r' })),
      });
      const env = fakeEnv(api, { loadSettings: vi.fn(async () => settings({ apiToken: 'tok' })) });
      const view = render(<App env={env} />);
      await waitFor(() => expect(api.limits).toHaveBeenCalled());
      await screen.findByRole('button', { name: 'Push secret' });
      fireEvent.input(document.getElementById('payload')!, { target: { value: 'x' } });
      fireEvent.click(screen.getByRole('button', { name: 'Push secret' }));
      await screen.findByRole('heading', { name: 'Text pushed' });
      return { api, view };
    };
    const without = await pushWith(false);
    expect(screen.queryByText('E-mail the link…')).toBeNull();
    without.view.unmount();

    const { api } = await pushWith(true);
    fireEvent.click(await screen.findByText('E-mail the link…'));
    fireEvent.input(screen.getByLabelText(/^To/), { target: { value: 'a@example.org, b@example.org' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Sent to 2 addresses.')).toBeTruthy();
    expect(api.emailLink).toHaveBeenCalledWith({ url_token: 'mail1', notify_emails: 'a@example.org, b@example.org', notify_note: undefined, link_key: undefined });
  });

  it('"Opens from" only when the server schedules releases; sent with its offset', async () => {
    const api = fakeApi();
    const env = fakeEnv(api, { loadServerInfo: vi.fn(async () => info({ scheduled_release: true })) });
    render(<App env={env} />);
    await screen.findByRole('button', { name: 'Push secret' });
    fireEvent.input(document.getElementById('payload')!, { target: { value: 'later' } });
    fireEvent.input(await screen.findByLabelText('Opens from (optional)'), { target: { value: '2031-03-01T08:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Push secret' }));
    await screen.findByRole('heading', { name: 'Text pushed' });
    expect(vi.mocked(api.create).mock.calls[0]![0].not_before).toBe(new Date('2031-03-01T08:00').toISOString());
  });

  it('Requests: makes one (its link copied) and lists states; an answered one links to its answer', async () => {
    const made: OwnerRequest = { url_token: 'r1', html_url: 'https://push.example.org/req/r1', title: 'VPN', message: null, created_at: '2026-01-01T00:00:00Z', expires_at: '2026-01-08T00:00:00Z', state: 'open', answered_at: null, answer_expire_after_days: 7, answer_expire_after_views: 5, push_id: null, email_on_answer: false, answer_html_url: null };
    const answered: OwnerRequest = { ...made, url_token: 'r2', title: null, state: 'answered', answered_at: '2026-01-02T00:00:00Z', answer_html_url: 'https://push.example.org/p/ans/r' };
    let list = [answered];
    const api = fakeApi({ requests: vi.fn(async () => list), createRequest: vi.fn(async () => ((list = [made, answered]), made)) });
    const env = fakeEnv(api, { loadSettings: vi.fn(async () => settings({ apiToken: 'tok' })) });
    render(<App env={env} initialTab="history" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Requests' }));
    expect((await screen.findByText('Open the answer (counts a view)')).getAttribute('href')).toBe('https://push.example.org/p/ans/r');
    expect(screen.getByText('Request without a title')).toBeTruthy();
    fireEvent.click(screen.getByText('Request a secret'));
    fireEvent.input(screen.getByLabelText(/^Title/), { target: { value: 'VPN' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make the request link' }));
    expect(await screen.findByText(/The request link is copied/)).toBeTruthy();
    expect(api.createRequest).toHaveBeenCalledWith({ title: 'VPN' });
    expect(env.copy).toHaveBeenCalledWith('https://push.example.org/req/r1');
    expect(await screen.findByText('Waiting')).toBeTruthy();
    expect(screen.getByText('Answered')).toBeTruthy();
  });

  it('Requests: older ones page by page, and a waiting one is closed from the list', async () => {
    const base: OwnerRequest = { url_token: 'q0', html_url: 'https://push.example.org/req/q0', title: 'r0', message: null, created_at: '2026-01-01T00:00:00Z', expires_at: '2026-01-08T00:00:00Z', state: 'open', answered_at: null, answer_expire_after_days: 7, answer_expire_after_views: 5, push_id: null, email_on_answer: false, answer_html_url: null };
    // 52 requests on the server: 50 on page 1, 2 on page 2.
    const all = Array.from({ length: 52 }, (_, i) => ({ ...base, url_token: `q${i}`, title: `r${i}` }));
    const api = fakeApi({
      requests: vi.fn(async (page: number) => all.slice((page - 1) * 50, page * 50)),
      closeRequest: vi.fn(async (token: string) => {
        const r = all.find((x) => x.url_token === token)!;
        r.state = 'closed';
        return { ...r };
      }),
    });
    const env = fakeEnv(api, { loadSettings: vi.fn(async () => settings({ apiToken: 'tok' })) });
    render(<App env={env} initialTab="history" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Requests' }));
    await screen.findByText('r49');
    expect(screen.queryByText('r50')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show older requests' }));
    await screen.findByText('r51');
    expect(api.requests).toHaveBeenLastCalledWith(2);
    // The last page was short: nothing older to ask for.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Show older requests' })).toBeNull());

    fireEvent.click(screen.getByRole('button', { name: 'Close the request r50' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Close the request r50' })).toBeNull());
    expect(api.closeRequest).toHaveBeenCalledWith('q50');
    expect(screen.getAllByText('Closed')).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: /^Close the request/ })).toHaveLength(51);
  });
});
