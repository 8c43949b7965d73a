import { describe, expect, it, vi } from 'vitest';
import { checkConnection, finishSetup } from '../../extension/lib/connection-check';
import { describedApi } from '../../extension/lib/described-api';
import { tokenToSend, type Settings } from '../../extension/lib/settings-storage';
import { apiError, fakeApi, limits, settings, SERVER, versionDocument } from './fakes';

function setupEnv(granted: boolean, api = fakeApi()) {
  return {
    api,
    env: {
      loadSettings: vi.fn(async () => settings({ apiToken: 'tok' })),
      hasOrigin: vi.fn(async () => granted),
      createApi: vi.fn((s: Settings) => describedApi(api, s.serverUrl, Boolean(tokenToSend(s)))),
      saveServerInfo: vi.fn(async () => undefined),
    },
  };
}

describe('finishSetup (the background, when host access arrives)', () => {
  it('asks the saved server about itself and keeps the answer, popup open or not', async () => {
    const { env } = setupEnv(true);
    const check = await finishSetup(env, [`${SERVER}/*`]);
    expect(check).toMatchObject({ tokenOk: true, info: { serverUrl: SERVER, version: versionDocument(), limits } });
    expect(env.saveServerInfo).toHaveBeenCalledWith(expect.objectContaining({ serverUrl: SERVER }));
    expect(env.hasOrigin).toHaveBeenCalledWith('https://push.example.org/*');
  });

  it('does nothing while the saved server is still out of reach, or when no origin was added', async () => {
    const { env, api } = setupEnv(false);
    expect(await finishSetup(env, ['https://elsewhere.example/*'])).toBeNull();
    expect(await finishSetup({ ...env, hasOrigin: vi.fn(async () => true) }, [])).toBeNull();
    expect(api.version).not.toHaveBeenCalled();
    expect(env.saveServerInfo).not.toHaveBeenCalled();
  });

  it('keeps nothing when the server does not answer (the popup says why when opened)', async () => {
    const { env } = setupEnv(true, fakeApi({ version: vi.fn(async () => Promise.reject(apiError('SERVICE_UNAVAILABLE', 503))) }));
    const check = await finishSetup(env, [`${SERVER}/*`]);
    expect(check?.problem?.kind).toBe('unavailable');
    expect(env.saveServerInfo).not.toHaveBeenCalled();
  });
});

describe('checkConnection', () => {
  it('says that access is missing without asking the server', async () => {
    const { env, api } = setupEnv(false);
    const check = await checkConnection(env, settings());
    expect(check.problem).toMatchObject({ kind: 'no-access', message: expect.stringContaining(`not allowed to reach ${SERVER} yet`) });
    expect(api.version).not.toHaveBeenCalled();
  });
});
