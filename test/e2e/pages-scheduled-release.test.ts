import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createPush } from '../support/http.js';
import { describeInChromium, serverAndChromium, newVisitor } from './support/pages-chromium.js';

/**
 * Scheduled release in a real Chromium (issue 35), in two time zones set through CDP
 * (Emulation.setTimezoneOverride): the create page turns the sender's local time into the right
 * moment, and the recipient page says when the push opens in the reader's own time zone, counts
 * no view, and shows the secret once it is open. The server runs in this process and only its
 * `Date` is faked, so the release comes without waiting.
 */

const ZONES = ['Europe/Berlin', 'America/New_York'] as const;
const HOUR = 3_600_000;

/** The zone's offset from UTC at `at`, in minutes (east positive), as Intl knows it. */
function offsetMinutes(zone: string, at: Date): number {
  const name = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')!.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** How local-time.js writes a moment for an English reader in `zone`. */
const longLocal = (zone: string, iso: string) =>
  new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short', timeZone: zone }).format(new Date(iso));

async function visitorIn(browser: Browser, origin: string, zone: string) {
  const visitor = await newVisitor(browser, origin);
  const cdp = await visitor.context.newCDPSession(visitor.page);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: zone });
  return visitor;
}

/** Page problems other than the console's note of the 425 status itself. */
const realProblems = (problems: string[]) => problems.filter((p) => !/status of 425/.test(p));

describeInChromium('scheduled release in Chromium, two time zones', () => {
  // Registered before the server's hooks: the fake clock is on before it starts and off after it stops.
  beforeAll(() => void vi.useFakeTimers({ toFake: ['Date'], now: Date.now() }));
  afterAll(() => void vi.useRealTimers());
  const env = serverAndChromium();

  const storedNotBefore = async (link: string) => {
    const token = new URL(link).pathname.split('/')[2]!;
    return (await env.server.server.store.getPush(env.server.server.pushes.storageId(token)))!;
  };

  for (const zone of ZONES) {
    it(`${zone}: the create page's local 08:00 becomes the right moment, and the recipient page shows 08:00 local before the release`, async () => {
      const { page, problems } = await visitorIn(env.browser, env.server.url, zone);
      // Two days ahead (UTC date), 08:00 on the sender's clock.
      const day = new Date(Date.now() + 2 * 24 * HOUR).toISOString().slice(0, 10);
      const expected = new Date(Date.parse(`${day}T08:00:00Z`) - offsetMinutes(zone, new Date(`${day}T08:00:00Z`)) * 60_000).toISOString();

      await page.goto(`${env.server.url}/`);
      expect(await page.locator('[data-time-zone]').textContent()).toBe(`Time zone: ${zone}`);
      await page.fill('#payload', `release in ${zone}`);
      await page.locator('details.more-options summary').click();
      await page.fill('#release_at', `${day}T08:00`);
      await page.click('#create-submit');
      await page.waitForSelector('#secret-link');
      const link = (await page.locator('#secret-link').textContent())!;
      const stored = await storedNotBefore(link);
      expect(stored.notBefore).toBe(expected);

      await page.goto(link);
      expect(await page.locator('h1').textContent()).toBe('This secret is not open yet');
      const shown = await page.locator('#opens-at').textContent();
      expect(shown).toBe(longLocal(zone, expected));
      expect(shown).toContain('08:00');
      expect((await storedNotBefore(link)).views).toBe(0);
      expect(realProblems(problems)).toEqual([]);
    });
  }

  it('the same push read in the two zones: each reader sees the moment in their own time; after the release the secret opens', async () => {
    const opens = new Date(Date.now() + 3 * HOUR);
    opens.setUTCMinutes(0, 0, 0);
    const p = await createPush(env.server, { payload: 'opens for both', expire_after_views: 2, not_before: opens.toISOString() });
    const shown: string[] = [];
    for (const zone of ZONES) {
      const { page, problems } = await visitorIn(env.browser, env.server.url, zone);
      await page.goto(p.html_url);
      const text = (await page.locator('#opens-at').textContent())!;
      expect(text).toBe(longLocal(zone, opens.toISOString()));
      shown.push(text);
      expect(realProblems(problems)).toEqual([]);
    }
    expect(shown[0]).not.toBe(shown[1]);

    vi.setSystemTime(opens.getTime() + 1000);
    const { page, problems } = await visitorIn(env.browser, env.server.url, ZONES[1]);
    await page.goto(p.html_url);
    // The retrieval step (on by default) first, then the secret.
    if (await page.locator('#reveal').count()) await page.click('#reveal');
    await expect.poll(() => page.content()).toContain('opens for both');
    expect((await env.server.server.store.getPush(env.server.server.pushes.storageId(p.url_token)))!.views).toBe(1);
    expect(problems).toEqual([]);
  });
});
