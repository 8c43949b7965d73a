import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../extension/components/App';
import { OptionsApp } from '../../extension/components/OptionsApp';
// Loaded up front, as the browser reads the chunk from the package on disk: a first dynamic
// import transformed by vitest under a loaded machine can outlast findBy's one second.
import '../../extension/components/lazy-views';
import { fakeApi, fakeEnv, networkError, SERVER } from './fakes';

afterEach(cleanup);

/**
 * A server behind a certificate the browser does not trust: the API's fetch fails with "Failed
 * to fetch", and the browser's reason comes with it only while webRequest is held (as the
 * background's fetch attaches it, lib/http-failure.ts).
 */
function untrustedServer() {
  let observing = false;
  const fail = async () => {
    const err = networkError();
    if (observing) Object.assign(err.cause as object, { netError: 'net::ERR_CERT_AUTHORITY_INVALID' });
    throw err;
  };
  const api = fakeApi({ version: vi.fn(fail), limits: vi.fn(fail) });
  const netErrors = {
    request: vi.fn(async () => (observing = true)),
    release: vi.fn(async () => void (observing = false)),
  };
  return { api, netErrors };
}

const unreachable = new RegExp(`The server cannot be reached at ${SERVER.replace(/\./g, '\\.')}\\. Check the address`);
const certificate = /The secure connection to https:\/\/push\.example\.org failed: the browser does not trust its certificate \(net::ERR_CERT_AUTHORITY_INVALID\)/;
const inTab = /Secret Push cannot tell why\. Open the server in a tab/;

describe('popup: a server that cannot be reached', () => {
  it('Chromium (webRequest never asked for): says so, sends the user to the server in a tab, asks for nothing', async () => {
    const { api } = untrustedServer();
    render(<App env={fakeEnv(api)} />);
    expect(await screen.findByText(unreachable)).toBeTruthy();
    expect(screen.getByText(inTab)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the server in a tab' }).getAttribute('href')).toBe(SERVER);
    expect(screen.queryByRole('button', { name: 'Find out why' })).toBeNull();
  });

  it('Firefox: "Find out why" asks for webRequest in the click, checks once more, names the certificate, and gives the permission back', async () => {
    const { api, netErrors } = untrustedServer();
    render(<App env={fakeEnv(api, { netErrors })} />);
    expect(await screen.findByText(unreachable)).toBeTruthy();
    expect(screen.queryByText(inTab)).toBeNull();
    expect(api.version).toHaveBeenCalledTimes(1);
    expect(netErrors.request).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Find out why' }));
    expect(netErrors.request).toHaveBeenCalledTimes(1); // synchronously, inside the click
    expect(await screen.findByText(certificate)).toBeTruthy();
    expect(api.version).toHaveBeenCalledTimes(2);
    expect(screen.queryByText(unreachable)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Find out why' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Open the server in a tab' })).toBeTruthy();
    await waitFor(() => expect(netErrors.release).toHaveBeenCalled());
  });

  it('Firefox, permission refused: keeps the general message, adds where to look, asks again for nothing', async () => {
    const { api, netErrors } = untrustedServer();
    netErrors.request.mockResolvedValue(false);
    render(<App env={fakeEnv(api, { netErrors })} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Find out why' }));
    expect(await screen.findByText(inTab)).toBeTruthy();
    expect(screen.getByText(unreachable)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Find out why' })).toBeNull();
    expect(api.version).toHaveBeenCalledTimes(1);
    expect(netErrors.release).not.toHaveBeenCalled();
  });

  it("Firefox, Settings: Check connection's failure offers the same, and the check is made again", async () => {
    const { api, netErrors } = untrustedServer();
    render(<OptionsApp env={fakeEnv(api, { netErrors })} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Check connection' }));
    expect(await screen.findByText(unreachable)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Find out why' }));
    expect(await screen.findByText(certificate)).toBeTruthy();
    await waitFor(() => expect(netErrors.release).toHaveBeenCalled());
  });
});
