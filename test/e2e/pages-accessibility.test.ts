import { expect, it } from 'vitest';
import { describeInChromium, serverAndChromium, newVisitor, screenshot } from './support/pages-chromium.js';
import { createPush } from '../support/http.js';
import { seriousViolations } from './support/axe.js';

/**
 * axe-core (the accessibility engine of Lighthouse and Deque's tools) on the main page routes in
 * the real Chromium, in light and dark and on a phone: no serious or critical violation. The
 * script is handed to the page through DevTools (page.evaluate), which the pages' CSP
 * (script-src 'self') does not govern, so the pages are checked as served.
 */

const variants = [
  { name: 'light', scheme: 'light', phone: false },
  { name: 'dark', scheme: 'dark', phone: false },
  { name: 'phone', scheme: 'light', phone: true },
] as const;

describeInChromium('axe-core on every main page (light, dark, phone)', () => {
  const env = serverAndChromium();


  for (const variant of variants) {
    it(`no serious or critical violation (${variant.name})`, async () => {
      const { context, page } = await newVisitor(env.browser, env.server.url, { scheme: variant.scheme, phone: variant.phone });
      const found: Record<string, string[]> = {};
      const check = async (name: string) => {
        await page.waitForLoadState('load');
        const v = await seriousViolations(page);
        if (v.length) found[name] = v;
        await screenshot(page, `a11y-${name}-${variant.name}`);
      };
      try {
        await page.goto(`${env.server.url}/`);
        await check('create');
        await page.fill('#payload', 'checked by axe');
        await page.click('#create-submit');
        await page.locator('#secret-link').waitFor();
        await check('link-ready');

        const step = await createPush(env.server, { payload: 'axe', retrieval_step: true });
        await page.goto(step.html_url);
        await check('retrieval-step');
        await page.click('#reveal');
        await page.locator('#secret').waitFor();
        await check('secret');

        const locked = await createPush(env.server, { payload: 'axe', passphrase: 'open sesame' });
        await page.goto(locked.html_url);
        await check('passphrase');

        await page.goto(`${env.server.url}/p/doesnotexist12345`);
        await check('expired');
        await page.goto(`${env.server.url}/no/such/page`);
        await check('not-found');

        await page.goto(`${env.server.url}/users/sign_in`);
        await check('sign-in');
        await page.goto(`${env.server.url}/users/sign_up`);
        await check('sign-up');
        await page.fill('#email', `axe-${variant.name}@example.com`);
        await page.fill('#password', 'a long password');
        await page.click('button[type=submit]');
        await page.waitForURL((u) => !u.pathname.startsWith('/users/sign_up'));

        const user = (await env.server.server.store.getUserByEmail(`axe-${variant.name}@example.com`))!;
        const { token } = await env.server.server.accounts.createApiToken(user, 'axe');
        const created = await fetch(`${env.server.url}/api/v2/pushes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ push: { payload: 'owned', name: 'Database password', passphrase: 'x' } }),
        });
        const owned = (await created.json()) as { url_token: string };
        await page.goto(`${env.server.url}/dashboard`);
        await check('dashboard');
        await page.goto(`${env.server.url}/p/${owned.url_token}/preview`);
        await check('preview');
        await page.goto(`${env.server.url}/p/${owned.url_token}/expire`);
        await check('expire-confirm');
        await page.goto(`${env.server.url}/users/token`);
        await check('tokens');
        await page.goto(`${env.server.url}/users/requests`);
        await check('requests');
        await page.goto(`${env.server.url}/users/webhooks`);
        await check('webhooks');
        expect(found).toEqual({});
      } finally {
        await context.close();
      }
    });
  }
});
