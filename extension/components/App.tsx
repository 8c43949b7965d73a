import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../lib/i18n';
import type { PopupEnv } from '../lib/popup-env';
import { checkServerUrl } from '../lib/server-address';
import type { LastPush } from '../lib/settings-storage';
import { AccessNotice } from './AccessNotice';
import { Lazy } from './Lazy';
import { ProblemNotice } from './ProblemNotice';
import { PushForm } from './PushForm';
import { useServer } from './use-server';

const loadHistory = () => import('./lazy-views').then((m) => m.History);
const loadReconnect = () => import('./lazy-views').then((m) => m.ReconnectNotice);

// Settings is the options page (OptionsApp.tsx), opened from here: its code is not the popup's.
export type TabName = 'push' | 'history';
const tabNames: TabName[] = ['push', 'history'];

interface Props {
  env: PopupEnv;
  initialTab?: TabName;
}

export function App({ env, initialTab }: Props) {
  const [tab, setTab] = useState<TabName>(initialTab ?? 'push');
  const { settings, setSettings, info, infoProblem, setInfoProblem, access, refresh, grantAccess } = useServer(env);
  const [lastPush, setLastPush] = useState<LastPush | null>(null);
  // The secret field takes the focus when the popup opens, not when the user comes back by the tabs.
  const tabSwitched = useRef(false);
  const tabRefs = useRef<Record<TabName, HTMLButtonElement | null>>({ push: null, history: null });

  useEffect(() => {
    void env.lastPush().then(setLastPush, () => undefined);
  }, [env]);

  function onTabKey(e: KeyboardEvent) {
    // The focused tab, not the state: two quick keys must not both start from the same tab.
    const focused = tabNames.find((n) => tabRefs.current[n] === e.target) ?? tab;
    // Two tabs: either arrow goes to the other one (and wraps), Home to the first, End to the last.
    const other = focused === 'push' ? 'history' : 'push';
    const next = ({ ArrowRight: other, ArrowLeft: other, Home: 'push', End: 'history' } as Record<string, TabName>)[e.key];
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
              {t(`tab_${name}`)}
            </button>
          ))}
        </div>
        <button type="button" class="link" onClick={() => env.openOptions()}>
          {t('tab_settings')}
        </button>
      </header>

      {access === 'missing' && origin.ok && <AccessNotice origin={origin.origin} onAllow={grantAccess} />}
      {access !== 'missing' && infoProblem && (
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
              onOpenSettings={() => env.openOptions()}
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
              onOpenSettings: () => env.openOptions(),
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
