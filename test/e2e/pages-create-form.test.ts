import { expect, it } from 'vitest';
import { describeInChromium, serverAndChromium, newVisitor, screenshot } from './support/pages-chromium.js';

/**
 * Issue 29 item 6 in Chromium: the burn-on-guessing field is offered only once there is a
 * passphrase to guess, and on a phone the Create button is reachable without scrolling.
 */

describeInChromium('create form: the burn field and the phone layout', () => {
  const env = serverAndChromium();

  it('the "destroy after N wrong passphrases" field is hidden and disabled until a passphrase is typed', async () => {
    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    try {
      await page.goto(`${env.server.url}/`);
      await page.click('details.more-options summary');
      const burn = page.locator('#max_failed_passphrase_attempts');
      expect(await burn.isVisible()).toBe(false);
      expect(await burn.isDisabled()).toBe(true);
      await page.fill('#passphrase', 'correct horse');
      await expect.poll(() => burn.isVisible()).toBe(true);
      expect(await burn.isDisabled()).toBe(false);
      await page.fill('#passphrase', '');
      await expect.poll(() => burn.isVisible()).toBe(false);
      expect(await burn.isDisabled()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('without scripts the field stays visible and enabled', async () => {
    const context = await env.browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(`${env.server.url}/`);
      await page.click('details.more-options summary');
      const burn = page.locator('#max_failed_passphrase_attempts');
      expect(await burn.isVisible()).toBe(true);
      expect(await burn.isDisabled()).toBe(false);
    } finally {
      await context.close();
    }
  });

  it.each(['en-US', 'de-DE', 'fr-FR', 'es-ES', 'pt-BR', 'ja-JP', 'zh-CN'])('on a 390×844 phone the Create button is above the fold (%s)', async (locale) => {
    const { context, page, problems } = await newVisitor(env.browser, env.server.url, { phone: true, locale });
    try {
      await page.goto(`${env.server.url}/`);
      await screenshot(page, `create-form-phone-${locale}`);
      const box = await page.locator('#create-submit').boundingBox();
      expect(box).not.toBeNull();
      expect(box!.y + box!.height).toBeLessThanOrEqual(844);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it.each(['en-US', 'de-DE'])('signed in, on a 390×844 phone the Create button is above the fold too (%s)', async (locale) => {
    const { context, page, problems } = await newVisitor(env.browser, env.server.url, { phone: true, locale });
    try {
      await page.goto(`${env.server.url}/users/sign_up`);
      await page.fill('#email', `phone-${locale}-${Math.random().toString(36).slice(2)}@example.com`);
      await page.fill('#password', 'a long password');
      await page.click('button[type=submit]');
      await page.waitForURL(/\/dashboard/);
      await page.goto(`${env.server.url}/`);
      await screenshot(page, `create-form-phone-signed-in-${locale}`);
      const box = await page.locator('#create-submit').boundingBox();
      expect(box).not.toBeNull();
      expect(box!.y + box!.height).toBeLessThanOrEqual(844);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
