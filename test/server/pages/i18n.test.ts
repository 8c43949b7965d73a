import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locales, negotiate } from '../../../server/http/pages/i18n/locales.js';
import { en } from '../../../server/http/pages/i18n/messages/en.js';
import { catalogues, formatDateTime, translator, type Message } from '../../../server/http/pages/i18n/translator.js';
import { api, createPush } from '../../support/http.js';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * The pages people read speak seven languages. A key missing in a language, a placeholder lost in
 * translation, or an English sentence written straight into a page fails here.
 */

const PAGES_DIR = fileURLToPath(new URL('../../../server/http/pages/', import.meta.url));
/** The catalogue's module pages are reference material in MediaWiki's English, on purpose. */
const ENGLISH_ONLY = new Set(['catalogue-pages.tsx']);

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const forms = (m: Message): string[] => (typeof m === 'string' ? [m] : Object.values(m));

describe('message catalogues', () => {
  it.each(locales.filter((l) => l !== 'en'))('%s has every key, with the same placeholders, and is not English copied', (locale) => {
    const catalogue = catalogues[locale];
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(en).sort());
    let sameAsEnglish = 0;
    for (const [key, english] of Object.entries(en) as [keyof typeof en, Message][]) {
      const message = catalogue[key];
      const wanted = placeholders(forms(english)[0]!);
      for (const text of forms(message)) {
        expect(text.trim(), `${locale} ${key} is empty`).not.toBe('');
        expect(placeholders(text), `${locale} ${key}: placeholders`).toEqual(wanted);
      }
      if (typeof english !== 'string') {
        expect(typeof message, `${locale} ${key} needs plural forms`).toBe('object');
        expect((message as Record<string, string>).other, `${locale} ${key}: the 'other' form`).toBeTruthy();
        // Every form the language distinguishes (CLDR) other than the fall-backs is written out.
        for (const category of new Intl.PluralRules(locale).resolvedOptions().pluralCategories) {
          if (category === 'one' && (message as Record<string, string>).one === undefined) {
            throw new Error(`${locale} ${key}: the 'one' form is missing`);
          }
        }
      }
      if (JSON.stringify(message) === JSON.stringify(english)) sameAsEnglish++;
    }
    // A few keys are the same everywhere (the brand, "API", "URL"…); more means an untranslated copy.
    expect(sameAsEnglish / Object.keys(en).length).toBeLessThan(0.08);
  });

  it('fills placeholders, formats numbers for the language and picks plural forms', () => {
    expect(translator('en')('dashboard.days', { count: 1 })).toBe('1 day');
    expect(translator('en')('dashboard.days', { count: 2 })).toBe('2 days');
    expect(translator('de')('dashboard.page', { page: 12345 })).toContain('12.345');
    expect(translator('fr')('dashboard.page', { page: 12345 })).toMatch(/12\s345/);
    expect(translator('ja')('dashboard.days', { count: 1 })).toContain('1');
  });

  it('writes dates for each language, in UTC and saying so', () => {
    for (const locale of locales) {
      const text = formatDateTime(locale, '2026-11-25T13:05:00.000Z');
      expect(text, locale).toMatch(/2026/);
      expect(text, locale).toMatch(/13/);
      expect(text, locale).toMatch(/UTC/);
    }
    expect(formatDateTime('en', null)).toBe('');
    expect(formatDateTime('en', 'not a date')).toBe('not a date');
  });

  it('negotiates Accept-Language with weights and language fall-backs', () => {
    expect(negotiate(undefined)).toBe('en');
    expect(negotiate('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(negotiate('fr-CA')).toBe('fr');
    expect(negotiate('pt')).toBe('pt-BR');
    expect(negotiate('pt-PT,pt;q=0.9')).toBe('pt-BR');
    expect(negotiate('zh-Hans-CN')).toBe('zh-CN');
    expect(negotiate('zh-TW')).toBe('en');
    expect(negotiate('nl;q=0.9, es;q=0.8, ja;q=0.85')).toBe('ja');
    expect(negotiate('es;q=0, fr;q=0.1')).toBe('fr');
    expect(negotiate('*')).toBe('en');
    expect(negotiate('x'.repeat(10_000))).toBe('en');
  });
});

/** Text a person reads, written as a literal in a page's JSX instead of through t(). */
function untranslatedLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const readable = (text: string) => /\p{L}{2,}/u.test(text);
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && readable(node.text)) found.push(node.text.trim());
    if (ts.isJsxAttribute(node) && node.initializer && ts.isStringLiteral(node.initializer)) {
      const name = node.name.getText(source);
      if (['alt', 'title', 'placeholder', 'label', 'aria-label', 'message'].includes(name) && readable(node.initializer.text)) {
        found.push(`${name}="${node.initializer.text}"`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('pages', () => {
  it('write no readable text as a literal: every sentence goes through the catalogue', () => {
    const files = readdirSync(PAGES_DIR).filter((f) => f.endsWith('.tsx') && !ENGLISH_ONLY.has(f));
    expect(files.length).toBeGreaterThan(8);
    const literals = Object.fromEntries(files.map((f) => [f, untranslatedLiterals(join(PAGES_DIR, f))]).filter(([, l]) => l.length));
    expect(literals).toEqual({});
  });
});

describe('pages in the visitor language (HTTP)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  const page = (path: string, headers: Record<string, string> = {}) => api.get(server, path, { headers: { accept: 'text/html', ...headers } });

  it('follows Accept-Language, marks the language, and falls back to English', async () => {
    const de = await page('/', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(de.status).toBe(200);
    expect(de.text).toContain('<html lang="de" dir="ltr">');
    expect(de.text).toContain(`<h1>${translator('de')('create.heading')}</h1>`);
    expect(de.text).not.toContain(en['create.heading']);
    expect(de.headers.get('content-language')).toBe('de');
    expect(de.headers.get('vary')).toMatch(/Accept-Language/);
    const nl = await page('/', { 'accept-language': 'nl' });
    expect(nl.text).toContain('<html lang="en" dir="ltr">');
    expect(nl.text).toContain(`<h1>${en['create.heading']}</h1>`);
  });

  it('the language menu picks a language for good (a cookie), over the browser’s', async () => {
    const picked = await page('/users/sign_in?lang=ja', { 'accept-language': 'fr' });
    expect(picked.text).toContain('<html lang="ja"');
    const cookie = picked.headers.getSetCookie().find((c) => c.startsWith('sp_lang=')) ?? '';
    expect(cookie).toMatch(/^sp_lang=ja;.*Max-Age=31536000.*HttpOnly.*SameSite=Lax/i);
    const later = await page('/users/sign_in', { 'accept-language': 'fr', cookie: 'sp_lang=ja' });
    expect(later.text).toContain(`<h1>${translator('ja')('account.signIn.heading')}</h1>`);
    // Every language is offered, each named in itself, linking to the same page.
    for (const [locale, name] of [['de', 'Deutsch'], ['zh-CN', '简体中文'], ['pt-BR', 'Português (Brasil)']]) {
      expect(later.text).toContain(`href="/users/sign_in?lang=${locale}"`);
      expect(later.text).toContain(`>${name}</a>`);
    }
    // Nonsense in the menu's parameter or the cookie changes nothing.
    const odd = await page('/users/sign_in?lang=%3Cscript%3E', { cookie: 'sp_lang=xx' });
    expect(odd.text).toContain('<html lang="en"');
    expect(odd.headers.getSetCookie().some((c) => c.startsWith('sp_lang='))).toBe(false);
  });

  it('recipient pages speak the recipient’s language and offer no language links (reloading could cost a view)', async () => {
    const p = await createPush(server, { payload: 'ein Geheimnis', expire_after_views: 2, retrieval_step: true });
    const step = await page(`/p/${p.url_token}/r`, { 'accept-language': 'es-MX' });
    expect(step.text).toContain('<html lang="es"');
    expect(step.text).toContain(translator('es')('recipient.step.reveal'));
    expect(step.text).not.toContain('?lang=');
    const secret = await page(`/p/${p.url_token}`, { 'accept-language': 'zh-CN' });
    expect(secret.text).toContain(translator('zh-CN')('recipient.secret.heading'));
    expect(secret.text).toContain(translator('zh-CN')('recipient.secret.remaining', {
      days: translator('zh-CN')('recipient.secret.days', { count: 7 }),
      views: translator('zh-CN')('recipient.secret.moreViews', { count: 1 }),
    }));
    // The copy button's messages reach the script in the same language.
    expect(secret.text).toContain(`data-copied="${translator('zh-CN')('common.copied')}"`);
    const gone = await page(`/p/${p.url_token}`, { 'accept-language': 'pt-BR' });
    expect(gone.status).toBe(200);
    const expired = await page(`/p/${p.url_token}`, { 'accept-language': 'pt-BR' });
    expect(expired.status).toBe(404);
    expect(expired.text).toContain(translator('pt-BR')('recipient.expired.heading'));
  });

  it('API answers stay English whatever the browser asks for', async () => {
    const res = await api.get(server, '/api/v2/pushes/nosuchtoken', { headers: { 'accept-language': 'de' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-language')).toBeNull();
    const bad = await api.post(server, '/api/v2/pushes', { json: { push: { payload: '' } }, headers: { 'accept-language': 'fr' } });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toMatch(/[a-z]/);
    expect(JSON.stringify(bad.body)).not.toMatch(/é|è|à/);
  });
});
