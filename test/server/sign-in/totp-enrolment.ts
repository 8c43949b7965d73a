import { expect } from 'vitest';
import type { TestServer } from '../../support/server.js';
import { timeStep, totpCode } from '../../support/totp.js';
import { Browser, csrfFrom, textOf } from '../pages/browser.js';

export const PASSWORD = 'correct horse battery';

/** The key the setup page shows for typing (what the QR code carries too). */
export function secretOn(html: string): string {
  const secret = textOf(html, 'totp-secret');
  if (!secret) throw new Error(`no TOTP key on the page:\n${html.slice(0, 800)}`);
  return secret.replace(/\s/g, '');
}

export function recoveryCodesOn(html: string): string[] {
  return (textOf(html, 'recovery-codes') ?? '').split('\n').map((c) => c.trim()).filter(Boolean);
}

/** Signs up, sets up TOTP from the account pages; returns the browser (signed in), the key and the codes. */
export async function enrolled(server: TestServer, email: string) {
  const b = new Browser(server);
  await b.signUp(email, PASSWORD);
  const setup = await b.get('/users/two_factor/setup');
  expect(setup.status).toBe(200);
  const secret = secretOn(setup.text);
  const step = timeStep();
  const done = await b.post('/users/two_factor/setup', { csrf_token: csrfFrom(setup.text, '/users/two_factor/setup'), code: totpCode(secret, step) });
  expect(done.status).toBe(200);
  return { b, secret, step, codes: recoveryCodesOn(done.text) };
}

