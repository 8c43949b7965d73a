import jsQR from 'jsqr';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { totpCode } from '../support/totp.js';
import { seriousViolations } from './support/axe.js';
import { describeInChromium, serverAndChromium, newVisitor, screenshot } from './support/pages-chromium.js';

/**
 * Passkeys in a real Chromium (issue 30 item 3) through the DevTools virtual authenticator: a
 * platform authenticator that keeps discoverable credentials and verifies its user, as a laptop's
 * fingerprint reader does. WebAuthn refuses IP addresses as relying-party ids, so the pages are
 * opened as http://localhost:<port> (a secure context, like https).
 */

interface VirtualCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId: string;
  privateKey: string;
  userHandle: string;
  signCount: number;
}

async function addAuthenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return authenticatorId;
}

async function credentialsOf(cdp: CDPSession, authenticatorId: string): Promise<VirtualCredential[]> {
  return (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials as VirtualCredential[];
}

/** What a phone's camera reads from the page's QR code: the svg drawn on a blank page, decoded by jsQR. */
async function scanQr(context: BrowserContext, svg: string): Promise<string | undefined> {
  const blank = await context.newPage();
  try {
    const pixels = await blank.evaluate(async (markup: string) => {
      const image = new Image();
      await new Promise<void>((resolve, reject) => {
        image.onload = () => resolve();
        image.onerror = () => reject(new Error('the svg does not load as an image'));
        image.src = URL.createObjectURL(new Blob([markup], { type: 'image/svg+xml' }));
      });
      const canvas = document.createElement('canvas');
      canvas.width = canvas.height = 512;
      const draw = canvas.getContext('2d')!;
      draw.fillStyle = '#ffffff';
      draw.fillRect(0, 0, 512, 512);
      draw.drawImage(image, 0, 0, 512, 512);
      const data = draw.getImageData(0, 0, 512, 512).data;
      let binary = '';
      for (let i = 0; i < data.length; i += 0x8000) binary += String.fromCharCode(...data.subarray(i, i + 0x8000));
      return btoa(binary);
    }, svg);
    return jsQR(new Uint8ClampedArray(Buffer.from(pixels, 'base64')), 512, 512)?.data;
  } finally {
    await blank.close();
  }
}

async function addPasskey(page: Page, origin: string, name: string) {
  await page.goto(`${origin}/users/security`);
  await page.fill('#passkey-name', name);
  await Promise.all([page.waitForURL(/done=passkey-added/), page.getByRole('button', { name: 'Add a passkey' }).click()]);
}

async function signOut(page: Page) {
  await Promise.all([page.waitForURL((url) => url.pathname === '/'), page.locator('header form[action="/users/sign_out"] button').click()]);
}

async function passkeySignIn(page: Page, origin: string) {
  await page.goto(`${origin}/users/sign_in`);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
}

describeInChromium('passkeys (Chromium, virtual authenticator)', () => {
  const env = serverAndChromium();
  // WebAuthn wants a secure context: localhost is one, 127.0.0.1 over http is not.
  const origin = () => env.server.url.replace('127.0.0.1', 'localhost');

  it('register several, rename, sign out, sign in with a passkey alone; a removed passkey no longer signs in', async () => {
    const { context, page, problems } = await newVisitor(env.browser, origin());
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const laptop = await addAuthenticator(cdp);

    await page.goto(`${origin()}/users/sign_up`);
    await page.fill('#email', 'passkeys@example.com');
    await page.fill('#password', 'a long password');
    await Promise.all([page.waitForURL(/\/dashboard/), page.click('button[type=submit]')]);

    // First passkey, on the "laptop": a discoverable credential for localhost, named.
    await addPasskey(page, origin(), 'Work laptop');
    expect(await page.locator('.notice').first().textContent()).toContain('Passkey added.');
    const [laptopKey] = await credentialsOf(cdp, laptop);
    expect(laptopKey).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });
    // The authenticator is told the account by its id (the user handle), not its email.
    const account = await env.server.server.store.getUserByEmail('passkeys@example.com');
    expect(Buffer.from(laptopKey!.userHandle, 'base64').toString()).toBe(account!.id);

    // A second one, on another authenticator (the "phone"), then renamed.
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: laptop });
    const phone = await addAuthenticator(cdp);
    await addPasskey(page, origin(), 'Phone');
    const rows = page.locator('#passkeys tbody tr');
    expect(await rows.count()).toBe(2);
    const phoneRow = rows.nth(1);
    await phoneRow.locator('input[name="name"]').fill('Old phone');
    await Promise.all([page.waitForURL(/done=passkey-renamed/), phoneRow.getByRole('button', { name: 'Rename' }).click()]);
    expect(await page.locator('#passkeys input[name="name"]').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['Work laptop', 'Old phone']);

    // Signed out, the password leads to the second step, which asks for a passkey (the note for
    // browsers without passkeys stays hidden here); the passkey finishes it.
    await signOut(page);
    await page.goto(`${origin()}/users/sign_in`);
    await page.fill('#email', 'passkeys@example.com');
    await page.fill('#password', 'a long password');
    await Promise.all([page.waitForURL(/\/users\/two_factor$/), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
    expect(await page.locator('[data-passkey-unavailable]').isVisible()).toBe(false);
    await Promise.all([page.waitForURL(/\/dashboard/), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
    // Signed out, the phone's passkey signs in alone: no password, no code.
    await signOut(page);
    await passkeySignIn(page, origin());
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await page.goto(`${origin()}/users/security`);
    expect(await page.locator('#passkeys tbody tr').nth(1).locator('td').nth(2).textContent()).not.toBe('Never');

    // The phone's passkey removed: it no longer signs in.
    await Promise.all([page.waitForURL(/done=passkey-removed/), page.locator('#passkeys tbody tr').nth(1).getByRole('button', { name: 'Remove' }).click()]);
    expect(await page.locator('#passkeys tbody tr').count()).toBe(1);
    await signOut(page);
    await passkeySignIn(page, origin());
    expect(new URL(page.url()).pathname).toBe('/users/sign_in');
    expect(await page.locator('.notice.error').textContent()).toContain('This passkey was not accepted.');
    expect(await context.cookies()).not.toContainEqual(expect.objectContaining({ name: 'sp_session' }));

    // The laptop's passkey (the same credential, back on an authenticator) still does.
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: phone });
    const laptopAgain = await addAuthenticator(cdp);
    await cdp.send('WebAuthn.addCredential', { authenticatorId: laptopAgain, credential: laptopKey! });
    await passkeySignIn(page, origin());
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    // Added and removed passkeys are in the log by account id; their names are not.
    const security = env.server.logs.filter((line) => line.includes('account security: passkey') && line.includes(account!.id));
    expect(security.filter((line) => line.includes('passkey added'))).toHaveLength(2);
    expect(security.filter((line) => line.includes('passkey removed'))).toHaveLength(1);
    expect(env.server.logs.some((line) => line.includes('Work laptop') || line.includes('Old phone'))).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an account with an authenticator app: the second step offers its passkey too, which needs no code (and axe finds nothing serious on these pages)', async () => {
    const { context, page, problems } = await newVisitor(env.browser, origin());
    const found: Record<string, string[]> = {};
    const axe = async (name: string) => {
      const violations = await seriousViolations(page);
      if (violations.length) found[name] = violations;
      await screenshot(page, `passkeys-${name.replace(/\W+/g, '-')}`);
    };
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await addAuthenticator(cdp);
    await page.goto(`${origin()}/users/sign_up`);
    await page.fill('#email', 'passkey-and-totp@example.com');
    await page.fill('#password', 'a long password');
    await Promise.all([page.waitForURL(/\/dashboard/), page.click('button[type=submit]')]);
    await addPasskey(page, origin(), 'Laptop');
    await axe('security (a passkey listed)');
    // The authenticator app set up on its page, with the code an app would show.
    await page.goto(`${origin()}/users/two_factor/setup`);
    expect(await page.locator('#qrcode').isVisible()).toBe(true);
    await axe('set-up');
    const key = (await page.locator('#totp-secret').textContent())!.replace(/\s/g, '');
    // The QR code carries the same key, as an otpauth:// URI an app understands; the code is made from what was scanned.
    const scanned = new URL((await scanQr(context, await page.locator('#qrcode').evaluate((svg) => svg.outerHTML)))!);
    expect(scanned.protocol).toBe('otpauth:');
    expect(scanned.host).toBe('totp');
    expect(decodeURIComponent(scanned.pathname)).toBe('/Secret Push:passkey-and-totp@example.com');
    expect(Object.fromEntries(scanned.searchParams)).toMatchObject({ secret: key, issuer: 'Secret Push', algorithm: 'SHA1', digits: '6', period: '30' });
    await page.fill('#code', totpCode(scanned.searchParams.get('secret')!));
    await Promise.all([page.waitForURL(/\/users\/two_factor\/setup$/), page.getByRole('button', { name: 'Turn on' }).click()]);
    expect((await page.locator('#recovery-codes').textContent())!.trim().split('\n')).toHaveLength(10);
    await axe('recovery codes');
    await signOut(page);
    // The password leads to the second step: a code field and the passkey; the passkey finishes it.
    await page.goto(`${origin()}/users/sign_in`);
    await axe('sign-in (with the passkey button)');
    await page.fill('#email', 'passkey-and-totp@example.com');
    await page.fill('#password', 'a long password');
    await Promise.all([page.waitForURL(/\/users\/two_factor$/), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
    expect(await page.locator('#code').isVisible()).toBe(true);
    await axe('second step');
    await Promise.all([page.waitForURL(/\/dashboard/), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
    await page.goto(`${origin()}/users/security`);
    await axe('security (app on)');
    expect(found).toEqual({});
    expect(problems).toEqual([]);
    await context.close();
  });
});
