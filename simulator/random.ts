/**
 * A small seeded generator (mulberry32): the same seed gives the same jitter, faults and
 * background records, so a failing run can be replayed with SIMULATOR_SEED.
 */
export type Random = () => number;

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** A delay of `baseMs` ± `share` of it, so no client can rely on one fixed wait. */
export function jittered(baseMs: number, share: number, random: Random): number {
  return Math.round(baseMs * (1 + share * (2 * random() - 1)));
}
