/**
 * Records a real MediaWiki's answers to the corpus (corpus.ts) into answers.json, which the
 * agreement test compares the validator with. Run once, by hand; the tests never need PHP:
 *
 *   apt-get install -y mediawiki php-sqlite3      # Debian 12: MediaWiki 1.39
 *   npx tsx test/server/catalogue/mediawiki-corpus/record.ts [/usr/share/mediawiki]
 *
 * It copies MediaWiki into a temporary directory, installs a fresh wiki on SQLite there (core
 * only, no extensions, the installer's Main Page as its only page), serves it with `php -S`
 * on a free port, sends every query anonymously, and deletes the directory again.
 *
 * What is kept of each answer: the status, the MediaWiki-API-Error header and the JSON body
 * with its result data reduced to key names (`query`, `paraminfo`, `continue`), because our
 * catalogue's wiki has no pages: only validation (errors, warnings, envelopes) is compared.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpus, type CorpusQuery } from './corpus.js';

const source = process.argv[2] ?? '/usr/share/mediawiki';
const out = new URL('./answers.json', import.meta.url);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Result data depends on the wiki's pages; only its shape (key names) is kept. */
function reduce(body: Record<string, unknown>): Record<string, unknown> {
  const outBody: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    outBody[key] =
      ['query', 'paraminfo', 'continue', 'query-continue'].includes(key) && value && typeof value === 'object'
        ? { '(keys)': Object.keys(value as object) }
        : value;
  }
  return outBody;
}

/** php -S serves one request at a time and now and then stalls on one: a second try gets through. */
async function send(apiUrl: string, entry: CorpusQuery, attempts = 3): Promise<Record<string, unknown>> {
  try {
    return await sendOnce(apiUrl, entry);
  } catch (e) {
    if (attempts <= 1) throw e;
    return send(apiUrl, entry, attempts - 1);
  }
}

async function sendOnce(apiUrl: string, entry: CorpusQuery) {
  let response: Response;
  const signal = AbortSignal.timeout(20_000);
  if (!entry.post) {
    response = await fetch(`${apiUrl}?${entry.query}`, { signal });
  } else {
    const pairs = [...new URLSearchParams(entry.query)];
    let body: URLSearchParams | FormData;
    if (entry.post === 'form') body = new URLSearchParams(pairs);
    else {
      body = new FormData();
      for (const [name, value] of pairs) body.append(name, value);
    }
    response = await fetch(apiUrl, { method: 'POST', body, signal });
  }
  const text = await response.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = null;
  }
  return {
    ...entry,
    status: response.status,
    errorHeader: response.headers.get('mediawiki-api-error'),
    body: json ? reduce(json) : { '(not json)': text.slice(0, 200) },
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'mediawiki-corpus-'));
  const core = join(dir, 'core');
  let php: ReturnType<typeof spawn> | undefined;
  try {
    cpSync(source, core, { recursive: true, dereference: false, verbatimSymlinks: true });
    // Debian links these into /var/lib/mediawiki; this wiki gets its own.
    for (const link of ['LocalSettings.php', 'config', 'extensions', 'images']) rmSync(join(core, link), { force: true, recursive: true });
    const port = await freePort();
    const server = `http://127.0.0.1:${port}`;
    run('php', ['maintenance/install.php', '--dbtype', 'sqlite', '--dbpath', join(dir, 'db'), '--dbname', 'wiki',
      '--server', server, '--scriptpath', '', '--lang', 'en', '--pass', 'Corpus-recorder-1', 'Corpus Wiki', 'Admin'], core);

    php = spawn('php', ['-S', `127.0.0.1:${port}`], { cwd: core, stdio: ['ignore', 'ignore', 'pipe'] });
    const apiUrl = `${server}/api.php`;
    for (;;) {
      try {
        if ((await fetch(`${apiUrl}?action=query&format=json`)).ok) break;
      } catch {
        await new Promise<void>((resolve) => php!.stderr!.once('data', () => resolve()));
      }
    }

    const general = (await (await fetch(`${apiUrl}?action=query&meta=siteinfo&format=json&formatversion=2`)).json()) as {
      query: { general: { generator: string } };
    };
    const version = general.query.general.generator.replace(/^MediaWiki /, '');
    const answers = [];
    for (const entry of corpus) answers.push(await send(apiUrl, entry));
    writeFileSync(out, `${JSON.stringify({ mediawiki: version, apiUrl, recorded: new Date().toISOString().slice(0, 10), answers }, null, 1)}\n`);
    console.log(`Recorded ${answers.length} answers of MediaWiki ${version} into ${out.pathname}`);
  } finally {
    php?.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
