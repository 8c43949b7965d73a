import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accentCss, MIN_CONTRAST } from '../../../server/branding/brand.js';
import { newPushKey } from '../../../shared/e2e/link-key.js';
import { encryptTextPayload } from '../../../shared/e2e/push-content.js';
import { contrastRatio } from '../../../server/branding/contrast.js';
import { api, createPush } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';

/** Issue 32 item 5: the operator's name, logo, colour, stylesheet and footer links on every page. */
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="28" height="28"><rect width="28" height="28" fill="#0b5"/></svg>';
let server: TestServer;
let dataDir: string;
let cssDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'secret-push-brand-'));
  cssDir = mkdtempSync(join(tmpdir(), 'secret-push-brand-css-'));
  writeFileSync(join(dataDir, 'brand-logo.svg'), LOGO);
  writeFileSync(join(cssDir, 'acme.css'), '.brand { letter-spacing: .02em; }\n');
  server = await startServer({
    DATA_DIR: dataDir,
    BRAND_NAME: 'Acme Vault',
    BRAND_PRIMARY_COLOR: '#0B5A2A',
    BRAND_CSS: join(cssDir, 'acme.css'),
    BRAND_PRIVACY_URL: 'https://acme.example/privacy',
    BRAND_IMPRINT_URL: 'https://acme.example/imprint',
  });
});
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(cssDir, { recursive: true, force: true });
});

describe('branding', () => {
  it('the create, sign-in and recipient pages carry the name in header and title, the logo, the stylesheet and the footer links', async () => {
    const push = await createPush(server, { payload: 'x', retrieval_step: true });
    for (const path of ['/', '/users/sign_in', `/p/${push.url_token}`, '/?lang=de']) {
      const html = await (await fetch(server.url + path)).text();
      expect(html, path).toMatch(/<title>[^<]+ · Acme Vault<\/title>/);
      expect(html, path).toContain('<img class="brand-logo" src="/assets/brand-logo.svg" alt height="28"/>Acme Vault</a>');
      expect(html, path).toContain('<link rel="stylesheet" href="/assets/brand.css"/>');
      expect(html, path).toContain('href="https://acme.example/privacy"');
      expect(html, path).toContain('href="https://acme.example/imprint"');
      expect(html, path).not.toContain('>Secret Push<');
    }
    expect(await (await fetch(server.url + '/?lang=de')).text()).toContain('>Impressum</a>');
  });

  it('the version document names the instance for a client to show after connecting (absent when unbranded)', async () => {
    expect((await api.get(server, '/api/v2/version')).body.secret_push_name).toBe('Acme Vault');
  });

  it('serves the stylesheet (colour for both themes, then BRAND_CSS) and the logo from our origin; the page CSP stays self-only', async () => {
    const css = await fetch(server.url + '/assets/brand.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    const text = await css.text();
    expect(text).toContain(':root { --accent: #0b5a2a; --accent-fg: #ffffff; }');
    expect(text).toMatch(/@media \(prefers-color-scheme: dark\) \{\n {2}:root \{ --accent: #[0-9a-f]{6}; --accent-fg: #0b0c10; \}/);
    expect(text).toContain('.brand { letter-spacing: .02em; }');
    const logo = await fetch(server.url + '/assets/brand-logo.svg');
    expect(logo.headers.get('content-type')).toBe('image/svg+xml');
    expect(logo.headers.get('content-security-policy')).toContain('sandbox');
    expect(await logo.text()).toBe(LOGO);
    const page = await fetch(server.url + '/');
    expect(page.headers.get('content-security-policy')).toMatch(/style-src 'self'/);
    expect(page.headers.get('content-security-policy')).toMatch(/img-src 'self' data:(;|$)/);
  });

  it('the primary colour is checked: too light refused at start with its ratio; the dark theme gets a lighter shade with 4.5:1', async () => {
    await expect(startServer({ BRAND_PRIMARY_COLOR: '#7fb3ff' })).rejects.toThrow(/BRAND_PRIMARY_COLOR: #7fb3ff has a contrast of 2\.\d\d:1 .* at least 4\.5:1/);
    await expect(startServer({ BRAND_PRIMARY_COLOR: 'green' })).rejects.toThrow(/BRAND_PRIMARY_COLOR: must be a colour as #rrggbb/);
    await expect(startServer({ BRAND_CSS: '/nonexistent/brand.css' })).rejects.toThrow(/BRAND_CSS: cannot read \/nonexistent\/brand.css \(ENOENT\)/);
    for (const colour of ['#0b5a2a', '#2456d6', '#b42318', '#000000', '#5b2a86']) {
      const css = accentCss(colour);
      const dark = /prefers-color-scheme: dark\) \{\n {2}:root \{ --accent: (#[0-9a-f]{6}); --accent-fg: (#[0-9a-f]{6})/.exec(css)!;
      expect(contrastRatio(dark[1]!, '#121317'), colour).toBeGreaterThanOrEqual(MIN_CONTRAST);
      expect(contrastRatio(dark[1]!, '#1c1e24'), colour).toBeGreaterThanOrEqual(MIN_CONTRAST);
      expect(contrastRatio(dark[1]!, dark[2]!), colour).toBeGreaterThanOrEqual(MIN_CONTRAST);
      const light = /^:root \{ --accent: (#[0-9a-f]{6}); --accent-fg: (#[0-9a-f]{6})/m.exec(css)!;
      expect(contrastRatio(light[1]!, light[2]!), colour).toBeGreaterThanOrEqual(MIN_CONTRAST);
    }
  });

  it('a logo on another host (BRAND_LOGO_URL) is allowed by the pages’ CSP for images only; unbranded pages are as before', async () => {
    const other = await startServer({ BRAND_LOGO_URL: 'https://cdn.acme.example/logo.png' });
    try {
      const page = await fetch(other.url + '/');
      expect(page.headers.get('content-security-policy')).toMatch(/img-src 'self' data: https:\/\/cdn\.acme\.example;/);
      expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
      const html = await page.text();
      expect(html).toContain('src="https://cdn.acme.example/logo.png"');
      expect(html).toContain('<title>Send a secret · Secret Push</title>');
      expect(html).not.toContain('/assets/brand.css');
      expect((await api.get(other, '/assets/brand.css')).status).toBe(404);
      expect((await api.get(other, '/api/v2/version')).body).not.toHaveProperty('secret_push_name');
      // A page with its own policy keeps it, with the logo's origin added: the end-to-end
      // recipient page's same-origin frames (its streamed download) are not lost to the logo.
      const e2e = await createPush(other, { payload: await encryptTextPayload(newPushKey(), 'x'), end_to_end: true });
      const e2ePolicy = (await fetch(`${other.url}/p/${e2e.url_token}`)).headers.get('content-security-policy');
      expect(e2ePolicy).toContain("frame-src 'self'");
      expect(e2ePolicy).toMatch(/img-src 'self' data: https:\/\/cdn\.acme\.example;/);
    } finally {
      await other.stop();
    }
  });

  it('an unusable BRAND_LOGO_URL stops the start with a message saying what is expected', async () => {
    const expected = /BRAND_LOGO_URL: must be the http:\/\/ or https:\/\/ address of an image, e\.g\. https:\/\/cdn\.example\.com\/logo\.svg \(for a file of ours, put brand-logo\.svg, \.png or \.webp in DATA_DIR instead\)/;
    for (const value of ['logo.png', '/srv/acme/logo.png', 'ftp://files.acme.example/logo.png', 'javascript:alert(1)', 'data:image/png;base64,AAAA']) {
      await expect(startServer({ BRAND_LOGO_URL: value }), value).rejects.toThrow(expected);
    }
    await expect(startServer({ BRAND_LOGO_URL: 'https://user:secret@cdn.acme.example/logo.png' })).rejects.toThrow(/BRAND_LOGO_URL: must not contain a user name or password/);
    await expect(startServer({ BASE_URL: 'https://push.acme.example', BRAND_LOGO_URL: 'http://cdn.acme.example/logo.png' })).rejects.toThrow(/BRAND_LOGO_URL: is http:\/\/ but BASE_URL is https:\/\/: browsers block or rewrite such an image as mixed content/);
  });
});
