// How the browser measurements write their figures (measure-e2e-browser.ts, measure-e2e-extension.ts).
import { browserMemory, type MemoryFigures } from './browser-memory.js';

export const MiB = 1024 ** 2;

export const mib = (n: number) => `${(n / MiB).toFixed(0)} MiB`;

export const memory = (m: MemoryFigures) => `RSS ${mib(m.rss).padStart(9)}  PSS ${mib(m.pss).padStart(9)}  (${m.processes} processes)`;

/** The speed of moving `bytes` in `ms`, and the time. */
export const rate = (bytes: number, ms: number) => `${(bytes / MiB / (ms / 1000)).toFixed(1)} MiB/s (${(ms / 1000).toFixed(1)} s)`;

/** Where the script is, on stderr (a 1 GiB run takes minutes). */
export const stage = (what: string) => process.stderr.write(`  … ${what}\n`);

/** Memory once the browser has had a moment to let go of what a phase used. */
export async function settled(exclude: number[]): Promise<MemoryFigures> {
  await new Promise((r) => setTimeout(r, 2000));
  return browserMemory(exclude);
}
