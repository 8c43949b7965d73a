import type { BrowserContext } from 'playwright-core';
import { sharedChromium } from './pages-chromium';

/**
 * A plain Chromium (no extension) for the recipients of a test file's links: the worker's shared
 * Chromium (pages-chromium.ts), each recipient in a browser context of its own (its own cookies,
 * storage and downloads, as a separate browser profile has). A launch costs 1–3 s on the 2-core
 * test machine, and the extension suite had up to five recipients per file.
 */
export function recipientChromium() {
  return {
    /** A fresh context, closed by `use`'s end whatever it did. */
    async use<R>(fn: (context: BrowserContext) => Promise<R>): Promise<R> {
      const context = await (await sharedChromium()).newContext({ acceptDownloads: true });
      try {
        return await fn(context);
      } finally {
        await context.close();
      }
    },
    /** Nothing to close: every context closed at its `use`'s end, and the browser is the worker's. */
    async close(): Promise<void> {},
  };
}
