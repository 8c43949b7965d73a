import { expect, it } from 'vitest';
import { describeInChromium, serverAndChromium, newVisitor, screenshot, type Scheme } from './support/pages-chromium.js';
import { createPush } from '../support/http.js';

/**
 * The recipient and create pages in a real headless Chromium (Debian's /usr/bin/chromium via
 * playwright-core) against a real server: retrieval step → reveal → copy, hide → delete; a
 * passphrase push; a QR push; HTML/script payloads shown as text; screenshots in light and dark,
 * desktop and phone, kept in test-artifacts/.
 */

const HOSTILE = `<script>alert("xss")</script><img src=x onerror="alert('img')"><b>bold?</b> & "quotes"`;

describeInChromium('recipient and create pages in Chromium (end to end)', () => {
  const env = serverAndChromium();

  for (const scheme of ['light', 'dark'] as Scheme[]) {
    it(`retrieval step → reveal → copy, hide/show → delete now (${scheme})`, async () => {
      const created = await createPush(env.server, { payload: HOSTILE, retrieval_step: true, deletable_by_viewer: true, expire_after_views: 3 });
      expect(created.html_url).toMatch(/\/r$/);
      const { context, page, problems } = await newVisitor(env.browser, env.server.url, { scheme });
      try {
        await page.goto(created.html_url);
        await expect.poll(() => page.locator('h1').textContent()).toBe('Someone sent you a secret');
        expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
        await screenshot(page, `pages-1-retrieval-step-${scheme}`);
        expect((await env.server.server.pushes.peek(created.url_token))!.views).toBe(0);

        await page.click('#reveal');
        await page.waitForURL(`${env.server.url}/p/${created.url_token}`);
        const secret = page.locator('#secret');
        // Shown as text: the exact characters, and no element or script was created from them.
        expect(await secret.textContent()).toBe(HOSTILE);
        expect(await secret.locator('*').count()).toBe(0);
        expect(await page.locator('main script, main img[src="x"], main b').count()).toBe(0);
        expect((await env.server.server.pushes.peek(created.url_token))!.views).toBe(1);
        await expect.poll(() => page.locator('text=2 more views').count()).toBe(1);

        const copy = page.locator('button[data-copy="secret"]');
        await expect.poll(() => copy.isVisible()).toBe(true);
        await copy.click();
        await expect.poll(() => page.locator('[data-copy-status]').textContent()).toBe('Copied.');
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(HOSTILE);

        await screenshot(page, `pages-2-secret-${scheme}`);
        const toggle = page.locator('button[data-toggle="secret"]');
        await toggle.click();
        expect(await secret.getAttribute('class')).toContain('concealed');
        expect(await toggle.textContent()).toBe('Show');
        await screenshot(page, `pages-3-secret-hidden-${scheme}`);
        await toggle.click();
        expect(await secret.getAttribute('class')).not.toContain('concealed');

        await page.click('#delete-now');
        await expect.poll(() => page.locator('h1').textContent()).toBe('The secret has been deleted');
        await screenshot(page, `pages-4-deleted-${scheme}`);
        expect(problems).toEqual([]);
        // The expired page answers 404 (the same as an unknown link): the only "problem" allowed.
        const expired = await page.goto(created.html_url);
        expect(expired!.status()).toBe(404);
        await expect.poll(() => page.locator('h1').textContent()).toBe('This secret link has expired');
        await screenshot(page, `pages-5-expired-${scheme}`);
        expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('passphrase: a wrong one shows an error on the form, the right one shows the secret', async () => {
    const created = await createPush(env.server, { payload: 'the vault code is 1234', passphrase: 'blue whale', retrieval_step: false });
    const { context, page, problems } = await newVisitor(env.browser, env.server.url, { scheme: 'dark' });
    try {
      await page.goto(created.html_url);
      await page.fill('#passphrase', 'red herring');
      await page.click('button[type=submit]');
      await expect.poll(() => page.locator('.notice.error').textContent()).toBe('That passphrase is incorrect.');
      expect(await page.locator('#secret').count()).toBe(0);
      await screenshot(page, 'pages-6-passphrase-wrong-dark');
      await page.fill('#passphrase', 'blue whale');
      await page.click('button[type=submit]');
      await expect.poll(() => page.locator('#secret').textContent()).toBe('the vault code is 1234');
      await screenshot(page, 'pages-7-passphrase-right-dark');
      expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('QR push: the code is an image that renders, with its text (phone, light)', async () => {
    const created = await createPush(env.server, { kind: 'qr', payload: 'WIFI:S:Guest <net>;T:WPA;P:s3cret&more;;', retrieval_step: false });
    const { context, page, problems } = await newVisitor(env.browser, env.server.url, { phone: true });
    try {
      await page.goto(created.html_url);
      const img = page.locator('#qr-image');
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
      expect(await page.locator('#secret').textContent()).toBe('WIFI:S:Guest <net>;T:WPA;P:s3cret&more;;');
      // Readable on a phone: nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, 'pages-8-qr-phone-light');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const scheme of ['light', 'dark'] as Scheme[]) {
    it(`create page: make a text push, copy its link, open it (${scheme}, phone)`, async () => {
      const { context, page, problems } = await newVisitor(env.browser, env.server.url, { scheme, phone: true });
      try {
        await page.goto(`${env.server.url}/`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await page.fill('#payload', HOSTILE);
        await page.fill('#expire_after_views', '2');
        await page.check('input[name="push[kind]"][value="url"]');
        expect(await page.locator('[data-kind-label="url"]').isVisible()).toBe(true);
        await page.check('input[name="push[kind]"][value="text"]');
        await screenshot(page, `pages-9-create-${scheme}-phone`);
        await page.click('#create-submit');
        const link = page.locator('#secret-link');
        await expect.poll(() => link.count()).toBe(1);
        const url = (await link.textContent())!;
        // With scripts on, the page encrypts end to end: the key follows `#` in the link.
        expect(url).toMatch(new RegExp(`^${env.server.url}/p/[a-z0-9_-]+/r#[A-Za-z0-9_-]{48}$`));
        await page.click('button[data-copy="secret-link"]');
        await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(url);
        await screenshot(page, `pages-10-created-${scheme}-phone`);

        await page.goto(url);
        await page.click('#reveal');
        // Decrypted in the browser and shown as text: no element made from it.
        await expect.poll(() => page.locator('#secret').textContent()).toBe(HOSTILE);
        expect(await page.locator('#secret *').count()).toBe(0);
        await expect.poll(() => page.locator('text=1 more view').count()).toBe(1);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('create page: validation errors appear next to the field', async () => {
    const { context, page } = await newVisitor(env.browser, env.server.url);
    try {
      await page.goto(`${env.server.url}/`);
      await page.check('input[name="push[kind]"][value="url"]');
      await page.fill('#payload', 'not a url');
      await page.click('#create-submit');
      await expect.poll(() => page.locator('#payload-error').textContent()).toBe('Secret must be an http or https URL');
      expect(await page.locator('#payload').inputValue()).toBe('not a url');
      expect(await page.locator('input[value="url"]').isChecked()).toBe(true);
      await screenshot(page, 'pages-11-create-error-light');
    } finally {
      await context.close();
    }
  });

  it('sign up, make an API token (shown once), see it on the dashboard (dark)', async () => {
    const { context, page, problems } = await newVisitor(env.browser, env.server.url, { scheme: 'dark' });
    try {
      await page.goto(`${env.server.url}/users/token`);
      await page.waitForURL(/\/users\/sign_in\?return_to=%2Fusers%2Ftoken$/);
      await page.click('text=Sign up');
      await page.fill('#email', 'e2e@example.com');
      await page.fill('#password', 'a long password');
      await page.click('button[type=submit]');
      await page.waitForURL(`${env.server.url}/users/token`);
      await page.fill('#label', 'E2E laptop');
      await page.click('#make-token');
      const token = (await page.locator('#api-token').textContent())!;
      expect(token).toMatch(/^sp_/);
      await screenshot(page, 'pages-12-token-made-dark');
      await page.click('text=Back to your tokens');
      expect(await page.locator('td', { hasText: 'E2E laptop' }).count()).toBe(1);
      expect(await page.content()).not.toContain(token);
      await screenshot(page, 'pages-13-tokens-dark');

      const res = await fetch(`${env.server.url}/api/v2/pushes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ push: { payload: 'owned', name: 'Database password' } }),
      });
      expect(res.status).toBe(201);
      await page.goto(`${env.server.url}/dashboard`);
      expect(await page.locator('h2', { hasText: 'Database password' }).count()).toBe(1);
      await page.click('summary');
      await screenshot(page, 'pages-14-dashboard-dark');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
