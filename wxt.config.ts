import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';

// The extension lives in extension/ (srcDir); server/ and shared/ are not WXT sources.
export default defineConfig({
  srcDir: 'extension',
  // Explicit imports only: auto-imports hide where a name comes from.
  imports: false,
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({ plugins: [preact()] }),
  manifest: {
    name: 'Secret Push',
    description: 'Push the selection, the page or a QR code of it as a self-destructing secret link.',
    permissions: ['contextMenus', 'storage', 'activeTab', 'scripting', 'clipboardWrite', 'notifications'],
    optional_host_permissions: ['http://*/*', 'https://*/*'],
    browser_specific_settings: {
      gecko: {
        id: 'secret-push@example.org',
        // @ts-expect-error: newer Firefox key not yet in WXT's manifest types
        data_collection_permissions: { required: ['none'] },
      },
    },
  },
});
