import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { createPush } from '../support/http.js';
import { describeInChromium, newVisitor, screenshot, serverAndChromium } from './support/pages-chromium.js';

/**
 * The administration on a phone (375×812, the smallest common one): the header's navigation
 * shows "Administration" to an administrator and not to anyone else, and every admin page fits
 * the screen's width (tables scroll inside their own box, the page does not scroll sideways),
 * with its buttons reachable. Screenshots in test-artifacts/.
 */

const PHONE = { width: 375, height: 812 };
const ADMIN_PAGES = ['/admin', '/admin/users', '/admin/pushes', '/admin/audit', '/admin/log', '/admin/invites', '/admin/config'];

async function signUp(page: Page, origin: string, email: string) {
  await page.goto(`${origin}/users/sign_up`);
  await page.fill('#email', email);
  await page.fill('#password', 'a long password for phones');
  await page.click('button[type=submit]');
  await page.waitForURL((u) => u.pathname === '/dashboard');
}

/** How far the page reaches past the viewport's right edge, and the widest elements doing it. */
function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const past = [...document.querySelectorAll('body *')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        // Inside a scrolling box (a table's) is fine: that box scrolls, not the page.
        return r.right > width + 0.5 && !el.closest('.table-wrap');
      })
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).replace(/ /g, '.') : ''} right=${Math.round(el.getBoundingClientRect().right)}`);
    return { scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: width, past };
  });
}

describeInChromium('the administration on a 375×812 phone', () => {
  const env = serverAndChromium({ ADMIN_EMAILS: 'phone-admin@example.com,phone-admin-light@example.com,phone-admin-dark@example.com', SIGN_UP: 'open', BRAND_NAME: 'Acme Vault Enterprise Secrets' });

  it('the header shows Administration to an administrator, not to others', async () => {
    const other = await newVisitor(env.browser, env.server.url, { phone: true, viewport: PHONE });
    try {
      await signUp(other.page, env.server.url, 'phone-user@example.com');
      expect(await other.page.locator('header.site a[href="/admin"]').count()).toBe(0);
    } finally {
      await other.context.close();
    }
    const { context, page, problems } = await newVisitor(env.browser, env.server.url, { phone: true, viewport: PHONE });
    try {
      await signUp(page, env.server.url, 'phone-admin@example.com');
      const link = page.locator('header.site a[href="/admin"]');
      expect(await link.isVisible()).toBe(true);
      const box = (await link.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      await screenshot(page, 'admin-phone-dashboard');
      await link.tap();
      await page.waitForURL((u) => u.pathname === '/admin');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`every admin page fits the width, its tables scroll in their own box (${scheme})`, async () => {
      const { user } = await env.server.server.accounts.ensureUser(`owner-with-a-rather-long-address-${scheme}@subdomain.example.com`);
      const { token } = await env.server.server.accounts.createApiToken(user);
      await createPush(env.server, { payload: 'phone check' }, token);
      const { context, page, problems } = await newVisitor(env.browser, env.server.url, { phone: true, viewport: PHONE, scheme });
      const found: Record<string, unknown> = {};
      try {
        await signUp(page, env.server.url, `phone-admin-${scheme}@example.com`);
        for (const path of ADMIN_PAGES) {
          await page.goto(env.server.url + path);
          const o = await overflow(page);
          if (o.scrollWidth > o.innerWidth) found[path] = o;
          // The section tabs and the first button are on the screen, where a thumb reaches them; a
          // button in a table's last column once the table's own box is scrolled to it.
          for (const selector of ['nav.admin-tabs a[aria-current="page"]', 'main button']) {
            const el = page.locator(selector).first();
            if ((await el.count()) === 0) continue;
            await el.scrollIntoViewIfNeeded();
            const box = await el.boundingBox();
            if (!box || box.x < 0 || box.x + box.width > PHONE.width) found[`${path} ${selector}`] = box;
          }
          if (path === '/admin/pushes') {
            // Usable, not only visible: the row's Expire button, scrolled to inside its table, works by touch.
            await page.locator('tr[data-push] button').first().tap();
            await page.waitForURL((u) => u.search === '?expired=1');
            if ((await overflow(page)).scrollWidth > PHONE.width) found['/admin/pushes?expired=1'] = await overflow(page);
          }
          await screenshot(page, `admin-phone${path.replace(/\//g, '-')}-${scheme}`);
        }
      } finally {
        await context.close();
      }
      expect(found, JSON.stringify(found, null, 1)).toEqual({});
      expect(problems).toEqual([]);
    }, 90_000);
  }
});
