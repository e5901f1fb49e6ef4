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

/**
 * A generator for one request, keyed by the seed, what was asked (`key`: method and URL) and how many times it was
 * asked before: draws made for it repeat whatever order requests arrive in, so a replayed run meets the same faults.
 */
export function keyedRandom(seed: number, key: string, occurrence: number): Random {
  // FNV-1a over the key and its occurrence, mixed with the seed: a fresh stream per request.
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (const char of `${key}#${occurrence}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return seededRandom(hash);
}

/** Version-4-shaped UUIDs from `random`: ids that repeat with the seed, so a replayed run asks for the same URLs. */
export function seededUuids(random: Random): () => string {
  return () => {
    const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
    hex[12] = '4';
    hex[16] = ((Math.floor(random() * 4) & 0x3) | 0x8).toString(16);
    const text = hex.join('');
    return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
  };
}
