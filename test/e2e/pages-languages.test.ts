import { expect, it } from 'vitest';
import { translator } from '../../server/http/pages/i18n/translator.js';
import { describeInChromium, serverAndChromium, newVisitor, screenshot } from './support/pages-chromium.js';

/**
 * The pages in a real Chromium set to another language: a German browser gets the create page in
 * German, a recipient with a Japanese browser reads the secret page in Japanese, and the language
 * menu switches a page to Chinese for good. Screenshots in test-artifacts/.
 */
describeInChromium('pages in the browser’s language (Chromium)', () => {
  const env = serverAndChromium();

  it('a German browser sends a secret in German; a Japanese recipient reads it in Japanese', async () => {
    const de = translator('de');
    const sender = await newVisitor(env.browser, env.server.url, { locale: 'de-DE' });
    try {
      await sender.page.goto(`${env.server.url}/`);
      expect(await sender.page.getAttribute('html', 'lang')).toBe('de');
      expect(await sender.page.textContent('h1')).toBe(de('create.heading'));
      await sender.page.fill('#payload', 'Das Passwort ist hunter2');
      await sender.page.click('#create-submit');
      await sender.page.waitForSelector('#secret-link');
      expect(await sender.page.textContent('h1')).toBe(de('create.ready.heading'));
      await screenshot(sender.page, 'i18n-created-de');
      const link = (await sender.page.textContent('#secret-link'))!.trim();

      const ja = translator('ja');
      const recipient = await newVisitor(env.browser, env.server.url, { locale: 'ja-JP', scheme: 'dark' });
      try {
        await recipient.page.goto(link);
        expect(await recipient.page.getAttribute('html', 'lang')).toBe('ja');
        expect(await recipient.page.textContent('#reveal')).toContain(ja('recipient.step.reveal'));
        await recipient.page.click('#reveal');
        await recipient.page.waitForSelector('#secret');
        expect(await recipient.page.textContent('h1')).toBe(ja('recipient.secret.heading'));
        expect(await recipient.page.textContent('#secret')).toContain('hunter2');
        await recipient.page.click('[data-copy="secret"]');
        await recipient.page.waitForFunction((text) => document.querySelector('[data-copy-status]')?.textContent === text, ja('common.copied'));
        await screenshot(recipient.page, 'i18n-secret-ja-dark');
        expect(recipient.problems).toEqual([]);
      } finally {
        await recipient.context.close();
      }
      expect(sender.problems).toEqual([]);
    } finally {
      await sender.context.close();
    }
  });

  it('the language menu switches to Chinese, and the choice stays', async () => {
    const zh = translator('zh-CN');
    const visitor = await newVisitor(env.browser, env.server.url, { locale: 'fr-FR', phone: true });
    try {
      await visitor.page.goto(`${env.server.url}/users/sign_in`);
      expect(await visitor.page.getAttribute('html', 'lang')).toBe('fr');
      await visitor.page.click('footer .languages a[lang="zh-CN"]');
      await visitor.page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
      expect(await visitor.page.textContent('h1')).toBe(zh('account.signIn.heading'));
      await visitor.page.goto(`${env.server.url}/`);
      expect(await visitor.page.getAttribute('html', 'lang')).toBe('zh-CN');
      expect(await visitor.page.textContent('h1')).toBe(zh('create.heading'));
      // Nothing overflows a phone's width in this language.
      expect(await visitor.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await screenshot(visitor.page, 'i18n-create-zh-phone');
      expect(visitor.problems).toEqual([]);
    } finally {
      await visitor.context.close();
    }
  });
});
