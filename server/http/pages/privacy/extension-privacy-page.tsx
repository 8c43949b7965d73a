/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import { Hono } from 'hono';
import type { AppEnv } from '../../app-env.js';
import { useLanguage } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages/en.js';
import { sendPage } from '../render.js';

/**
 * What the browser extension keeps in the browser, by storage key (extension/lib/settings-storage.ts
 * names them), and what it sends to whom. The page is the extension's privacy policy for the
 * stores; test/server/pages/extension-privacy.test.ts reads the keys from the extension's code
 * and fails when one is not listed here.
 */
type Area = 'sync' | 'local' | 'session' | 'managed' | 'opfs';
export const extensionStorage: Array<{ area: Area; key: string }> = [
  { area: 'sync', key: 'serverUrl' },
  { area: 'sync', key: 'pushDefaults' },
  { area: 'local', key: 'apiToken' },
  { area: 'local', key: 'tokenOrigin' },
  { area: 'local', key: 'serverInfo' },
  { area: 'local', key: 'pushKinds' },
  { area: 'local', key: 'linkKeys' },
  { area: 'local', key: 'notifyOpened' },
  { area: 'local', key: 'openedSeen' },
  { area: 'session', key: 'lastPush' },
  { area: 'session', key: 'draft' },
  { area: 'opfs', key: 'secret-push-uploads' },
  { area: 'managed', key: 'serverUrl, allowServerChange, pushDefaults, offerUrlPushes, offerQrPushes' },
];

const sent = ['pushes', 'token', 'info', 'history', 'connect', 'opened', 'nobody'] as const;

function ExtensionPrivacyPage() {
  const { t } = useLanguage();
  return (
    <section class="card prose">
      <h1>{t('title.privacyExtension')}</h1>
      <p>{t('privacy.ext.intro')}</p>
      <h2>{t('privacy.ext.storedHeading')}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('privacy.ext.colKey')}</th>
            <th scope="col">{t('privacy.ext.colArea')}</th>
            <th scope="col">{t('privacy.ext.colHolds')}</th>
          </tr>
        </thead>
        <tbody>
          {extensionStorage.map(({ area, key }) => (
            <tr>
              <td>
                <code>{area === 'opfs' ? key : `${area === 'managed' ? 'storage.managed' : `storage.${area}`}: ${key}`}</code>
              </td>
              <td>{t(`privacy.ext.area.${area}` as MessageKey)}</td>
              <td>{t(`privacy.ext.key.${area === 'managed' ? 'managed' : area === 'opfs' ? 'uploads' : key}` as MessageKey)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>{t('privacy.ext.sentHeading')}</h2>
      <ul>
        {sent.map((s) => (
          <li>{t(`privacy.ext.sent.${s}` as MessageKey)}</li>
        ))}
      </ul>
    </section>
  );
}

/** GET /privacy/extension, in the visitor's language (?lang= as on every page). */
export function extensionPrivacyRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/privacy/extension', (c) => sendPage(c, 200, 'title.privacyExtension', <ExtensionPrivacyPage />));
  return app;
}
