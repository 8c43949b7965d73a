/**
 * A waiting time of the extension's pages that the end-to-end tests shorten, so that they need
 * not sit through it (test/e2e/support/extension-suite.ts): read, each time it is armed, from
 * the extension's own localStorage under `secret-push-test-ms:<name>`. Only the extension's
 * pages share that origin (no web page or other add-on can write there) and nothing in the
 * extension writes it, so outside the tests it is absent and the shipped value holds. Read at
 * run time, not fixed at build time: the tests run the build as shipped. localStorage rather
 * than extension storage because the file host (Chromium's offscreen document) has only the
 * runtime API, and a synchronous read keeps the timers' code as it was.
 */
export const testWaitMs = (name: 'file-host-idle' | 'file-host-silence', shipped: number): number =>
  Number(globalThis.localStorage?.getItem(`secret-push-test-ms:${name}`)) || shipped;
