import { useEffect, useState } from 'preact/hooks';
import { problemOf, type Problem } from '../lib/problem';
import type { PopupEnv } from '../lib/popup-env';
import { checkServerUrl } from '../lib/server-address';
import type { ServerInfo, Settings } from '../lib/settings-storage';

/**
 * The saved settings and what the server last said, shown at once from storage and then asked
 * again: the popup and the options page (Settings) both start from this.
 */
export function useServer(env: PopupEnv) {
  const [settings, setSettings] = useState<Settings | null>(null);
  const [info, setInfo] = useState<ServerInfo | null>(null);
  const [infoProblem, setInfoProblem] = useState<Problem | null>(null);
  const [access, setAccess] = useState<'unknown' | 'granted' | 'missing'>('unknown');

  /** Shows what we knew at once, then asks the server again. */
  async function refresh(current: Settings) {
    setInfoProblem(null);
    const check = checkServerUrl(current.serverUrl);
    if (!current.serverUrl || !check.ok) return;
    const granted = await env.hasOrigin(check.originPattern).catch(() => false);
    setAccess(granted ? 'granted' : 'missing');
    if (!granted) return;
    try {
      const api = env.createApi(current);
      const [version, limits] = await Promise.all([api.version(), api.limits()]);
      const fresh: ServerInfo = { serverUrl: current.serverUrl, version, limits, checkedAt: new Date().toISOString() };
      setInfo(fresh);
      await env.saveServerInfo(fresh);
    } catch (err) {
      // The cached server info (if any) still lets the form show; say why it may be stale.
      setInfoProblem(problemOf(err));
    }
  }

  useEffect(() => {
    void (async () => {
      const [loaded, cached] = await Promise.all([env.loadSettings(), env.loadServerInfo().catch(() => null)]);
      setInfo(cached && cached.serverUrl === loaded.serverUrl ? cached : null);
      setSettings(loaded);
      await refresh(loaded);
    })();
  }, [env]);

  function grantAccess() {
    const check = settings && checkServerUrl(settings.serverUrl);
    if (!check?.ok) return;
    // Synchronously inside the click (a user gesture), before any await.
    void env.requestOrigin(check.originPattern).then((ok) => {
      if (ok) void refresh(settings!);
    });
  }

  /** Settings saved: `fresh` when the server has answered already, else it is asked. */
  function saved(next: Settings, fresh: ServerInfo | null) {
    setSettings(next);
    if (fresh) {
      setInfo(fresh);
      setInfoProblem(null);
      setAccess('granted');
    } else void refresh(next);
  }

  return { settings, setSettings, info, infoProblem, setInfoProblem, access, refresh, grantAccess, saved };
}
