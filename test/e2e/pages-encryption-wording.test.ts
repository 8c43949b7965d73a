import { renderSVG } from 'uqr';
import { expect, it } from 'vitest';
import { describeInChromium, serverAndChromium, newVisitor } from './support/pages-chromium.js';

/**
 * Issue 29 item 4 in Chromium: the create page says in one line how this push is encrypted — in
 * the browser for text and files (scripts on), on the server for URLs and QR codes — and never
 * both at once.
 */

describeInChromium('create page: one encryption line, the one that applies', () => {
  const env = serverAndChromium();

  const visible = async (page: import('playwright-core').Page) =>
    page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.muted')].filter((e) => e.offsetParent !== null).map((e) => e.textContent ?? ''));

  it('text: encrypted in the browser; URL or QR: on the server; never "encrypted on the server" beside "in your browser"', async () => {
    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    try {
      await page.goto(`${env.server.url}/`);
      let lines = (await visible(page)).join('\n');
      expect(lines).toContain('encrypted in your browser');
      expect(lines).not.toContain('encrypted on the server');
      await page.check('input[name="push[kind]"][value="url"]');
      lines = (await visible(page)).join('\n');
      expect(lines).toContain('URLs and QR codes are encrypted on the server');
      expect(lines).not.toContain('encrypted in your browser');
      await page.check('input[name="push[kind]"][value="text"]');
      expect((await visible(page)).join('\n')).toContain('encrypted in your browser');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('link ready (end to end): a QR code of the whole link, key included, drawn in the browser (issue 29 item 9)', async () => {
    const { context, page, problems } = await newVisitor(env.browser, env.server.url, { phone: true });
    try {
      await page.goto(`${env.server.url}/`);
      await page.fill('#payload', 'scan me');
      await page.click('#create-submit');
      const link = page.locator('#secret-link');
      await expect.poll(async () => (await link.textContent())?.includes('#')).toBe(true);
      const url = (await link.textContent())!;
      await page.click('details[data-e2e-qr] summary');
      const svg = page.locator('[data-e2e-qr-code] svg');
      await expect.poll(() => svg.isVisible()).toBe(true);
      expect(await svg.getAttribute('aria-label')).toBe('QR code of the secret link');
      // The modules are those of the whole link (the server's encoder, run here on the same text).
      const expected = /<path[^>]* d="([^"]+)"/.exec(renderSVG(url, { border: 2 }))![1];
      expect(await svg.locator('path').getAttribute('d')).toBe(expected);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('without scripts: the server line only', async () => {
    const context = await env.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${env.server.url}/`);
      const lines = (await visible(page)).join('\n');
      expect(lines).toContain('This secret is encrypted on the server, which holds its key');
      expect(lines).not.toContain('encrypted in your browser before');
    } finally {
      await context.close();
    }
  });
});
