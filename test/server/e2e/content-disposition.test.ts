import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../../../shared/content-disposition.js';

/** Reads filename* back as a browser does (RFC 8187): the charset, an empty language, the encoded value. */
function decodedExtValue(header: string): string {
  const m = /; filename\*=UTF-8''([^;\s]*)$/.exec(header);
  if (!m) throw new Error(`no filename* in ${header}`);
  // Every character left unencoded must be an RFC 8187 attr-char.
  expect(m[1]).toMatch(/^(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})*$/);
  return decodeURIComponent(m[1]!);
}

const fallback = (header: string) => /^attachment; filename="([^"]*)"; /.exec(header)![1];

describe('attachmentDisposition', () => {
  it('keeps a plain ASCII name as it is in both parameters', () => {
    expect(attachmentDisposition('report-2024.pdf')).toBe(`attachment; filename="report-2024.pdf"; filename*=UTF-8''report-2024.pdf`);
  });

  it('carries any script in filename*, and an ASCII stand-in in filename', () => {
    const name = 'Überweisung – 東京 😀.txt';
    const header = attachmentDisposition(name);
    expect(decodedExtValue(header)).toBe(name);
    expect(fallback(header)).toBe('_berweisung _ __ __.txt');
  });

  it("percent-encodes what encodeURIComponent leaves but RFC 8187 does not allow (' ( ) *)", () => {
    const name = "it's (final) *copy*.doc";
    const header = attachmentDisposition(name);
    expect(header).toContain(`filename*=UTF-8''it%27s%20%28final%29%20%2Acopy%2A.doc`);
    expect(decodedExtValue(header)).toBe(name);
    expect(fallback(header)).toBe("it's (final) *copy*.doc");
  });

  it('nothing in a name can end the quoted string or the header', () => {
    const header = attachmentDisposition('a"b\\c\r\nSet-Cookie: x=1;.txt');
    expect(header).not.toMatch(/[\r\n]/);
    expect(fallback(header)).toBe('a_b_c__Set-Cookie: x=1;.txt');
    expect(decodedExtValue(header)).toBe('a"b_c__Set-Cookie: x=1;.txt');
  });

  it('a path is not a name: separators become _', () => {
    expect(decodedExtValue(attachmentDisposition('../../etc/passwd'))).toBe('.._.._etc_passwd');
  });

  it('a lone surrogate (not encodable as UTF-8) becomes U+FFFD instead of throwing', () => {
    expect(decodedExtValue(attachmentDisposition('a\uD800b.txt'))).toBe('a\uFFFDb.txt');
  });

  it('an empty or blank name gets a stand-in', () => {
    expect(attachmentDisposition('')).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
    expect(fallback(attachmentDisposition('  \t '))).toBe('download');
  });
});
