import { describe, expect, it } from 'vitest';
import { neutraliseControls } from '../../../shared/neutralise-controls.js';

/** The one rule for text someone else wrote that a reader is shown: file names, request titles and messages. */
describe('neutraliseControls', () => {
  it.each([
    ['invoice\u202Efdp.exe', 'invoice[U+202E]fdp.exe'],
    ['a\u0000b', 'a[U+0000]b'],
    ['\u2066x\u2069\u200F\u061C', '[U+2066]x[U+2069][U+200F][U+061C]'],
    ['bell\u0007 esc\u001B del\u007F c1\u0085', 'bell[U+0007] esc[U+001B] del[U+007F] c1[U+0085]'],
  ])('makes the controls in %j visible', (text, shown) => expect(neutraliseControls(text)).toBe(shown));

  it('keeps tabs, line breaks and ordinary text of any script', () => {
    expect(neutraliseControls('line 1\n\tשלום مرحبا\r\n你好 ü')).toBe('line 1\n\tשלום مرحبا\r\n你好 ü');
  });

  it('uses the replacement when given (a saved file name)', () => expect(neutraliseControls('a\u0000b\u202Ec', '_')).toBe('a_b_c'));
});
