import { expect, it } from 'vitest';
import { api, createPush } from '../support/http.js';
import { describeInChromium, serverAndChromium } from './support/pages-chromium.js';

/**
 * The create page's scripted local-time conversion (pages/browser/local-time.ts) in Chromium,
 * with the browser context's own time zone (Playwright's `timezoneId`): a sender far east of UTC
 * and one west of it type wall times for "not before" and a linked secret's "follows until";
 * the owner's JSON must hold the instants those wall times mean in the sender's zone. A script
 * that sent the typed time as UTC (the no-script reading) would be off by the zone's offset.
 */
const ZONES = ['Pacific/Auckland', 'America/Los_Angeles'] as const;
const DAY = 86_400_000;

/** The zone's offset from UTC at `at`, in minutes (east positive), as Intl knows it. */
function offsetMinutes(zone: string, at: number): number {
  const name = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')!.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** The instant a wall time (YYYY-MM-DDTHH:MM) means in `zone`; two steps settle a DST change between guess and answer. */
function instantOf(wall: string, zone: string): string {
  const asUtc = Date.parse(`${wall}:00Z`);
  let at = asUtc - offsetMinutes(zone, asUtc) * 60_000;
  at = asUtc - offsetMinutes(zone, at) * 60_000;
  return new Date(at).toISOString();
}

describeInChromium('create page local times in two time zones (Chromium)', () => {
  const env = serverAndChromium();

  for (const zone of ZONES) {
    it(`${zone}: not before and follows until reach the API as the instants of the typed wall times`, async () => {
      const context = await env.browser.newContext({ timezoneId: zone, locale: 'en-US' });
      try {
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('pageerror', (e) => problems.push(e.message));
        const email = `local-time-${zone.replace('/', '-').toLowerCase()}@example.com`;
        await page.goto(`${env.server.url}/users/sign_up`);
        await page.fill('#email', email);
        await page.fill('#password', 'a long password');
        await page.click('button[type=submit]');
        await page.waitForURL(/\/dashboard/);
        const { user } = await env.server.server.accounts.ensureUser(email);
        const { token } = await env.server.server.accounts.createApiToken(user, 'local-time');
        const first = await createPush(env.server, { payload: 'the first', name: 'First' }, token);

        // Wall times a few days ahead (UTC dates), at minutes no offset rounds to.
        const releaseWall = `${new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10)}T08:30`;
        const untilWall = `${new Date(Date.now() + 4 * DAY).toISOString().slice(0, 10)}T21:15`;

        await page.goto(`${env.server.url}/`);
        await expect.poll(async () => page.locator('[data-e2e-create-note]').isVisible()).toBe(true);
        expect(await page.locator('[data-time-zone]').first().textContent()).toBe(`Time zone: ${zone}`);
        await page.fill('#payload', `second in ${zone}`);
        await page.click('details.more-options summary');
        await page.fill('#release_at', releaseWall);
        await page.selectOption('#follows', first.url_token);
        await page.fill('#follows_until_at', untilWall);
        await page.click('#create-submit');
        await page.waitForSelector('[data-e2e-link-note]');
        const link = (await page.locator('#secret-link').textContent())!;
        const secondToken = new URL(link).pathname.split('/')[2]!;

        const active = await api.get(env.server, '/api/v2/pushes/active', { token });
        expect(active.status).toBe(200);
        const second = (active.body as Array<Record<string, unknown>>).find((p) => p.url_token === secondToken)!;
        expect(second).toMatchObject({ not_before: instantOf(releaseWall, zone), follows_until: instantOf(untilWall, zone) });
        expect(second.follows).toBeTruthy();
        // Not the no-script reading (the typed time as UTC): the zone is hours away from it.
        expect(second.not_before).not.toBe(new Date(`${releaseWall}:00Z`).toISOString());
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
