import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createPush } from '../support/http.js';
import { createUserWithToken } from '../support/server.js';
import { describeInChromium, newVisitor, serverAndChromium } from './support/pages-chromium.js';

/**
 * Linked secrets in a real Chromium (issue 35 item 3): the recipient opens the second link first
 * and is told to open the first; after opening the first, the second opens in the same browser
 * session. Another browser context (another recipient's session) still waits, however the first
 * was opened elsewhere, until follows_until comes. The server runs in this process and only its
 * `Date` is faked, so that time comes without waiting.
 */
const HOUR = 3_600_000;
/** The console's note of the 425 status itself is no page problem. */
const realProblems = (problems: string[]) => problems.filter((p) => !/status of 425/.test(p));

describeInChromium('linked secrets in Chromium', () => {
  beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now: Date.now() }));
  afterAll(() => void vi.useRealTimers());
  const env = serverAndChromium();

  const open = async (page: import('playwright-core').Page, link: string) => {
    await page.goto(link);
    if (await page.locator('#reveal').count()) await Promise.all([page.waitForNavigation(), page.click('#reveal')]);
    return page;
  };

  it('out of order, then in order in one browser; another browser waits until follows_until', async () => {
    const { token } = await createUserWithToken(env.server, 'linked-chromium@example.com');
    const password = await createPush(env.server, { payload: 'the password', expire_after_views: 3 }, token);
    const until = new Date(Date.now() + 2 * HOUR).toISOString();
    const seed = await createPush(env.server, { payload: 'the TOTP seed', follows: password.url_token, follows_until: until, expire_after_views: 3 }, token);

    const a = await newVisitor(env.browser, env.server.url);
    await open(a.page, seed.html_url);
    expect(await a.page.locator('h1').textContent()).toBe('Open the first link first');
    expect(await a.page.locator('#secret').count()).toBe(0);

    await open(a.page, password.html_url);
    expect(await a.page.locator('#secret').textContent()).toBe('the password');
    await open(a.page, seed.html_url);
    expect(await a.page.locator('#secret').textContent()).toBe('the TOTP seed');
    expect(realProblems(a.problems)).toEqual([]);

    // Another recipient session: the first was opened, but not here.
    const b = await newVisitor(env.browser, env.server.url);
    await open(b.page, seed.html_url);
    expect(await b.page.locator('h1').textContent()).toBe('Open the first link first');
    expect(await b.page.locator('#secret').count()).toBe(0);

    // follows_until comes: it opens without the first.
    vi.setSystemTime(Date.parse(until) + 1000);
    await open(b.page, seed.html_url);
    expect(await b.page.locator('#secret').textContent()).toBe('the TOTP seed');
    expect(realProblems(b.problems)).toEqual([]);
    await a.context.close();
    await b.context.close();
  });
  it('made on the create page: the second push chosen to open after the first, then opened out of order and in order', async () => {
    const sender = await newVisitor(env.browser, env.server.url);
    const { page } = sender;
    await page.goto(`${env.server.url}/users/sign_up`);
    await page.fill('#email', 'linked-create-chromium@example.com');
    await page.fill('#password', 'a long password');
    await page.click('button[type=submit]');
    await page.waitForURL(/\/dashboard/);

    const make = async (payload: string, name: string, follows?: string) => {
      await page.goto(`${env.server.url}/`);
      // The script that encrypts end to end is ready.
      await expect.poll(async () => page.locator('[data-e2e-create-note]').isVisible()).toBe(true);
      await page.fill('#payload', payload);
      await page.click('details.more-options summary');
      await page.fill('#name', name);
      if (follows) await page.selectOption('#follows', { label: follows });
      await page.click('#create-submit');
      // The page's script encrypts end to end and completes the link with its key.
      await page.waitForSelector('[data-e2e-link-note]');
      return (await page.locator('#secret-link').textContent())!;
    };
    const first = await make('the password', 'Admin password');
    const firstToken = new URL(first).pathname.split('/')[2]!;
    await page.goto(`${env.server.url}/`);
    const option = (await page.locator('#follows option', { hasText: 'Admin password' }).textContent())!;
    expect(option).toContain(`…${firstToken.slice(-6)}`);
    const second = await make('the TOTP seed', 'TOTP seed', option);
    expect(await page.locator('.opens-after').textContent()).toContain('Opens after: Admin password');
    expect(realProblems(sender.problems)).toEqual([]);

    const reader = await newVisitor(env.browser, env.server.url);
    await reader.page.goto(second);
    expect(await reader.page.locator('h1').textContent()).toBe('Open the first link first');
    expect(await reader.page.locator('#secret').count()).toBe(0);
    await reader.page.goto(first);
    await reader.page.click('#reveal');
    await expect.poll(async () => reader.page.locator('#secret').textContent()).toBe('the password');
    await reader.page.goto(second);
    await reader.page.click('#reveal');
    await expect.poll(async () => reader.page.locator('#secret').textContent()).toBe('the TOTP seed');
    expect(realProblems(reader.problems)).toEqual([]);
    await sender.context.close();
    await reader.context.close();
  });
});
