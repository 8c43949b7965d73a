import { describe, expect, it } from 'vitest';
import { compareAll, recording } from './mediawiki-corpus/agreement.js';
import { knownDifferences } from './mediawiki-corpus/known-differences.js';

/**
 * Our api.php against MediaWiki 1.39's own answers to the same queries (recorded once by
 * mediawiki-corpus/record.ts from a real wiki): errors, warnings, their envelopes and the echoed
 * members must be the same, code for code and word for word. Prints the agreement rates and
 * every remaining difference with its reason.
 */
const comparisons = compareAll();
const pct = (n: number) => `${((100 * n) / comparisons.length).toFixed(1)}%`;
const exact = comparisons.filter((c) => c.exact).length;
const verdict = comparisons.filter((c) => c.verdict).length;
const differing = comparisons.filter((c) => !c.exact);

describe(`agreement with MediaWiki ${recording.mediawiki} on ${comparisons.length} recorded queries`, () => {
  it('reports its rates and every difference with its reason', () => {
    const lines = [
      `MediaWiki ${recording.mediawiki}, ${comparisons.length} queries: exact agreement ${exact} (${pct(exact)}), verdict agreement ${verdict} (${pct(verdict)})`,
      ...differing.map((c) => `  differs: ${c.entry.post ? `POST (${c.entry.post}) ` : ''}${c.entry.query}\n    because ${knownDifferences[c.entry.query] ?? 'UNEXPLAINED'}`),
    ];
    console.log(lines.join('\n'));
    expect(comparisons.length).toBeGreaterThanOrEqual(400);
  });

  it('agrees exactly on at least 98% of the queries', () => {
    expect(exact / comparisons.length).toBeGreaterThanOrEqual(0.98);
  });

  it('explains every difference, and lists no query that agrees', () => {
    const unexplained = differing
      .filter((c) => !(c.entry.query in knownDifferences))
      .map((c) => ({ query: c.entry.query, mediawiki: c.theirs, ours: c.ours }));
    expect(unexplained).toEqual([]);
    const stale = Object.keys(knownDifferences).filter((query) => !differing.some((c) => c.entry.query === query));
    expect(stale).toEqual([]);
  });
});
