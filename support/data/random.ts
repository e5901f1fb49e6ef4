// Owns the suite's one seeded random source: faker's own generator, seeded. Every reproducible draw
// of test data (names, dates, legal ids) comes from a stream made here, so a printed seed replays it.
import { newFaker } from './fakers.js';

/** Numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  const faker = newFaker('base', seed);
  return () => faker.number.float();
}
