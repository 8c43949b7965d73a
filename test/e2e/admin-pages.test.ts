import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { createPush } from '../support/http.js';
import { describeInChromium, serverAndChromium, newVisitor, screenshot } from './support/pages-chromium.js';

/**
 * Issue 32 in a real Chromium: an administrator's way through /admin (lock an account, expire a
 * push, filter the audit, make an invite), and axe-core on the admin, create, recipient and
 * account pages of a branded instance in the light and the dark theme: no serious or critical
 * violation (the branded colour's contrast included). Screenshots in test-artifacts/.
 */

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    type V = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: V[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

describeInChromium('admin pages in Chromium, branded', () => {
  let dataDir: string | undefined;
  afterAll(() => dataDir && rmSync(dataDir, { recursive: true, force: true }));
  const env = serverAndChromium(() => {
    // The data dir with its logo file is made when the server starts, not while the file is collected.
    dataDir = mkdtempSync(join(tmpdir(), 'secret-push-admin-e2e-'));
    writeFileSync(join(dataDir, 'brand-logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="28" height="28"><circle cx="14" cy="14" r="12" fill="#7a1f5c"/></svg>');
    return {
      DATA_DIR: dataDir,
      ADMIN_EMAILS: 'admin-light@example.com,admin-dark@example.com',
      BRAND_NAME: 'Acme Vault',
      BRAND_PRIMARY_COLOR: '#7a1f5c',
      BRAND_PRIVACY_URL: 'https://acme.example/privacy',
      BRAND_TERMS_URL: 'https://acme.example/terms',
      BRAND_IMPRINT_URL: 'https://acme.example/imprint',
      SIGN_UP: 'open',
    };
  });

  async function signUp(page: Page, email: string) {
    await page.goto(`${env.server.url}/users/sign_up`);
    await page.fill('#email', email);
    await page.fill('#password', 'a long password for admins');
    await page.click('button[type=submit]');
    await page.waitForURL((u) => u.pathname === '/dashboard');
  }

  it('an administrator locks an account, expires a push, filters the audit and makes an invite', async () => {
    const { context, page } = await newVisitor(env.browser, env.server.url, { scheme: 'light' });
    try {
      const { user } = await env.server.server.accounts.ensureUser('worker@example.com');
      const { token } = await env.server.server.accounts.createApiToken(user);
      const push = await createPush(env.server, { payload: 'the worker’s secret', name: 'Prod DB' }, token);
      const storageId = env.server.server.pushes.storageId(push.url_token);
      await signUp(page, 'admin-light@example.com');
      await page.click('header.site a[href="/admin"]');
      await expect.poll(() => page.textContent('h1')).toBe('Administration');

      await page.click('nav.admin-tabs a[href="/admin/users"]');
      await page.fill('#user-search', 'worker');
      await page.click('form[role=search] button');
      const row = page.locator('tr[data-user="worker@example.com"]');
      await row.locator('button', { hasText: 'Lock' }).click();
      await expect.poll(() => row.textContent()).toMatch(/locked since/);
      expect((await fetch(`${env.server.url}/api/v2/pushes/active`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
      await screenshot(page, 'admin-users-locked');

      await page.click('nav.admin-tabs a[href="/admin/pushes"]');
      expect(await page.content()).not.toContain('Prod DB');
      await page.locator(`tr[data-push="${storageId}"] button`).click();
      await expect.poll(() => page.textContent('main')).toContain('The push was expired.');

      await page.click('nav.admin-tabs a[href="/admin/audit"]');
      await page.fill('#audit-push', storageId);
      await page.selectOption('#audit-event', 'expire');
      await page.click('form.audit-filter button[type=submit]');
      await expect.poll(() => page.locator('table.admin-audit tbody tr').count()).toBe(1);
      const download = page.waitForEvent('download');
      await page.click('a:has-text("Export as CSV")');
      const file = await (await download).path();
      const csv = readFileSync(file!, 'utf8').trim().split('\r\n');
      expect(csv).toHaveLength(2);
      expect(csv[1]).toContain(`,expire,${storageId},worker@example.com,`);

      await page.click('nav.admin-tabs a[href="/admin/invites"]');
      await page.fill('#invite-email', 'new.hire@example.com');
      await page.click('form[action="/admin/invites"] button[type=submit]');
      await expect.poll(() => page.inputValue('#invite-link').catch(() => page.textContent('#invite-link'))).toMatch(/\/users\/sign_up\?invite=/);

      await page.click('nav.admin-tabs a[href="/admin/log"]');
      const actions = await page.locator('table.admin-log tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
      expect(actions.slice(0, 4)).toEqual(['invite.create', 'audit.export', 'push.expire', 'user.lock']);
    } finally {
      await context.close();
    }
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`axe-core: no serious or critical violation on the admin, create, recipient and account pages (${scheme}, branded)`, async () => {
      const { context, page } = await newVisitor(env.browser, env.server.url, { scheme });
      const found: Record<string, string[]> = {};
      try {
        const step = await createPush(env.server, { payload: 'axe', retrieval_step: true });
        await page.goto(step.html_url);
        for (const [name, path] of [
          ['create', '/'],
          ['recipient', new URL(step.html_url).pathname],
        ] as const) {
          await page.goto(env.server.url + path);
          const v = await seriousViolations(page);
          if (v.length) found[name] = v;
          await screenshot(page, `branded-${name}-${scheme}`);
        }
        await signUp(page, `admin-${scheme}@example.com`);
        const other = (await env.server.server.accounts.ensureUser(`deletable-${scheme}@example.com`)).user;
        for (const path of ['/users/token', '/dashboard', '/admin', '/admin/users', '/admin/pushes', '/admin/audit', '/admin/log', '/admin/invites', '/admin/config', `/admin/users/delete?id=${other.id}`]) {
          await page.goto(env.server.url + path);
          await page.waitForLoadState('load');
          const v = await seriousViolations(page);
          if (v.length) found[path] = v;
          await screenshot(page, `branded${path.replace(/\?.*/, '').replace(/\//g, '-')}-${scheme}`);
        }
      } finally {
        await context.close();
      }
      expect(found).toEqual({});
      // Eleven pages, each loaded and checked by axe: most of a minute when the machine is loaded.
    }, 90_000);
  }
});
