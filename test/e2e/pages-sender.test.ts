import { expect, it } from 'vitest';
import { secret } from '../support/http.js';
import { describeInChromium, serverAndChromium, newVisitor } from './support/pages-chromium.js';

/**
 * A sender's way through the pages in a real Chromium (issue 29): sign up, make an end-to-end
 * push on the create page, find it on the dashboard badged and without its keyless link, and
 * expire it from there after the confirmation; the recipient's link then opens nothing.
 */

describeInChromium('the sender’s pages (Chromium)', () => {
  const env = serverAndChromium();

  it('an end-to-end push on the dashboard: badged, its keyless link never shown, expired with Expire now after a confirmation', async () => {
    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    await page.goto(`${env.server.url}/users/sign_up`);
    await page.fill('#email', 'sender-pages@example.com');
    await page.fill('#password', 'a long password');
    await page.click('button[type=submit]');
    // Signed up: the dashboard, with a welcome.
    await page.waitForURL(/\/dashboard/);

    const text = secret('from-the-dashboard');
    await page.goto(`${env.server.url}/`);
    await expect.poll(() => page.locator('[data-e2e-create-note]').isVisible()).toBe(true);
    await page.fill('#payload', text);
    await page.click('#create-submit');
    await page.waitForSelector('[data-e2e-link-note]');
    const link = (await page.locator('#secret-link').textContent())!;
    expect(link).toMatch(/#[A-Za-z0-9_-]{48}$/);
    const keyless = link.split('#')[0]!;

    await page.goto(`${env.server.url}/dashboard`);
    const card = page.locator('article.push-card').first();
    await expect.poll(() => card.locator('.badge.e2e').isVisible()).toBe(true);
    expect(await card.textContent()).not.toContain(keyless);
    expect(await page.content()).not.toContain(keyless);

    await card.getByRole('link', { name: 'Expire now' }).click();
    await page.waitForSelector('#expire-confirm');
    // Nothing happens before the confirmation.
    const token = new URL(link).pathname.split('/')[2]!;
    expect((await env.server.server.pushes.peek(token))!.expiredAt).toBeNull();
    await Promise.all([page.waitForURL(/\/dashboard/), page.click('#expire-confirm')]);
    expect(await page.locator('.notice').first().textContent()).toContain('The push has expired');
    expect((await env.server.server.pushes.peek(token))!.expiredAt).not.toBeNull();
    expect(problems).toEqual([]);
    await context.close();

    const recipient = await newVisitor(env.browser, env.server.url);
    await recipient.page.goto(link.replace('/r#', '#'));
    expect(await recipient.page.locator('main h1').textContent()).toBe('This secret link has expired');
    await recipient.context.close();
  });
});
