import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../support/server.js';

/**
 * The extension's privacy page (/privacy/extension) is its privacy policy in the stores: it must
 * name every place the extension keeps something. The keys are read here from the extension's
 * code (storage items are named `area:key`; the upload spool is a directory in the extension's
 * private file storage), so a key added without a line on the page fails this test.
 */
const root = resolve(import.meta.dirname, '../../..');
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|tsx)$/.test(name) ? [path] : [];
  });

/** Every `'sync:…'`, `'local:…'`, `'session:…'` in the extension's code, and the spool directories it uses. */
function keysInCode(): string[] {
  const found = new Set<string>();
  for (const file of sources(join(root, 'extension'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/['"`](sync|local|session):([A-Za-z][\w-]*)['"`]/g)) found.add(`storage.${m[1]}: ${m[2]}`);
  }
  // The extension's file host spools uploads (shared/e2e/upload-spool.ts, through spool-in-worker).
  const spool = /SPOOL_DIR = '([^']+)'/.exec(readFileSync(join(root, 'shared/e2e/upload-spool.ts'), 'utf8'));
  if (spool) found.add(spool[1]);
  // storage.managed: the policy's keys, from the schema the extension declares.
  const schema = JSON.parse(readFileSync(join(root, 'extension/public/managed-schema.json'), 'utf8')) as { properties: Record<string, unknown> };
  for (const key of Object.keys(schema.properties)) found.add(key);
  return [...found].sort();
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ');

describe('the extension\'s privacy page', () => {
  it('names every storage key the extension\'s code uses', async () => {
    const keys = keysInCode();
    // The reading itself works: the token, the draft and the spool are among what it finds.
    expect(keys).toEqual(expect.arrayContaining(['storage.local: apiToken', 'storage.session: draft', 'storage.sync: serverUrl', 'secret-push-uploads', 'serverUrl']));
    const res = await fetch(`${server.url}/privacy/extension`);
    expect(res.status).toBe(200);
    const page = text(await res.text());
    expect(keys.filter((k) => !page.includes(k))).toEqual([]);
    // And who gets what: the server you set, the token only to its origin, nobody else.
    expect(page).toMatch(/Only to the server you set/);
    expect(page).toMatch(/Nothing else, and to no one else\./);
  });

  it('is in the seven languages, and every page\'s footer links to it', async () => {
    const headings: Record<string, string> = {};
    for (const lang of ['en', 'de', 'fr', 'es', 'pt-BR', 'ja', 'zh-CN']) {
      const html = await (await fetch(`${server.url}/privacy/extension?lang=${lang}`)).text();
      expect(html).toContain(`<html lang="${lang}"`);
      headings[lang] = /<h1>([^<]+)<\/h1>/.exec(html)![1];
    }
    expect(new Set(Object.values(headings)).size).toBe(7);
    expect(headings.de).toBe('Datenschutz: die Browsererweiterung');
    for (const path of ['/', '/users/sign_in', '/catalogue']) {
      const html = await (await fetch(`${server.url}${path}`)).text();
      expect(/<footer class="site">([\s\S]*?)<\/footer>/.exec(html)?.[1], path).toContain('href="/privacy/extension"');
    }
  });
});
