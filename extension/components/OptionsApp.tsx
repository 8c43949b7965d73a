import { t } from '../lib/i18n';
import type { OptionsEnv } from '../lib/options-env';
import { checkServerUrl } from '../lib/server-address';
import { AccessNotice } from './AccessNotice';
import { SettingsView } from './Settings';
import { useServer } from './use-server';

/**
 * The extension's options page: Settings (server, token, Connect, push defaults, the
 * organisation's policy). Not a popup view, so that its code is not the popup's to load (the
 * popup's budget, scripts/bundle-size.ts); the popup opens this page.
 */
export function OptionsApp({ env }: { env: OptionsEnv }) {
  const { settings, info, access, grantAccess, saved } = useServer(env);
  if (!settings) return <p class="loading" role="status">{t('loading')}</p>;
  const origin = checkServerUrl(settings.serverUrl);
  return (
    <div class="app options">
      <header>
        <h1>{info?.version.secret_push_name ?? t('ext_name')}</h1>
      </header>
      {access === 'missing' && origin.ok && <AccessNotice origin={origin.origin} onAllow={grantAccess} />}
      <main class="panel" aria-label={t('tab_settings')}>
        <SettingsView env={env} settings={settings} info={info} onSaved={saved} />
      </main>
    </div>
  );
}
