import jsQR from 'jsqr';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../../e2e/support/pages-chromium.js';
import { createUserWithToken, startServer, type TestServer } from '../../support/server.js';

/**
 * The official Password Pusher browser extension (apnotic/pwpush-chrome-extension 0.5.0, read
 * at commit 70c2471), replayed request by request against a real server: the same calls, in its
 * order, with its headers, and the checks it makes on the answers. From its source:
 *
 * - src/lib/api-client.js `requestJson`: every API call sends `Accept: application/json`,
 *   `Authorization: Bearer <token>` only when a token is set, `Content-Type: application/json`
 *   only with a body; an answer that is not OK reads `data.error` (or `data.message`) as the
 *   message; a 2xx answer must be JSON.
 * - src/lib/instance-detection.js `detectInstance` (Settings → "Test connection" / "Save"):
 *   `GET /api/v2/version` without a token; `edition` "oss" makes the instance OSS; then, at
 *   the same time, `GET /api/v2/accounts` and `GET /api/v2/requests` with the token. 2xx, 401
 *   and 403 mean "enabled", 404 "disabled".
 * - src/options/options.js: an OSS instance whose `application_version` is below 2.5.0 is
 *   refused ("minimum version"); only `https://` server addresses are accepted.
 * - src/lib/api-client.js `createPush` (popup "Push selected text" / "Push current URL"):
 *   `POST /api/v2/pushes` with `{"push": {payload, expire_after_views, retrieval_step,
 *   [passphrase], expire_after_days}}` (OSS: days, not a duration code); the share link is
 *   `html_url`, or, when that is missing, `url` from `GET /api/v2/pushes/<token>/preview`.
 * - src/popup/popup.js "Show QR": `GET /p/<url_token>/preview` with only `Accept: text/html`
 *   (no token), takes the best `<svg>…</svg>` of the page (src/popup/qr-utils.js prefers one
 *   whose id/class/label mentions "qr"), and draws it into a 512×512 canvas through an <img>
 *   made from a Blob of type image/svg+xml.
 *
 * The browser adds `Origin: chrome-extension://<id>` to the extension's fetches; it is sent here too.
 */
const ORIGIN = 'chrome-extension://kdkdnbfcbpgkolbgknmlbpmmnpakfcan';
/** Behind TLS, as the extension requires: the public origin the links must carry. */
const PUBLIC_URL = 'https://secrets.example.test';

let server: TestServer;
let apiToken: string;

beforeAll(async () => {
  server = await startServer({ BASE_URL: PUBLIC_URL });
  ({ token: apiToken } = await createUserWithToken(server, 'extension-user@example.com'));
});
afterAll(() => server.stop());

interface Answer {
  status: number;
  contentType: string;
  data: any;
  text: string;
}

/** The extension's `requestJson`: its headers, its body encoding, its JSON parsing. */
async function requestJson(pathname: string, options: { token?: string; method?: string; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json', Origin: ORIGIN };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body) headers['Content-Type'] = 'application/json';
  const res = await fetch(new URL(pathname, `${server.url}/`), {
    method: options.method ?? 'GET',
    headers,
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = null;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', data, text };
}

/** The extension's probe: what its settings page will show for a feature. */
function probeResult(status: number): 'enabled' | 'disabled' | 'unknown' {
  if ((status >= 200 && status < 300) || status === 401 || status === 403) return 'enabled';
  return status === 404 ? 'disabled' : 'unknown';
}

/** Dotted numeric comparison, as a client gating on Password Pusher's release would do it. */
function atLeast(version: string, minimum: string): boolean {
  const parts = (v: string) => v.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const [a, b] = [parts(version), parts(minimum)];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

/** The popup's "Show QR" fetch of the HTML preview page. */
async function fetchPreviewPage(urlToken: string) {
  const res = await fetch(`${server.url}/p/${encodeURIComponent(urlToken)}/preview`, { headers: { Accept: 'text/html', Origin: ORIGIN } });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', html: await res.text() };
}

const svgsOf = (html: string) => html.match(/<svg[\s\S]*?<\/svg>/gi) ?? [];

/** The popup's push body with its defaults (7 days, 5 views, no retrieval step). */
function pushBody(payload: string, options: { days?: number; views?: number; retrievalStep?: boolean; passphrase?: string } = {}) {
  return {
    push: {
      payload: payload.trim(),
      expire_after_views: options.views ?? 5,
      retrieval_step: options.retrievalStep ?? false,
      ...(options.passphrase ? { passphrase: options.passphrase } : {}),
      expire_after_days: options.days ?? 7,
    },
  };
}

describe('set-up: "Test connection" and "Save" in the extension settings', () => {
  it('the version answers without a token: edition oss, an application_version of 2.5.0 or later', async () => {
    const version = await requestJson('/api/v2/version');
    expect(version.status).toBe(200);
    expect(version.data).not.toBeNull();
    expect(version.data.edition).toBe('oss');
    expect(version.data.api_version).toBe('2.1');
    expect(atLeast(version.data.application_version, '2.5.0')).toBe(true);
    // Our own release stays visible beside it.
    expect(version.data.secret_push_version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('the accounts and requests probes (sent together, with the token) say "not offered": 404', async () => {
    const [accounts, requests] = await Promise.all([requestJson('/api/v2/accounts', { token: apiToken }), requestJson('/api/v2/requests', { token: apiToken })]);
    expect([accounts.status, requests.status]).toEqual([404, 404]);
    expect([probeResult(accounts.status), probeResult(requests.status)]).toEqual(['disabled', 'disabled']);
    // Without a token, or with one that finds no account, they still read "not offered"
    // (a 401 here would make the extension show accounts and requests as enabled).
    for (const token of [undefined, 'not-a-real-token']) {
      const again = await Promise.all([requestJson('/api/v2/accounts', { token }), requestJson('/api/v2/requests', { token })]);
      expect(again.map((a) => probeResult(a.status))).toEqual(['disabled', 'disabled']);
    }
  });
});

describe('pushing from the popup, then "Show QR"', () => {
  it('pushes the selection with its defaults; html_url is the https share link; the preview page carries the QR as an inline svg', async () => {
    const created = await requestJson('/api/v2/pushes', { token: apiToken, method: 'POST', body: pushBody('  correct horse battery staple  ') });
    expect(created.status).toBe(201);
    expect(created.contentType).toMatch(/^application\/json/);
    const { url_token: urlToken, html_url: shareUrl } = created.data;
    expect(urlToken).toMatch(/^[a-z0-9_-]{11,19}$/);
    expect(shareUrl).toBe(`${PUBLIC_URL}/p/${urlToken}`);
    expect(created.data).toMatchObject({ expire_after_days: 7, expire_after_views: 5, views_remaining: 5, retrieval_step: false, expired: false });

    const page = await fetchPreviewPage(urlToken);
    expect(page.status).toBe(200);
    expect(page.contentType).toMatch(/^text\/html/);
    expect(page.html).toContain(shareUrl);
    expect(page.html).not.toContain('correct horse battery staple');
    const svgs = svgsOf(page.html);
    expect(svgs).toHaveLength(1); // nothing else for the extension's picker to prefer
    expect(svgs[0]).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svgs[0]).toMatch(/^<svg [^>]*\bwidth="\d+" [^>]*height="\d+"/);
    expect(svgs[0]).toMatch(/(id|class|aria-label)="[^"]*qr[^"]*"/i);

    // "Show QR" neither revealed nor used up anything: the recipient still gets all five views.
    const retrieved = await requestJson(`/api/v2/pushes/${urlToken}`);
    expect(retrieved.data).toMatchObject({ payload: 'correct horse battery staple', views_remaining: 4 });
  });

  it('with a retrieval step and a passphrase, and no token (anonymous): the share link is the /r page; the preview page still answers', async () => {
    const created = await requestJson('/api/v2/pushes', { method: 'POST', body: pushBody('https://example.com/shared-page', { retrievalStep: true, passphrase: 'open sesame', days: 3, views: 2 }) });
    expect(created.status).toBe(201);
    expect(created.data.html_url).toBe(`${PUBLIC_URL}/p/${created.data.url_token}/r`);
    expect(created.data).toMatchObject({ expire_after_days: 3, expire_after_views: 2, passphrase: '[FILTERED]' });
    const page = await fetchPreviewPage(created.data.url_token);
    expect(page.status).toBe(200);
    expect(page.html).toContain(created.data.html_url);
    expect(page.html).not.toContain('open sesame');
    expect((await requestJson(`/api/v2/pushes/${created.data.url_token}`)).status).toBe(401); // still locked
  });

  it("the extension's fallback for a missing html_url, the JSON preview, gives the same share link", async () => {
    const created = await requestJson('/api/v2/pushes', { token: apiToken, method: 'POST', body: pushBody('fallback') });
    const preview = await requestJson(`/api/v2/pushes/${encodeURIComponent(created.data.url_token)}/preview`, { token: apiToken });
    expect(preview.status).toBe(200);
    expect(preview.data).toEqual({ url: created.data.html_url });
  });

  it('a token that finds no account: the push fails with a message the extension can show', async () => {
    const created = await requestJson('/api/v2/pushes', { token: 'revoked-or-mistyped', method: 'POST', body: pushBody('nope') });
    expect(created.status).toBe(401);
    expect(typeof created.data.error).toBe('string');
    expect(created.data.error.trim()).not.toBe('');
  });

  it('an unknown push: the preview page is 404, so "Show QR" says it could not load the code', async () => {
    const page = await fetchPreviewPage('nosuchpushtoken00');
    expect(page.status).toBe(404);
    expect(svgsOf(page.html)).toHaveLength(0);
  });
});

describe.skipIf(!hasChromium)('the QR code, drawn into a canvas the way the extension draws it (Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('renders from a Blob of image/svg+xml into 512×512 and reads back as the share link', async () => {
    const created = await requestJson('/api/v2/pushes', { token: apiToken, method: 'POST', body: pushBody('scan me') });
    const svg = svgsOf((await fetchPreviewPage(created.data.url_token)).html)[0]!;
    const page = await browser.newPage();
    try {
      // The popup's svgToPngDataUrl: white canvas, the svg drawn through an <img>.
      const pixels = await page.evaluate(async (markup: string) => {
        const blobUrl = URL.createObjectURL(new Blob([markup], { type: 'image/svg+xml' }));
        const image = new Image();
        await new Promise<void>((resolve, reject) => {
          image.onload = () => resolve();
          image.onerror = () => reject(new Error('the svg does not load as an image'));
          image.src = blobUrl;
        });
        const canvas = document.createElement('canvas');
        canvas.width = 512;
        canvas.height = 512;
        const context = canvas.getContext('2d')!;
        context.fillStyle = '#ffffff';
        context.fillRect(0, 0, 512, 512);
        context.drawImage(image, 0, 0, 512, 512);
        const data = context.getImageData(0, 0, 512, 512).data;
        let binary = '';
        for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
        return btoa(binary);
      }, svg);
      const decoded = jsQR(new Uint8ClampedArray(Buffer.from(pixels, 'base64')), 512, 512);
      expect(decoded?.data).toBe(created.data.html_url);
    } finally {
      await page.close();
    }
  });
});
