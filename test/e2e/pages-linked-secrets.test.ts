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
});
