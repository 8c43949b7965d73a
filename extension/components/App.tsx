import { useEffect, useRef, useState } from 'preact/hooks';
import { problemOf, type Problem } from '../lib/problem';
import { t, type MessageKey } from '../lib/i18n';
import type { PopupEnv } from '../lib/popup-env';
import { checkServerUrl } from '../lib/server-address';
import type { LastPush, ServerInfo, Settings } from '../lib/settings-storage';
import { Notice } from './Field';
import { Lazy } from './Lazy';
import { ProblemNotice } from './ProblemNotice';
import { PushForm } from './PushForm';

const loadHistory = () => import('./lazy-views').then((m) => m.History);
const loadSettings = () => import('./lazy-views').then((m) => m.SettingsView);
const loadReconnect = () => import('./lazy-views').then((m) => m.ReconnectNotice);

export type TabName = 'push' | 'history' | 'settings';
const tabNames: TabName[] = ['push', 'history', 'settings'];
const tabLabels: Record<TabName, MessageKey> = { push: 'tab_push', history: 'tab_history', settings: 'tab_settings' };

interface Props {
  env: PopupEnv;
  initialTab?: TabName;
}

export function App({ env, initialTab }: Props) {
  const [tab, setTab] = useState<TabName>(initialTab ?? 'push');
  const [settings, setSettings] = useState<Settings | null>(null);
  const [info, setInfo] = useState<ServerInfo | null>(null);
  const [infoProblem, setInfoProblem] = useState<Problem | null>(null);
  const [access, setAccess] = useState<'unknown' | 'granted' | 'missing'>('unknown');
  const [lastPush, setLastPush] = useState<LastPush | null>(null);
  // The secret field takes the focus when the popup opens, not when the user comes back by the tabs.
  const tabSwitched = useRef(false);
  const tabRefs = useRef<Record<TabName, HTMLButtonElement | null>>({ push: null, history: null, settings: null });

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
      const [loaded, cached, last] = await Promise.all([
        env.loadSettings(),
        env.loadServerInfo().catch(() => null),
        env.lastPush().catch(() => null),
      ]);
      const usable = cached && cached.serverUrl === loaded.serverUrl ? cached : null;
      setSettings(loaded);
      setInfo(usable);
      setLastPush(last);
      if (!loaded.serverUrl && !initialTab) setTab('settings');
      await refresh(loaded);
    })();
  }, [env]);

  function grantAccess() {
    if (!settings) return;
    const check = checkServerUrl(settings.serverUrl);
    if (!check.ok) return;
    // Synchronously inside the click (a user gesture), before any await.
    void env.requestOrigin(check.originPattern).then((ok) => {
      if (ok) void refresh(settings);
    });
  }

  function onTabKey(e: KeyboardEvent) {
    // The focused tab, not the state: two quick keys must not both start from the same tab.
    const focused = tabNames.find((n) => tabRefs.current[n] === e.target) ?? tab;
    const i = tabNames.indexOf(focused);
    const next =
      e.key === 'ArrowRight' ? tabNames[(i + 1) % tabNames.length]
      : e.key === 'ArrowLeft' ? tabNames[(i + tabNames.length - 1) % tabNames.length]
      : e.key === 'Home' ? tabNames[0]
      : e.key === 'End' ? tabNames[tabNames.length - 1]
      : null;
    if (!next) return;
    e.preventDefault();
    tabSwitched.current = true;
    setTab(next);
    tabRefs.current[next]?.focus();
  }

  if (!settings) return <p class="loading" role="status">{t('loading')}</p>;
  const origin = checkServerUrl(settings.serverUrl);

  return (
    <div class="app">
      <header>
        {/* A branded instance's name (BRAND_NAME) once its server has answered. */}
        <h1>{info?.version.secret_push_name ?? t('ext_name')}</h1>
        <div role="tablist" aria-label={t('ext_name')} onKeyDown={onTabKey}>
          {tabNames.map((name) => (
            <button
              key={name}
              ref={(el) => {
                tabRefs.current[name] = el;
              }}
              id={`tab-${name}`}
              role="tab"
              type="button"
              aria-selected={tab === name}
              aria-controls={`panel-${name}`}
              tabIndex={tab === name ? 0 : -1}
              onClick={() => {
                tabSwitched.current = true;
                setTab(name);
              }}
            >
              {t(tabLabels[name])}
            </button>
          ))}
        </div>
      </header>

      {access === 'missing' && origin.ok && (
        <Notice tone="error">
          <p>{t('access_not_allowed', origin.origin)}</p>
          <button type="button" onClick={grantAccess}>
            {t('allow_access', origin.origin)}
          </button>
        </Notice>
      )}
      {access !== 'missing' && infoProblem && tab !== 'settings' && (
        // A token the server no longer takes (revoked on its tokens page): connect again.
        infoProblem.kind === 'unauthorized' && settings.apiToken && env.connect ? (
          <Lazy load={loadReconnect} props={{ env, onConnected: () => void env.loadSettings().then((next) => (setSettings(next), refresh(next))) }} />
        ) : (
          <ProblemNotice problem={infoProblem} serverUrl={settings.serverUrl} env={env} retry={() => refresh(settings)} />
        )
      )}

      <div class="panel" id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`}>
        {tab === 'push' && (
          <>
            <PushForm
              env={env}
              settings={settings}
              limits={info?.limits}
              version={info?.version}
              autoFocus={!tabSwitched.current}
              onOpenSettings={() => setTab('settings')}
              onServerOk={() => setInfoProblem(null)}
            />
            {lastPush && <LastPushNote last={lastPush} env={env} />}
          </>
        )}
        {tab === 'history' && (
          <Lazy
            load={loadHistory}
            props={{
              env,
              settings,
              anonymousAllowed: info?.version.features.anonymous_access,
              onOpenSettings: () => setTab('settings'),
            }}
          />
        )}
        {tab === 'settings' && (
          <Lazy
            load={loadSettings}
            props={{
              env,
              settings,
              info,
              onSaved: (next: Settings, fresh: ServerInfo | null) => {
                setSettings(next);
                if (fresh) {
                  setInfo(fresh);
                  setInfoProblem(null);
                  setAccess('granted');
                } else void refresh(next);
              },
            }}
          />
        )}
      </div>
    </div>
  );
}

/** The link of the last push made from the context menu (kept for this browser session). */
function LastPushNote({ last, env }: { last: LastPush; env: PopupEnv }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <details class="last-push">
      <summary>{t('last_push')}</summary>
      <p class="meta">{last.html_url}</p>
      <button type="button" onClick={async () => setCopied(await env.copy(last.html_url))}>
        {t('copy_link')}
      </button>
      {copied !== null && <span role="status">{' '}{copied ? t('copied') : t('copy_failed')}</span>}
    </details>
  );
}
