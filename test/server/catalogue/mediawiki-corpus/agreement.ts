import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createCatalogueService } from '../../../../server/catalogue/catalogue-service.js';
import recorded from './answers.json' with { type: 'json' };
import type { CorpusQuery } from './corpus.js';
import type { GeneratedKind, Split } from './generated-corpus.js';

/**
 * Compares our api.php with MediaWiki's recorded answers, on what validation decides: the
 * error (or errors), the warnings, their envelope and the echoed request members. Result data
 * is left out (our wiki has no pages, MediaWiki's has a Main Page), and so is what legitimately
 * differs between two servers:
 * - `curtimestamp` (the time of the answer) and `servedby` (the host name);
 * - the api.php address inside `docref` texts (each names its own server);
 * - our `moduledisabled` error for a query we would have to run: it stands for a result;
 * - where MediaWiki answered HTML instead of JSON (its help page, or `jsonfm` when the format
 *   is unknown), only the MediaWiki-API-Error header is compared.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface RecordedAnswer extends CorpusQuery {
  status: number;
  errorHeader: string | null;
  body: { [key: string]: Json };
}

export interface Recording {
  mediawiki: string;
  apiUrl: string;
  answers: RecordedAnswer[];
}

export const recording = recorded as unknown as Recording;

/** A recorded generated split (record.ts --split): a header line, then one answer per line. */
export function generatedRecording(split: Split): Recording & { answers: (RecordedAnswer & { kind: GeneratedKind })[] } {
  const text = gunzipSync(readFileSync(new URL(`./generated-${split}.jsonl.gz`, import.meta.url))).toString('utf8');
  const [head, ...lines] = text.trimEnd().split('\n');
  // A query MediaWiki never answered (record.ts gave up on it) has nothing to compare.
  const answers = lines.map((l) => JSON.parse(l) as RecordedAnswer & { kind: GeneratedKind }).filter((a) => a.status !== 0);
  return { ...(JSON.parse(head!) as { mediawiki: string; apiUrl: string }), answers };
}

const validationKeys = ['error', 'errors', 'warnings', 'docref', '*', 'requestid', 'curtimestamp', 'servedby', 'uselang', 'errorlang'];

export function validationView(body: { [key: string]: Json }, errorHeader: string | null, apiUrl = recording.apiUrl): { [key: string]: Json } {
  const view: { [key: string]: Json } = {};
  for (const key of validationKeys) if (key in body) view[key] = body[key]!;
  if ('curtimestamp' in view) view.curtimestamp = '(time)';
  if ('servedby' in view) view.servedby = '(host)';
  view.errorHeader = errorHeader;
  return JSON.parse(JSON.stringify(view).replaceAll(apiUrl, '(api.php)')) as { [key: string]: Json };
}

const ranQuery = (view: { [key: string]: Json }) => view.errorHeader === 'moduledisabled';

export interface Comparison {
  entry: RecordedAnswer;
  theirs: { [key: string]: Json };
  ours: { [key: string]: Json };
  exact: boolean;
  verdict: boolean;
}

export function compareAll(from: Recording = recording): Comparison[] {
  const service = createCatalogueService({ wikiBaseUrl: 'https://www.mediawiki.org/wiki' });
  const { apiUrl } = from;
  return from.answers.map((entry) => {
    const body = entry.post ? [...new URLSearchParams(entry.query)] : undefined;
    const answer = service.answerApi({ query: entry.post ? '' : entry.query, body, apiUrl });
    let ours = validationView(JSON.parse(answer.body) as { [key: string]: Json }, answer.errorCode ?? null, apiUrl);
    if (ranQuery(ours)) {
      // Without its error, the answer has no docref either (under `*` beside an `errors` list).
      const { error: _e, errors, docref: _d, errorHeader: _h, ...rest } = ours;
      if (errors !== undefined) delete rest['*'];
      ours = { ...rest, errorHeader: null };
    }
    let theirs = validationView(entry.body, entry.errorHeader, apiUrl);
    // MediaWiki printed HTML (its help page, or jsonfm for an unknown format): only the
    // MediaWiki-API-Error header can be compared.
    if ('(not json)' in entry.body) {
      theirs = { errorHeader: entry.errorHeader };
      ours = { errorHeader: ours.errorHeader ?? null };
    }
    const exact = JSON.stringify(sortKeys(ours)) === JSON.stringify(sortKeys(theirs));
    const verdict = (ours.errorHeader === null) === (theirs.errorHeader === null);
    return { entry, theirs, ours, exact, verdict };
  });
}

/** Key order is not part of the comparison (MediaWiki puts warnings before or after errors). */
function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k]!)]));
}
