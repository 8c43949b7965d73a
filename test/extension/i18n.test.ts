import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { t, tAround, tn } from '../../extension/lib/i18n';

/**
 * The extension speaks seven languages through `_locales` (the browser picks one). A key missing
 * in a language, a placeholder lost in translation, a catalogue left in English, or a sentence
 * written straight into a component fails here.
 */
const root = resolve(import.meta.dirname, '../..');
const localesDir = join(root, 'extension/public/_locales');
type Catalogue = Record<string, { message: string; description?: string }>;
const read = (code: string): Catalogue => JSON.parse(readFileSync(join(localesDir, code, 'messages.json'), 'utf8'));
const en = read('en');
const placeholders = (text: string) => [...new Set([...text.matchAll(/\$([1-9])/g)].map((m) => m[1]))].sort();

describe('extension message catalogues (_locales)', () => {
  it('are the seven languages, in the codes Chromium and Firefox use', () => {
    expect(readdirSync(localesDir).sort()).toEqual(['de', 'en', 'es', 'fr', 'ja', 'pt_BR', 'zh_CN']);
  });

  it.each(['de', 'fr', 'es', 'pt_BR', 'ja', 'zh_CN'])('%s has every key of en, with the same placeholders, and is not English copied', (code) => {
    const catalogue = read(code);
    expect(Object.keys(catalogue).sort()).toEqual(Object.keys(en).sort());
    let sameAsEnglish = 0;
    for (const [key, { message }] of Object.entries(en)) {
      const translated = catalogue[key].message;
      expect(translated.trim(), `${code} ${key} is empty`).not.toBe('');
      expect(placeholders(translated), `${code} ${key}: placeholders`).toEqual(placeholders(message));
      // A dollar sign not followed by a digit or another one is eaten by the browsers.
      expect(translated, `${code} ${key}: stray $`).not.toMatch(/\$(?![1-9$])/);
      if (translated === message) sameAsEnglish++;
    }
    // The brand, "URL" and a few words the same in many languages; more means an untranslated copy.
    expect(sameAsEnglish / Object.keys(en).length).toBeLessThan(0.06);
    // The catalogue names its own language (the popup's <html lang>, plural rules).
    expect(catalogue.lang.message).toBe(code.replace('_', '-'));
  });

  it('counted messages come in _one/_other pairs in every language', () => {
    const keys = Object.keys(en);
    const ones = keys.filter((k) => k.endsWith('_one'));
    expect(ones.length).toBeGreaterThan(4);
    for (const one of ones) expect(keys, one).toContain(one.replace(/_one$/, '_other'));
  });

  it('keys are what Chromium accepts ([A-Za-z0-9_], no reserved @@ prefix)', () => {
    for (const key of Object.keys(en)) expect(key).toMatch(/^[A-Za-z0-9_]+$/);
  });

  it('the manifest takes its name, description and command from the catalogue', () => {
    const config = readFileSync(join(root, 'wxt.config.ts'), 'utf8');
    expect(config).toContain("default_locale: 'en'");
    for (const key of [...config.matchAll(/__MSG_(\w+)__/g)].map((m) => m[1])) expect(Object.keys(en)).toContain(key);
    expect(config).toMatch(/name: '__MSG_ext_name__'/);
    expect(config).toMatch(/description: '__MSG_ext_description__'/);
  });
});

describe('the i18n helper (over browser.i18n.getMessage)', () => {
  it('fills $1…, picks plural forms and splits around an element', () => {
    expect(t('allow_access', 'https://push.example.org')).toBe('Allow access to https://push.example.org');
    expect(tn('expires_days', 1, 1)).toBe('1 day');
    expect(tn('expires_days', 2, 2)).toBe('2 days');
    expect(tn('used_views', 0, 0, 5)).toBe('0 views of 5 used');
    expect(tAround('created_at')).toEqual(['Created ', '']);
  });
});

/** Readable text written as a literal in JSX, or in an attribute a person reads or hears. */
function untranslatedLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, /\.tsx/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const readable = (text: string) => /\p{L}{2,}/u.test(text);
  const userFacing = ['alt', 'title', 'placeholder', 'label', 'aria-label', 'hint', 'message'];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && readable(node.text)) found.push(node.text.trim());
    if (ts.isJsxAttribute(node) && node.initializer) {
      const name = node.name.getText(source);
      const init = node.initializer;
      const literal =
        ts.isStringLiteral(init) ? init.text
        : ts.isJsxExpression(init) && init.expression && (ts.isStringLiteral(init.expression) || ts.isNoSubstitutionTemplateLiteral(init.expression)) ? init.expression.text
        : undefined;
      if (userFacing.includes(name) && literal !== undefined && readable(literal)) found.push(`${name}="${literal}"`);
    }
    // A string or template in JSX braces (a child, not an id or class) that reads as words: {'Loading…'}, {`${n} pushed`}.
    if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      const e = node.expression;
      const texts = ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) ? [e.text] : ts.isTemplateExpression(e) ? [e.head.text, ...e.templateSpans.map((s) => s.literal.text)] : [];
      for (const text of texts) if (readable(text)) found.push(`{${text}}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : [];
  });

describe('extension components and entrypoints', () => {
  it('write no readable text as a literal: every sentence goes through the catalogue', () => {
    const files = [...filesUnder(join(root, 'extension/components')), ...filesUnder(join(root, 'extension/entrypoints'))];
    expect(files.length).toBeGreaterThan(8);
    const literals = Object.fromEntries(files.map((f) => [relative(root, f), untranslatedLiterals(f)]).filter(([, l]) => l.length));
    expect(literals).toEqual({});
  });

  it('lib/ writes no sentence as a literal either (error messages, menu titles, notifications)', () => {
    // Words in a string: two words of letters side by side. Developer-facing errors are listed here.
    const developerOnly = new Set([
      'extension/lib/storage-item.ts: is not available in this browser',
      // The offscreen document's justification (read by reviewers, never shown), and a failure that only makes openFileHost answer false.
      'extension/lib/file-host-opening.ts: Encrypts files to disk and uploads them after the popup has closed.',
      'extension/lib/file-host-opening.ts: the file host did not load',
      // The generator's guards (the form never asks for these) and a load failure the form words itself (gen_list_failed).
      'extension/lib/generator/password.ts: choose at least one character set',
      'extension/lib/generator/random-index.ts: n must be an integer in 1..2^32',
      'extension/lib/generator/word-list.ts: word list damaged',
      // The build's refusal of a malformed FIREFOX_ADDON_ID (read by wxt.config.ts, never shipped).
      'extension/lib/firefox-addon-id.ts: is not an add-on id Firefox accepts: use an e-mail-like id at a domain you control (secret-push@it.example.com) or a GUID in braces ({…}), at most 80 characters.',
    ]);
    const found: string[] = [];
    for (const file of filesUnder(join(root, 'extension/lib'))) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        const texts =
          ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) ? [node.text]
          : ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)]
          : [];
        for (const text of texts) {
          const entry = `${relative(root, file)}: ${text.trim()}`;
          if (/\p{L}{2,}\s+\p{L}{2,}/u.test(text) && !developerOnly.has(entry)) found.push(entry);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
  });

  it('the scan finds what it looks for', () => {
    const probe = join(root, 'test/extension/fixtures/untranslated.tsx.txt');
    expect(untranslatedLiterals(probe)).toEqual(['Hello there', 'placeholder="Your name"', 'aria-label="Close it"', '{Loading…}', '{ pushed}']);
  });
});
