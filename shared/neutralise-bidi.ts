/** Unicode bidirectional controls: embeddings, overrides, isolates and marks. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A name shown to a recipient (an attached file's: by the server's pages, and by the end-to-end
 * page's script, which alone can read an end-to-end file's name), with its bidirectional controls made
 * visible: `invoice\u202Efdp.exe` would otherwise display as "invoiceexe.pdf". Each control
 * becomes a visible `[U+202E]` (or `replacement`).
 */
export function neutraliseBidi(text: string, replacement?: string): string {
  return text.replace(BIDI_CONTROLS, (ch) => replacement ?? `[U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}
