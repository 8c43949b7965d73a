import { describe, expect, it } from 'vitest';
import { sortEnumValues, strnatcmp } from '../../../server/catalogue/natural-sort.js';

describe('strnatcmp (PHP semantics)', () => {
  it.each([
    ['img2', 'img10', -1],
    ['img10', 'img2', 1],
    ['a', 'a', 0],
    ['', 'a', -1],
    ['UnBlock', 'Underline', -1], // case-sensitive: B (0x42) before d (0x64)
    ['LogOut', 'LogoCC', -1],
    ['create', 'create2', -1],
    ['x01', 'x1', -1], // leading zeros compare as fractions
    ['!redirect', 'redirect', -1],
    ['0.10', '0.11', -1],
  ])('%s vs %s → %i', (a, b, sign) => {
    expect(Math.sign(strnatcmp(a, b))).toBe(sign);
  });
});

describe('sortEnumValues', () => {
  it('sorts naturally and moves deprecated values last', () => {
    expect(sortEnumValues(['user', 'parsetree', 'ids', 'comment'], ['parsetree'])).toEqual([
      'comment', 'ids', 'user', 'parsetree',
    ]);
    expect(sortEnumValues(['newusers/create2', 'newusers/create', 'delete/delete_redir2', 'delete/delete_redir'])).toEqual([
      'delete/delete_redir', 'delete/delete_redir2', 'newusers/create', 'newusers/create2',
    ]);
    expect(sortEnumValues(['sysop', '', 'autoconfirmed'])).toEqual(['', 'autoconfirmed', 'sysop']);
  });
});
