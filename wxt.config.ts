import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

/** Every host the extension may ever ask for; only the configured server's origin is requested. */
const anyWebOrigin = ['http://*/*', 'https://*/*'];

// The extension lives in extension/ (srcDir); server/ and shared/ are not WXT sources.
export default defineConfig({
  srcDir: 'extension',
  publicDir: 'extension/public',
  // Explicit imports only: auto-imports hide where a name comes from.
  imports: false,
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({ plugins: [preact()] }),
  manifest: ({ browser, manifestVersion, mode }) => ({
    name: 'Secret Push',
    description: 'Push the selection, the page or a QR code of it as a self-destructing secret link.',
    permissions: ['contextMenus', 'storage', 'activeTab', 'scripting', 'clipboardWrite', 'notifications'],
    // The server's origin is requested at run time (Settings → Save), never all sites up front.
    // MV2 (Firefox) has no optional_host_permissions: origins go in optional_permissions there.
    ...(manifestVersion === 3
      ? {
          optional_host_permissions: anyWebOrigin,
          // `wxt build --mode e2e` only: automation cannot click Chromium's permission prompt, so
          // the end-to-end build holds the loopback origin (any port) up front. Never shipped.
          ...(mode === 'e2e' ? { host_permissions: ['http://127.0.0.1/*'] } : {}),
        }
      : { optional_permissions: anyWebOrigin }),
    action: { default_title: 'Secret Push' },
    commands: {
      [manifestVersion === 3 ? '_execute_action' : '_execute_browser_action']: {
        suggested_key: { default: 'Alt+Shift+P' },
        description: 'Open Secret Push',
      },
    },
    // Firefox only (Chromium warns about keys it does not know).
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'secret-push@example.org',
              // scripting in MV2 (102), storage.session (115)
              strict_min_version: '115.0',
              data_collection_permissions: { required: ['none'] },
            },
          },
        }
      : {}),
  }),
});
