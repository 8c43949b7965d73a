import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../extension/components/App';
// Loaded up front, as the browser reads the chunk from the package on disk: a first dynamic
// import transformed by vitest under a loaded machine can outlast findBy's one second.
import '../../extension/components/lazy-views';
import { apiError, fakeApi, fakeEnv, settings, versionDocument } from './fakes';

afterEach(cleanup);

describe('popup: a revoked token', () => {
  it('says the extension must connect again and offers Connect; connected, it asks the server again with the new token', async () => {
    let token = 'sp_revoked';
    const api = fakeApi({
      version: vi.fn(async () => {
        if (token === 'sp_revoked') throw apiError('UNAUTHORIZED', 401, 'Invalid API token.');
        return versionDocument();
      }),
    });
    const env = fakeEnv(api, {
      loadSettings: vi.fn(async () => settings({ apiToken: token })),
      connect: vi.fn(async () => {
        token = 'sp_new';
        return { ok: true as const, label: 'Secret Push extension — Chromium, 2026-11-28' };
      }),
    });
    render(<App env={env} />);
    await screen.findByText(/no longer accepts this extension’s token/);
    fireEvent.click(await screen.findByRole('button', { name: 'Connect by signing in' }));
    await waitFor(() => expect(screen.queryByText(/no longer accepts this extension’s token/)).toBeNull());
    expect(env.connect).toHaveBeenCalledTimes(1);
    expect(api.version).toHaveBeenCalledTimes(2);
  });

  it('without a token, a 401 is not "connect again" (nothing was connected)', async () => {
    const api = fakeApi({ version: vi.fn(async () => Promise.reject(apiError('UNAUTHORIZED', 401, 'no'))) });
    const env = fakeEnv(api, { connect: vi.fn() });
    render(<App env={env} />);
    await screen.findByText(/This needs an API token/);
    expect(screen.queryByText(/no longer accepts this extension’s token/)).toBeNull();
  });
});
