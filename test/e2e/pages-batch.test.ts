import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import { describeInChromium, newVisitor, serverAndChromium } from './support/pages-chromium.js';

/**
 * One link per recipient in a real Chromium (issue 35 item 1): a signed-in sender uploads a CSV
 * file on the batch page, downloads the CSV of links, and two recipients, each in their own
 * browser context, open their own link: each sees their own secret, once.
 */
describeInChromium('one link per recipient in Chromium', () => {
  const env = serverAndChromium();

  it('upload a CSV file, download the CSV of links, two links opened in other contexts each open their own secret once', async () => {
    const { page, problems } = await newVisitor(env.browser, env.server.url);
    await page.goto(`${env.server.url}/users/sign_up`);
    await page.fill('#email', 'batch-chromium@example.com');
    await page.fill('#password', 'a long password');
    await page.click('button[type=submit]');
    await page.waitForURL(/\/dashboard/);

    await page.goto(`${env.server.url}/`);
    await page.click('#batch-mode');
    await page.waitForURL(/\/batch$/);
    const dir = mkdtempSync(join(tmpdir(), 'batch-e2e-'));
    const file = join(dir, 'people.csv');
    writeFileSync(file, 'name,email,secret\r\nAnn,ann@example.com,secret for Ann\r\nBob,bob@example.com,secret for Bob\r\nCid,,secret for Cid\r\n');
    await page.setInputFiles('#recipients_file', file);
    await page.fill('#expire_after_views', '1');
    await page.click('#batch-submit');
    await page.waitForSelector('#batch-download');
    expect(await page.locator('#batch-summary').textContent()).toBe('3 of 3 links created.');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#batch-download')]);
    const saved = join(dir, 'links.csv');
    await download.saveAs(saved);
    const rows: Record<string, string>[] = parse(readFileSync(saved, 'utf8'), { columns: true });
    expect(rows.map((r) => [r.name, r.status])).toEqual([['Ann', 'created'], ['Bob', 'created'], ['Cid', 'created']]);

    for (const [i, who] of [[0, 'Ann'], [1, 'Bob']] as const) {
      const recipient = await newVisitor(env.browser, env.server.url);
      await recipient.page.goto(rows[i]!.link!);
      // The retrieval step first (the server's default), then the secret.
      await recipient.page.click('#reveal');
      await expect.poll(() => recipient.page.locator('#secret').count()).toBe(1);
      expect(await recipient.page.locator('#secret').textContent()).toBe(`secret for ${who}`);
      // Once: opened again, it is gone.
      await recipient.page.goto(rows[i]!.link!);
      if (await recipient.page.locator('#reveal').count()) await Promise.all([recipient.page.waitForNavigation(), recipient.page.click('#reveal')]);
      expect(await recipient.page.locator('#secret').count()).toBe(0);
      expect(await recipient.page.locator('body').textContent()).not.toContain(`secret for ${who}`);
      expect(recipient.problems.filter((p) => !/status of 404|status of 410/.test(p))).toEqual([]);
      await recipient.context.close();
    }

    // The dashboard: one group, two of three opened.
    await page.goto(`${env.server.url}/dashboard`);
    expect(await page.locator('[data-batch-opened]').textContent()).toBe('2 of 3 opened');
    expect(problems).toEqual([]);
  });
});
