/**
 * A seeded pseudo-random source for generated test inputs (fuzzers, generated corpora): the same
 * seed gives the same sequence on every platform, so a failure or a recorded corpus can be
 * reproduced from its seed. mulberry32: small and fast; not for anything secret.
 */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}

export type SeededRandom = ReturnType<typeof seededRandom>;
