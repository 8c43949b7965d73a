import { describe, expect, it } from 'vitest';
import { fileNamesHint, knownOrListed, pushLabel } from '../../extension/lib/push-label';

describe('file pushes in History', () => {
  it('names the first file, cut at 32 characters, and counts the others', () => {
    expect(fileNamesHint(['contract.pdf'])).toBe('contract.pdf');
    expect(fileNamesHint(['a.txt', 'b.txt'])).toBe('a.txt and 1 more');
    expect(fileNamesHint(['x'.repeat(40), 'b', 'c'])).toBe(`${'x'.repeat(31)}… and 2 more`);
    // Cut by characters, not UTF-16 units: an emoji is never split.
    expect(fileNamesHint([`${'é'.repeat(30)}📎📎📎`])).toBe(`${'é'.repeat(30)}📎…`);
    expect(fileNamesHint([])).toBeUndefined();
    expect(fileNamesHint(undefined)).toBeUndefined();
  });

  it('prefers what this browser remembers, and fills in the listed names where it remembers no hint', () => {
    expect(knownOrListed({ kind: 'file', hint: 'passport.jpg' }, ['encrypted.bin'])).toEqual({ kind: 'file', hint: 'passport.jpg' });
    expect(knownOrListed({ kind: 'file' }, ['contract.pdf'])).toEqual({ kind: 'file', hint: 'contract.pdf' });
    expect(knownOrListed(undefined, ['contract.pdf'])).toEqual({ kind: 'file', hint: 'contract.pdf' });
    expect(knownOrListed({ kind: 'url', hint: 'example.com' }, undefined)).toEqual({ kind: 'url', hint: 'example.com' });
    expect(knownOrListed(undefined, undefined)).toBeUndefined();
    const shown = knownOrListed(undefined, ['contract.pdf']);
    expect(pushLabel(null, shown?.kind, shown?.hint)).toBe('File push · contract.pdf');
    expect(pushLabel('Lease', shown?.kind, shown?.hint)).toBe('Lease'); // a name the owner gave wins
  });
});
