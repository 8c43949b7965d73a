import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { secret } from '../support/http.js';
import { SmtpReceiver, type ReceivedMail } from '../support/smtp-receiver.js';
import { seriousViolations } from './support/axe.js';
import { fileBytes } from './support/end-to-end-file-push.js';
import { describeInChromium, hasChromium, newVisitor, serverAndChromium } from './support/pages-chromium.js';

/**
 * Issue 31 in a real Chromium against a real server and a real SMTP server: the links in the
 * mails, followed in the browser, do what they say (confirm an account, reset a password, open a
 * push's audit page, open the secret), and the pages' "E-mail the link" (create page, result page,
 * owner page) sends them, an end-to-end push's key from the browser. The mails hold no secret or
 * passphrase where none may be.
 */

// The server's settings name the SMTP server, so it is up before the describe block's server.
const smtp = hasChromium ? await SmtpReceiver.start() : undefined;
afterAll(async () => {
  await smtp?.stop();
});

/** The first link in a mail's text part whose path starts with `path`. */
function linkIn(mail: ReceivedMail, path: string): string {
  const found = (mail.parsed.text ?? '').match(/https?:\/\/\S+/g)?.find((u) => new URL(u).pathname.startsWith(path));
  if (!found) throw new Error(`no ${path} link in: ${mail.parsed.text}`);
  return found;
}

/** Waiting for a page's condition: decrypting under a passphrase can take seconds on a loaded machine. */
const wait = { timeout: 20_000 };

/** Everything of a mail a reader or its mail server sees. */
const wholeMail = (m: ReceivedMail) => [m.raw, m.parsed.text ?? '', String(m.parsed.html), m.parsed.subject ?? ''].join('\n');

/** Opens a secret link as its recipient (the reveal step, or an end-to-end push's passphrase asked first) and waits for `expected` to be shown. */
async function openSecret(page: Page, link: string, expected: string, passphrase?: string) {
  if (passphrase) {
    await page.goto(link.replace('/r#', '#'));
    await page.waitForSelector('#e2e-passphrase:not([hidden])');
    await page.fill('#e2e-passphrase-input', passphrase);
    await page.click('#e2e-passphrase button[type=submit]');
  } else {
    await page.goto(link);
    await page.click('#reveal');
  }
  await expect.poll(async () => page.locator('#secret').textContent(), wait).toBe(expected);
}

async function signIn(page: Page, origin: string, email: string, password: string) {
  await page.goto(`${origin}/users/sign_in`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith('/users/sign_in')), page.click('form[action="/users/sign_in"] button[type=submit]')]);
}

describeInChromium('links in e-mails and e-mailing links (Chromium, real SMTP)', () => {
  const env = serverAndChromium(smtp ? { ...smtp.serverEnv(), REQUIRE_EMAIL_CONFIRMATION: 'true' } : {});
  let n = 0;
  const unique = (what: string) => `${what}-${process.pid}-${++n}@example.test`;

  /** An account (confirmed, with a password) signed in in a new browser context. */
  async function signedInSender() {
    const email = unique('sender');
    await env.server.server.accounts.ensureUser(email);
    await env.server.server.accounts.setPassword(email, 'sender horse battery staple');
    const visitor = await newVisitor(env.browser, env.server.url);
    await signIn(visitor.page, env.server.url, email, 'sender horse battery staple');
    return { ...visitor, email };
  }

  it('confirm the account: sign-up, the mail\'s link followed, then signed in', async () => {
    const email = unique('signup');
    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    await page.goto(`${env.server.url}/users/sign_up`);
    await page.fill('#email', email);
    await page.fill('#password', 'signup horse battery staple');
    await page.click('form[action="/users/sign_up"] button[type=submit]');
    await expect.poll(async () => page.locator('main').textContent(), wait).toContain(`We sent an e-mail to ${email}`);
    const mail = await smtp!.mailTo(email);
    expect(mail.parsed.subject).toMatch(/Confirm your e-mail address/);
    expect(wholeMail(mail)).not.toContain('signup horse battery staple');
    await page.goto(linkIn(mail, '/users/confirm/'));
    expect(await page.locator('main').textContent()).toContain(`Thank you: ${email} is confirmed.`);
    await page.click(`main a[href="/users/sign_in"]`);
    await page.fill('#email', email);
    await page.fill('#password', 'signup horse battery staple');
    await Promise.all([page.waitForURL(/\/dashboard/), page.click('form[action="/users/sign_in"] button[type=submit]')]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('password reset: forgot, the mail\'s link, a new password; the session signed in before is ended', async () => {
    const email = unique('reset');
    await env.server.server.accounts.ensureUser(email);
    await env.server.server.accounts.setPassword(email, 'old horse battery staple');
    const before = await newVisitor(env.browser, env.server.url);
    await signIn(before.page, env.server.url, email, 'old horse battery staple');
    await before.page.goto(`${env.server.url}/dashboard`);
    expect(new URL(before.page.url()).pathname).toBe('/dashboard');

    const { context, page, problems } = await newVisitor(env.browser, env.server.url);
    await page.goto(`${env.server.url}/users/sign_in`);
    await page.click('a[href="/users/password/forgot"]');
    await page.fill('#email', email);
    await page.click('form[action="/users/password/forgot"] button[type=submit]');
    await expect.poll(async () => page.locator('main').textContent(), wait).toContain(`An e-mail is on its way to ${email}`);
    const mail = await smtp!.mailTo(email);
    expect(wholeMail(mail)).not.toContain('old horse battery staple');
    await page.goto(linkIn(mail, '/users/password/reset/'));
    await page.fill('#password', 'new horse battery staple');
    await Promise.all([page.waitForURL(/\/users\/sign_in\?reset=1/), page.click('main form button[type=submit]')]);
    await signIn(page, env.server.url, email, 'new horse battery staple');
    await page.goto(`${env.server.url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    // The browser signed in with the old password is signed out.
    await before.page.goto(`${env.server.url}/dashboard`);
    expect(new URL(before.page.url()).pathname).toBe('/users/sign_in');
    expect(problems).toEqual([]);
    // The link works once (its page is now a 404).
    await page.goto(linkIn(mail, '/users/password/reset/'));
    expect(await page.locator('#password').count()).toBe(0);
    await context.close();
    await before.context.close();
  });

  it('receipt: "e-mail me when it is first opened" asked on the create page; the recipient opens it; the mail names the label only and its link opens the audit page for the owner', async () => {
    const sender = await signedInSender();
    const { page } = sender;
    const text = secret('receipt-secret');
    const passphrase = 'receipt passphrase 9f2c';
    await page.goto(`${env.server.url}/`);
    await expect.poll(async () => page.locator('[data-e2e-create-note]').isVisible(), wait).toBe(true);
    await page.fill('#payload', text);
    await page.fill('#passphrase', passphrase);
    await page.click('details.more-options summary');
    await page.check('input[name="push[email_on_open]"]');
    await page.fill('#name', 'Receipt label');
    await page.click('#create-submit');
    await page.waitForSelector('[data-e2e-link-note]');
    const link = (await page.locator('#secret-link').textContent())!;
    const token = new URL(link).pathname.split('/')[2]!;

    const recipient = await newVisitor(env.browser, env.server.url);
    await openSecret(recipient.page, link, text, passphrase);
    await recipient.context.close();

    const mail = await smtp!.mailTo(sender.email);
    expect(mail.parsed.subject).toContain('Receipt label');
    for (const never of [text, passphrase, token, link.split('#')[1]!]) expect(wholeMail(mail)).not.toContain(never);
    await page.goto(linkIn(mail, '/dashboard/push/'));
    expect(new URL(page.url()).pathname).toBe(`/dashboard/audit/${token}`);
    expect(await page.locator('main').textContent()).toMatch(/view/i);
    expect(sender.problems).toEqual([]);
    await sender.context.close();
  });

  it('the create page\'s recipients for an end-to-end push: the browser sends the link with its key; the mail\'s link opens the secret; no passphrase or secret in the mail', async () => {
    const sender = await signedInSender();
    const { page } = sender;
    const text = secret('mailed-from-create');
    const passphrase = 'create-page passphrase 41aa';
    const [one, two] = [unique('create-to'), unique('create-to')];
    await page.goto(`${env.server.url}/`);
    await expect.poll(async () => page.locator('[data-e2e-create-note]').isVisible(), wait).toBe(true);
    await page.fill('#payload', text);
    await page.fill('#passphrase', passphrase);
    await page.fill('#notify_emails', `${one}, ${two}`);
    await page.fill('#notify_note', 'The staging password, as promised');
    // The server sees the create without any recipient: they go with the key once the push exists.
    const createPosts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/') createPosts.push(r.postData() ?? '');
    });
    await page.click('#create-submit');
    await page.waitForSelector('[data-e2e-link-note]');
    const link = (await page.locator('#secret-link').textContent())!;
    expect(link).toMatch(/#[A-Za-z0-9_-]{48}$/);
    await expect.poll(async () => page.locator('[data-email-link-status]').textContent(), wait).toBe(`The link is on its way to 2 addresses: ${one}, ${two}.`);
    expect(createPosts).toHaveLength(1);
    expect(createPosts[0]).not.toContain(one);
    expect(createPosts[0]).not.toContain(link.split('#')[1]!);

    for (const to of [one, two]) {
      const mail = await smtp!.mailTo(to);
      expect(mail.parsed.text).toContain(link);
      expect(mail.parsed.text).toContain('> The staging password, as promised');
      expect(mail.parsed.replyTo?.text).toBe(sender.email);
      expect(wholeMail(mail)).not.toContain(text);
      expect(wholeMail(mail)).not.toContain(passphrase);
    }
    const mailed = linkIn(await smtp!.mailTo(one), '/p/');
    expect(mailed).toBe(link);
    const recipient = await newVisitor(env.browser, env.server.url);
    await openSecret(recipient.page, mailed, text, passphrase);
    expect(recipient.problems).toEqual([]);
    await recipient.context.close();
    expect(sender.problems).toEqual([]);
    await sender.context.close();
  });

  it('the result page\'s "E-mail the link…" for an end-to-end push, sent from the page: the page keeps its link, a bad address is named, the mail\'s link opens the secret', async () => {
    const sender = await signedInSender();
    const { page } = sender;
    const text = secret('mailed-from-result');
    await page.goto(`${env.server.url}/`);
    await expect.poll(async () => page.locator('[data-e2e-create-note]').isVisible(), wait).toBe(true);
    // The create page with its recipients' fields passes axe-core.
    expect(await seriousViolations(page)).toEqual([]);
    await page.fill('#payload', text);
    await page.click('#create-submit');
    await page.waitForSelector('[data-e2e-link-note]');
    const link = (await page.locator('#secret-link').textContent())!;
    await page.click('details[data-email-link] summary');
    const to = unique('result-to');
    await page.fill('#notify_emails', `${to}, not-an-address`);
    // The browser's own check of type=email is not what is tested here: the server's answer is.
    await page.locator('form[data-email-link-form]').evaluate((f) => f.setAttribute('novalidate', ''));
    await page.click('[data-email-link-submit]');
    await expect.poll(async () => page.locator('#notify_emails-error').textContent(), wait).toContain('"not-an-address" is not an e-mail address');
    // The field is marked and described by its message; the page passes axe-core with the form open.
    expect(await page.locator('#notify_emails').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#notify_emails').getAttribute('aria-describedby')).toContain('notify_emails-error');
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.locator('#secret-link').textContent()).toBe(link);
    expect(await page.locator("#notify_emails").inputValue()).toBe(`${to},not-an-address`);
    await page.fill('#notify_emails', to);
    await page.click('[data-email-link-submit]');
    await expect.poll(async () => page.locator('[data-email-link-status]').textContent(), wait).toBe(`The link is on its way to 1 address: ${to}.`);
    expect(await page.locator('#secret-link').textContent()).toBe(link);

    const mail = await smtp!.mailTo(to);
    expect(smtp!.mailsTo(to)).toHaveLength(1);
    expect(linkIn(mail, '/p/')).toBe(link);
    expect(wholeMail(mail)).not.toContain(text);
    const recipient = await newVisitor(env.browser, env.server.url);
    await openSecret(recipient.page, linkIn(mail, '/p/'), text);
    await recipient.context.close();
    // The refused address's answer (422) is the one resource error the console reports.
    expect(sender.problems).toEqual(['console: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)']);
    await sender.context.close();
  });

  it('an end-to-end FILE push made on the create page, e-mailed from the result page: the mailed link, opened in another browser, downloads the same bytes', async () => {
    const sender = await signedInSender();
    const { page } = sender;
    const marker = secret('mailed-file');
    // More than one encrypted record, a name of its own per attempt (the test is retried once under load).
    const bytes = fileBytes(300_000 + n, marker);
    const name = `mailed-report-${process.pid}-${++n}.bin`;
    const path = join(tmpdir(), name);
    writeFileSync(path, bytes);
    try {
      await page.goto(`${env.server.url}/`);
      await expect.poll(async () => page.locator('[data-e2e-create-note]').isVisible(), wait).toBe(true);
      await page.check('input[data-kind-choice][value="file"]');
      await page.setInputFiles('#files', path);
      await page.click('#create-submit');
      await page.waitForSelector('[data-e2e-link-note]', wait);
      const link = (await page.locator('#secret-link').textContent())!;
      expect(link).toMatch(/#[A-Za-z0-9_-]+$/);
      await page.click('details[data-email-link] summary');
      const to = unique('file-to');
      await page.fill('#notify_emails', to);
      await page.click('[data-email-link-submit]');
      await expect.poll(async () => page.locator('[data-email-link-status]').textContent(), wait).toBe(`The link is on its way to 1 address: ${to}.`);

      const mail = await smtp!.mailTo(to);
      expect(smtp!.mailsTo(to)).toHaveLength(1);
      const mailed = linkIn(mail, '/p/');
      expect(mailed).toBe(link);
      for (const never of [marker, name]) expect(wholeMail(mail)).not.toContain(never);

      const recipient = await newVisitor(env.browser, env.server.url);
      await recipient.page.goto(mailed);
      await recipient.page.click('#reveal');
      await recipient.page.waitForSelector('[data-e2e-download="0"]', wait);
      expect(await recipient.page.locator('#e2e-file-list').textContent()).toContain(name);
      const [saved] = await Promise.all([recipient.page.waitForEvent('download', wait), recipient.page.click('[data-e2e-download="0"]')]);
      expect(await saved.failure()).toBeNull();
      expect(readFileSync((await saved.path())!).equals(bytes)).toBe(true);
      expect(recipient.problems).toEqual([]);
      await recipient.context.close();
      expect(sender.problems).toEqual([]);
    } finally {
      rmSync(path, { force: true });
      await sender.context.close();
    }
  });

  it('the owner\'s page of a push made without scripts (server-encrypted): "E-mail the link…" with scripts off, and the mail\'s link opens the secret', async () => {
    const email = unique('noscript');
    await env.server.server.accounts.ensureUser(email);
    await env.server.server.accounts.setPassword(email, 'noscript horse battery staple');
    const context = await env.browser.newContext({ javaScriptEnabled: false, locale: 'de-DE' });
    const page = await context.newPage();
    await signIn(page, env.server.url, email, 'noscript horse battery staple');
    const text = secret('mailed-without-scripts');
    await page.goto(`${env.server.url}/`);
    await page.fill('#payload', text);
    const to = unique('noscript-to');
    await page.fill('#notify_emails', to);
    await Promise.all([page.waitForLoadState(), page.click('#create-submit')]);
    // German: the create page's recipients, sent by the server with the push.
    expect(await page.locator('[data-email-link-status]').textContent()).toBe(`Der Link ist unterwegs an 1 Adresse: ${to}.`);
    const link = (await page.locator('#secret-link').textContent())!;
    expect(linkIn(await smtp!.mailTo(to), '/p/')).toBe(link);

    const token = new URL(link).pathname.split('/')[2]!;
    await page.goto(`${env.server.url}/p/${token}/preview`);
    await page.click('details[data-email-link] summary');
    const again = unique('noscript-again');
    await page.fill('#notify_emails', again);
    await page.fill('#notify_note', 'Noch einmal');
    await Promise.all([page.waitForURL(`${env.server.url}/p/${token}/email`), page.click('[data-email-link-submit]')]);
    expect(await page.locator('[data-email-link-status]').textContent()).toBe(`Der Link ist unterwegs an 1 Adresse: ${again}.`);
    const mail = await smtp!.mailTo(again);
    expect(mail.parsed.text).toContain('> Noch einmal');
    expect(wholeMail(mail)).not.toContain(text);
    await context.close();

    const recipient = await newVisitor(env.browser, env.server.url);
    await openSecret(recipient.page, linkIn(mail, '/p/'), text);
    expect(recipient.problems).toEqual([]);
    await recipient.context.close();
  });
});
