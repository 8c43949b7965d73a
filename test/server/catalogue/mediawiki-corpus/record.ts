/**
 * Records a real MediaWiki's answers to the corpus (corpus.ts) into answers.json, which the
 * agreement test compares the validator with. Run once, by hand; the tests never need PHP:
 *
 *   apt-get install -y mediawiki php-sqlite3      # Debian 12: MediaWiki 1.39
 *   npx tsx test/server/catalogue/mediawiki-corpus/record.ts [/usr/share/mediawiki]
 *   npx tsx test/server/catalogue/mediawiki-corpus/record.ts --split tuning|heldout [/usr/share/mediawiki]
 *
 * Without --split it records the hand-written corpus (corpus.ts) into answers.json. With it,
 * a generated split (generated-corpus.ts) goes into generated-<split>.jsonl.gz: one JSON line
 * per answer, gzipped, because a few thousand answers repeat the same long docref text and
 * would make a pretty-printed JSON file of several MB (gzipped it is a few hundred KB, and the
 * agreement test reads it in milliseconds).
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
import { gzipSync } from 'node:zlib';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpus, type CorpusQuery } from './corpus.js';
import { generatedSplit, type Split } from './generated-corpus.js';

const args = process.argv.slice(2);
const splitAt = args.indexOf('--split');
const split = splitAt >= 0 ? (args.splice(splitAt, 2)[1] as Split) : undefined;
const source = args[0] ?? '/usr/share/mediawiki';
const queries: CorpusQuery[] = split ? generatedSplit(split) : corpus;
const out = new URL(split ? `./generated-${split}.jsonl.gz` : './answers.json', import.meta.url);

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

/**
 * php -S serves one request at a time and now and then stalls on one for good (a few generated
 * queries reliably hang it): such a server is killed and replaced, and the query tried once more
 * on the new one. A query that stalls twice is recorded as having no answer; the agreement test
 * leaves it out and counts it.
 */
async function send(server: PhpServer, entry: CorpusQuery): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      return await sendOnce(`${server.url}/api.php`, entry);
    } catch {
      await server.restart();
    }
  }
  return { ...entry, status: 0, errorHeader: null, body: { '(no answer)': 'MediaWiki did not answer twice within 15 s' } };
}

async function sendOnce(apiUrl: string, entry: CorpusQuery) {
  let response: Response;
  const signal = AbortSignal.timeout(15_000);
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

const SERVERS = 3;

/** One `php -S` serving the installed wiki on its own port. */
class PhpServer {
  private constructor(
    private readonly root: string,
    private process: ReturnType<typeof spawn>,
    public url: string,
  ) {}

  static async start(root: string): Promise<PhpServer> {
    const server = new PhpServer(root, ...(await PhpServer.spawn(root)));
    return server;
  }

  private static async spawn(root: string): Promise<[ReturnType<typeof spawn>, string]> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawn('php', ['-S', `127.0.0.1:${port}`], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.resume();
    for (;;) {
      try {
        if ((await fetch(`${url}/api.php?action=query&format=json`)).ok) break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    return [child, url];
  }

  async restart(): Promise<void> {
    this.stop();
    [this.process, this.url] = await PhpServer.spawn(this.root);
  }

  stop(): void {
    this.process.kill('SIGKILL');
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'mediawiki-corpus-'));
  const core = join(dir, 'core');
  const servers: PhpServer[] = [];
  try {
    cpSync(source, core, { recursive: true, dereference: false, verbatimSymlinks: true });
    // Debian links these into /var/lib/mediawiki; this wiki gets its own.
    for (const link of ['LocalSettings.php', 'config', 'extensions', 'images']) rmSync(join(core, link), { force: true, recursive: true });
    // The installed address ($wgServer) is what docref texts name, whichever server answers.
    const server = `http://127.0.0.1:${await freePort()}`;
    run('php', ['maintenance/install.php', '--dbtype', 'sqlite', '--dbpath', join(dir, 'db'), '--dbname', 'wiki',
      '--server', server, '--scriptpath', '', '--lang', 'en', '--pass', 'Corpus-recorder-1', 'Corpus Wiki', 'Admin'], core);

    // A few servers side by side share the wiki (SQLite serves concurrent readers); each names
    // the installed $wgServer in its docref texts, so their answers read the same.
    for (let i = 0; i < SERVERS; i++) servers.push(await PhpServer.start(core));
    const apiUrl = `${server}/api.php`;
    const general = (await (await fetch(`${servers[0]!.url}/api.php?action=query&meta=siteinfo&format=json&formatversion=2`)).json()) as {
      query: { general: { generator: string } };
    };
    const version = general.query.general.generator.replace(/^MediaWiki /, '');
    const answers: Record<string, unknown>[] = new Array(queries.length);
    let nextQuery = 0;
    const worker = async (server: PhpServer) => {
      while (nextQuery < queries.length) {
        const at = nextQuery++;
        if (process.env.RECORD_TRACE) console.error(at, queries[at]!.query);
        answers[at] = await send(server, queries[at]!);
      }
    };
    await Promise.all(servers.map(worker));
    const head = { mediawiki: version, apiUrl, recorded: new Date().toISOString().slice(0, 10) };
    if (split) {
      const lines = [JSON.stringify({ ...head, split }), ...answers.map((a) => JSON.stringify(a))];
      writeFileSync(out, gzipSync(`${lines.join('\n')}\n`, { level: 9 }));
    } else writeFileSync(out, `${JSON.stringify({ ...head, answers }, null, 1)}\n`);
    console.log(`Recorded ${answers.length} answers of MediaWiki ${version} into ${out.pathname}`);
  } finally {
    for (const s of servers) s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
