import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newPushKey } from '../../shared/e2e/link-key.js';
import { encryptTextPayload } from '../../shared/e2e/push-content.js';
import { createPush } from '../support/http.js';
import type { TestServer } from '../support/server.js';
import { listen } from './support/local-http.js';
import { describeInChromium, newVisitor, screenshot, serverAndChromium, type Scheme } from './support/pages-chromium.js';

/**
 * Issue 32 item 5's logo, loaded by a real Chromium under the pages' real CSP: BRAND_LOGO_URL on
 * another origin (a second HTTP server on 127.0.0.1, as an operator's CDN) and a logo file in the
 * data directory served by us. On every kind of page (create, sign-in, recipient with and
 * without end-to-end encryption, the account's dashboard and tokens, administration) the image
 * has loaded (naturalWidth > 0) and the page reported no problem (a CSP refusal is a console
 * error). Screenshots of each page in both themes in test-artifacts/.
 */

/** A 1×1 PNG: the CDN's logo. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="28" height="28"><rect x="2" y="2" width="24" height="24" rx="6" fill="#0b5a2a"/></svg>';
const ADMINS = ['logo-admin-light@example.com', 'logo-admin-dark@example.com'];

/** Every page kind's path, the recipient pages' from pushes made now; the account and admin ones need a signed-in administrator. */
async function pagePaths(server: TestServer): Promise<{ signedOut: string[]; signedIn: string[]; shotNames: Record<string, string> }> {
  const step = await createPush(server, { payload: 'logo check', retrieval_step: true });
  const e2e = await createPush(server, { payload: await encryptTextPayload(newPushKey(), 'logo check'), end_to_end: true });
  return {
    signedOut: ['/', '/users/sign_in', `/p/${step.url_token}`, `/p/${e2e.url_token}`],
    signedIn: ['/dashboard', '/users/token', '/admin', '/admin/users'],
    shotNames: { '/': 'create', [`/p/${step.url_token}`]: 'recipient', [`/p/${e2e.url_token}`]: 'recipient-e2e' },
  };
}

async function signUp(page: Page, server: TestServer, email: string) {
  await page.goto(`${server.url}/users/sign_up`);
  await page.fill('#email', email);
  await page.fill('#password', 'a long password for admins');
  await page.click('button[type=submit]');
  await page.waitForURL((u) => u.pathname === '/dashboard');
}

/** The header's logo once the browser is done with it: its source and its decoded width (0 when blocked or broken). */
async function loadedLogo(page: Page): Promise<{ src: string; width: number }> {
  await page.waitForFunction(() => document.querySelector<HTMLImageElement>('header.site img.brand-logo')?.complete === true);
  return page.$eval('header.site img.brand-logo', (img) => ({ src: (img as HTMLImageElement).currentSrc, width: (img as HTMLImageElement).naturalWidth }));
}

/** Opens each page in `scheme` and returns what went wrong: logos not loaded, page problems. */
async function checkEveryPage(env: { server: TestServer; browser: import('playwright-core').Browser }, scheme: Scheme, name: string, expectedSrc: string, allowedOrigin?: string) {
  const { signedOut, signedIn, shotNames } = await pagePaths(env.server);
  const { context, page, problems } = await newVisitor(env.browser, env.server.url, { scheme });
  const found: Record<string, string> = {};
  try {
    const check = async (path: string) => {
      await page.goto(env.server.url + path);
      const logo = await loadedLogo(page);
      if (logo.src !== expectedSrc || logo.width === 0) found[path] = `${logo.src} width ${logo.width}`;
      await screenshot(page, `logo-${name}-${shotNames[path] ?? path.slice(1).replace(/\//g, '-')}-${scheme}`);
    };
    for (const path of signedOut) await check(path);
    await signUp(page, env.server, `logo-admin-${scheme}@example.com`);
    for (const path of signedIn) await check(path);
  } finally {
    await context.close();
  }
  // The logo's own origin is the one other place the pages may load from.
  return { found, problems: problems.filter((p) => !(allowedOrigin && p === `third-party request: ${allowedOrigin}/brand/logo.png`)) };
}

describeInChromium('the brand logo in Chromium: BRAND_LOGO_URL on another origin', () => {
  let cdn: Awaited<ReturnType<typeof listen>> | undefined;
  let served = 0;
  beforeAll(async () => {
    cdn = await listen((req, res) => {
      if (req.url !== '/brand/logo.png') {
        res.writeHead(404).end();
        return;
      }
      served++;
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(PNG);
    });
  });
  afterAll(async () => cdn?.close());
  const env = serverAndChromium(() => ({ BRAND_LOGO_URL: `${cdn!.url}/brand/logo.png`, ADMIN_EMAILS: ADMINS.join(','), SIGN_UP: 'open' }));

  for (const scheme of ['light', 'dark'] as const) {
    it(`loads from the other origin on the create, sign-in, recipient, account and admin pages (${scheme})`, async () => {
      const before = served;
      const { found, problems } = await checkEveryPage(env, scheme, 'url', `${cdn!.url}/brand/logo.png`, cdn!.url);
      expect(found).toEqual({});
      expect(problems).toEqual([]);
      // Fetched from the CDN, not from a cache of another test (no-store).
      expect(served - before).toBeGreaterThanOrEqual(8);
    }, 90_000);
  }
});

describeInChromium('the brand logo in Chromium: a file in the data directory', () => {
  let dataDir: string | undefined;
  afterAll(() => dataDir && rmSync(dataDir, { recursive: true, force: true }));
  const env = serverAndChromium(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'secret-push-logo-e2e-'));
    writeFileSync(join(dataDir, 'brand-logo.svg'), SVG);
    return { DATA_DIR: dataDir, BRAND_NAME: 'Acme Vault', ADMIN_EMAILS: ADMINS.join(','), SIGN_UP: 'open' };
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`is served by us and loads on the create, sign-in, recipient, account and admin pages (${scheme})`, async () => {
      const { found, problems } = await checkEveryPage(env, scheme, 'file', `${env.server.url}/assets/brand-logo.svg`);
      expect(found).toEqual({});
      expect(problems).toEqual([]);
    }, 90_000);
  }
});
