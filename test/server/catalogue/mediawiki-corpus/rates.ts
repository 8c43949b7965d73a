/**
 * Prints the validator's agreement with MediaWiki per class of query, on the hand-written
 * corpus and on both generated splits (no PHP needed: it reads the recordings):
 *
 *   npx tsx test/server/catalogue/mediawiki-corpus/rates.ts
 *   npx tsx test/server/catalogue/mediawiki-corpus/rates.ts --show tuning [kind]   # list differences
 *
 * `--show` lists the differing queries of the tuning split only: the held-out split's
 * queries are there to be counted, not read.
 */
import { compareAll, generatedRecording, type Comparison } from './agreement.js';
import type { Split } from './generated-corpus.js';

const rate = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1).padStart(5)}%`;

function table(title: string, comparisons: (Comparison & { kind: string })[]) {
  const kinds = [...new Set(comparisons.map((c) => c.kind))];
  console.log(`\n${title}: ${comparisons.length} queries`);
  console.log(`  ${'class'.padEnd(14)} ${'n'.padStart(5)}  exact   verdict`);
  for (const kind of [...kinds, 'ALL']) {
    const of = kind === 'ALL' ? comparisons : comparisons.filter((c) => c.kind === kind);
    const exact = of.filter((c) => c.exact).length;
    const verdict = of.filter((c) => c.verdict).length;
    console.log(`  ${kind.padEnd(14)} ${String(of.length).padStart(5)}  ${rate(exact, of.length)}  ${rate(verdict, of.length)}`);
  }
}

const showAt = process.argv.indexOf('--show');
if (showAt >= 0) {
  const split = process.argv[showAt + 1] as Split;
  if (split !== 'tuning') throw new Error('Only the tuning split may be read; the held-out split is counted, never shown.');
  const kind = process.argv[showAt + 2];
  const recorded = generatedRecording(split);
  const comparisons = compareAll(recorded);
  comparisons.forEach((c, i) => {
    const entryKind = recorded.answers[i]!.kind;
    if (c.exact || (kind && entryKind !== kind)) return;
    console.log(`[${entryKind}] ${c.entry.query}\n  mediawiki: ${JSON.stringify(c.theirs)}\n  ours:      ${JSON.stringify(c.ours)}`);
  });
} else {
  table('hand-written corpus (answers.json)', compareAll().map((c) => ({ ...c, kind: 'hand-written' })));
  for (const split of ['tuning', 'heldout'] as const) {
    const recorded = generatedRecording(split);
    table(`generated ${split} split`, compareAll(recorded).map((c, i) => ({ ...c, kind: recorded.answers[i]!.kind })));
  }
}
