import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContextsOf, hasChromium, newVisitor, screenshot, sharedChromium } from '../../e2e/support/pages-chromium.js';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * QA: the module pages of /catalogue on a phone. A long help URL or code sample in the facts list
 * (a CSS grid whose `1fr` column could not shrink below its content) made the whole page wider
 * than the screen, so the right-hand columns and facts were cut off. Wide tables may scroll
 * inside their own box; the page itself must fit the screen.
 */
describe.skipIf(!hasChromium)('catalogue module pages on a phone (Chromium)', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await closeContextsOf(browser);
    await server?.stop();
  });

  for (const name of ['revisions', 'codexicons', 'allpages', 'recentchanges', 'deletedrevs']) {
    it(`/catalogue/${name} fits a 390 px screen; parameter names are not broken mid-word`, async () => {
      const { context, page, problems } = await newVisitor(browser, server.url, { phone: true, scheme: 'dark' });
      try {
        await page.goto(`${server.url}/catalogue/${name}`);
        await expect.poll(() => page.locator('h1').textContent()).toBe(`query+${name}`);
        const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: document.documentElement.clientWidth }));
        expect(widths.screen).toBe(390);
        expect(widths.page).toBeLessThanOrEqual(390);
        // Each parameter name stays on one line (the table scrolls sideways instead).
        const broken = await page.$$eval('.catalogue-table tbody td:nth-child(2) code', (codes) =>
          codes.filter((c) => c.getClientRects().length > 1).map((c) => c.textContent),
        );
        expect(broken).toEqual([]);
        await screenshot(page, `qa-catalogue-${name}-phone-dark`);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
