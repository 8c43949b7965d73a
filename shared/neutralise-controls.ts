/**
 * Characters that change how the text around them displays, or do not display at all:
 * Unicode's bidirectional controls (embeddings, overrides, isolates, marks), and the C0 and C1
 * control characters (NUL among them) but tab and line breaks.
 */
const INVISIBLE_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text written by someone else and shown to a reader (an attached file's name: by the server's
 * pages, and by the end-to-end page's script, which alone can read an end-to-end file's name; a
 * secret request's title and message), with its invisible controls made visible:
 * `invoice\u202Efdp.exe` would otherwise display as "invoiceexe.pdf". Each control becomes a
 * visible `[U+202E]` (or `replacement`).
 */
export function neutraliseControls(text: string, replacement?: string): string {
  return text.replace(INVISIBLE_CONTROLS, (ch) => replacement ?? `[U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}
