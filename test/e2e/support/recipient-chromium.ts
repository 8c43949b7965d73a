import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from './pages-chromium';

/**
 * A plain Chromium (no extension) for the recipients of a test file's links: launched when the
 * first recipient needs it and kept for the file, each recipient in a browser context of its own
 * (its own cookies, storage and downloads, as a separate browser profile has). A launch costs
 * 1–3 s on the 2-core test machine, and the extension suite had up to five recipients per file.
 */
export function recipientChromium() {
  let browser: Promise<Browser> | undefined;
  return {
    /** A fresh context, closed by `use`'s end whatever it did. */
    async use<R>(fn: (context: BrowserContext) => Promise<R>): Promise<R> {
      if (browser && !(await browser).isConnected()) browser = undefined;
      browser ??= launchChromium();
      const context = await (await browser).newContext({ acceptDownloads: true });
      try {
        return await fn(context);
      } finally {
        await context.close();
      }
    },
    async close(): Promise<void> {
      const launched = browser;
      browser = undefined;
      await (await launched?.catch(() => undefined))?.close();
    },
  };
}
