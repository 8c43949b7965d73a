import { describe, expect, it } from 'vitest';
import { compareAll, generatedRecording, recording, type Comparison } from './mediawiki-corpus/agreement.js';
import { generatedDifferences, knownDifferences } from './mediawiki-corpus/known-differences.js';

/**
 * Our api.php against MediaWiki 1.39's own answers to the same queries (recorded once by
 * mediawiki-corpus/record.ts from a real wiki): errors, warnings, their envelopes and the echoed
 * members must be the same, code for code and word for word. The corpus is the hand-written
 * one (answers.json) and the two generated splits (generated-*.jsonl.gz): tuning, which the
 * rules were checked against, and held-out, which they were not. Prints the agreement rates per
 * corpus and class, and every remaining difference with its reason. No PHP needed.
 */
const tuning = generatedRecording('tuning');
const heldout = generatedRecording('heldout');
const corpora: { name: string; comparisons: (Comparison & { kind: string })[]; reasons: Record<string, string> }[] = [
  { name: 'hand-written', comparisons: compareAll().map((c) => ({ ...c, kind: 'hand-written' })), reasons: knownDifferences },
  { name: 'generated, tuning', comparisons: compareAll(tuning).map((c, i) => ({ ...c, kind: tuning.answers[i]!.kind })), reasons: generatedDifferences },
  { name: 'generated, held-out', comparisons: compareAll(heldout).map((c, i) => ({ ...c, kind: heldout.answers[i]!.kind })), reasons: generatedDifferences },
];
const all = corpora.flatMap((c) => c.comparisons);
const rates = (of: readonly Comparison[]) => {
  const pct = (n: number) => `${((100 * n) / of.length).toFixed(1)}%`;
  return `exact ${pct(of.filter((c) => c.exact).length)}, verdict ${pct(of.filter((c) => c.verdict).length)} of ${of.length}`;
};

describe(`agreement with MediaWiki ${recording.mediawiki} on ${all.length} recorded queries`, () => {
  it('reports its rates and every difference with its reason', () => {
    const lines = [`MediaWiki ${recording.mediawiki}, all corpora: ${rates(all)}`];
    for (const corpus of corpora) {
      lines.push(`${corpus.name}: ${rates(corpus.comparisons)}`);
      for (const kind of [...new Set(corpus.comparisons.map((c) => c.kind))]) {
        if (kind !== 'hand-written') lines.push(`  ${kind}: ${rates(corpus.comparisons.filter((c) => c.kind === kind))}`);
      }
      for (const c of corpus.comparisons.filter((x) => !x.exact)) {
        lines.push(`  differs: ${c.entry.post ? `POST (${c.entry.post}) ` : ''}${c.entry.query}\n    because ${corpus.reasons[c.entry.query] ?? 'UNEXPLAINED'}`);
      }
    }
    console.log(lines.join('\n'));
    expect(corpora[0]!.comparisons.length).toBeGreaterThanOrEqual(400);
    expect(tuning.answers.length + heldout.answers.length).toBeGreaterThanOrEqual(3000);
  });

  it('agrees exactly on at least 98% of the grown corpus, and of each generated split', () => {
    const exact = (of: readonly Comparison[]) => of.filter((c) => c.exact).length / of.length;
    expect(exact(all)).toBeGreaterThanOrEqual(0.98);
    expect(exact(corpora[1]!.comparisons)).toBeGreaterThanOrEqual(0.98);
    expect(exact(corpora[2]!.comparisons)).toBeGreaterThanOrEqual(0.98);
  });

  it('explains every difference, and lists no query that agrees', () => {
    for (const corpus of corpora) {
      const differing = corpus.comparisons.filter((c) => !c.exact);
      const unexplained = differing
        .filter((c) => !(c.entry.query in corpus.reasons))
        .map((c) => ({ query: c.entry.query, mediawiki: c.theirs, ours: c.ours }));
      expect(unexplained).toEqual([]);
    }
    const differing = new Set(all.filter((c) => !c.exact).map((c) => c.entry.query));
    const stale = [...Object.keys(knownDifferences), ...Object.keys(generatedDifferences)].filter((query) => !differing.has(query));
    expect(stale).toEqual([]);
  });
});
