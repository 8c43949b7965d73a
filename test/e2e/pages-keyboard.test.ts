import { expect, it } from 'vitest';
import { encodeLinkKey, newPushKey } from '../../shared/e2e/link-key.js';
import { encryptTextPayload } from '../../shared/e2e/push-content.js';
import { describeInChromium, serverAndChromium, newVisitor } from './support/pages-chromium.js';
import { createPush } from '../support/http.js';

/**
 * Issue 29 item 11 in Chromium, keyboard only: the skip link, Space on "Reveal the secret", focus
 * and an announcement after an end-to-end secret is decrypted, and the dashboard's heading levels.
 */

describeInChromium('keyboard and screen readers (Chromium)', () => {
  const env = serverAndChromium();


  it('the first Tab reaches a skip link that moves focus into the main content', async () => {
    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    try {
      // A page without an autofocused field (the sign-in page's would take the first Tab elsewhere).
      await page.goto(`${env.server.url}/catalogue`);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip-link');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('Space on "Reveal the secret" reveals it, as on a button', async () => {
    const created = await createPush(env.server, { payload: 'pressed with space', retrieval_step: true });
    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    try {
      await page.goto(created.html_url);
      expect(await page.getAttribute('#reveal', 'role')).toBe('button');
      await page.focus('#reveal');
      await page.keyboard.press('Space');
      await expect.poll(() => page.locator('#secret').textContent()).toBe('pressed with space');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('after an end-to-end secret is decrypted, focus is on it and it is announced', async () => {
    const key = newPushKey();
    const created = await createPush(env.server, { payload: await encryptTextPayload(key, 'decrypted here'), end_to_end: true, retrieval_step: true });
    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    try {
      await page.goto(`${created.html_url}#${await encodeLinkKey(key)}`);
      await expect.poll(() => page.locator('#reveal').isVisible()).toBe(true);
      await page.focus('#reveal');
      await page.keyboard.press('Space');
      await expect.poll(() => page.locator('#secret').textContent()).toBe('decrypted here');
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('secret');
      expect(await page.locator('#e2e-announce').getAttribute('role')).toBe('status');
      expect(await page.locator('#e2e-announce').textContent()).toBe('Decrypted: the secret is shown below.');
      // Issue 29 item 12: the Hide/Show toggle of the other secret page.
      const toggle = page.locator('button[data-toggle="secret"]');
      await toggle.click();
      expect(await page.locator('#secret').getAttribute('class')).toContain('concealed');
      expect(await toggle.textContent()).toBe('Show');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the dashboard’s headings go down one level at a time', async () => {
    const { context, page } = await newVisitor(env.browser, env.server.url);
    try {
      await page.goto(`${env.server.url}/users/sign_up`);
      await page.fill('#email', 'headings@example.com');
      await page.fill('#password', 'a long password');
      await page.click('button[type=submit]');
      await page.waitForURL(/\/(users\/token|dashboard)/);
      const user = (await env.server.server.store.getUserByEmail('headings@example.com'))!;
      const { token } = await env.server.server.accounts.createApiToken(user, 'test');
      await fetch(`${env.server.url}/api/v2/pushes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ push: { payload: 'x', name: 'A push' } }),
      });
      await page.goto(`${env.server.url}/dashboard`);
      const levels = await page.evaluate(() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1])));
      expect(levels[0]).toBe(1);
      expect(levels.length).toBeGreaterThan(1);
      for (let i = 1; i < levels.length; i++) expect(levels[i]! - levels[i - 1]!).toBeLessThanOrEqual(1);
    } finally {
      await context.close();
    }
  });
});
