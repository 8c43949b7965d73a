import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

// Two projects: the server's tests run in plain Node; the extension's unit and component
// tests run with WXT's fake browser. End-to-end tests (real Chromium) are in test/e2e.
export default defineConfig({
  test: {
    projects: [
      {
        extends: false,
        test: {
          name: 'server',
          environment: 'node',
          include: ['test/server/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
        oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
      },
      {
        plugins: [WxtVitest()],
        test: {
          name: 'extension',
          environment: 'happy-dom',
          include: ['test/extension/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
