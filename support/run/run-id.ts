// Owns the run id: `r`, the seconds since 2024 in base 36 (six characters until 2093) and three random ones for
// runs that start in the same second; whole inside every person and consumer id (support/data/factories.ts), which
// the vendor's sandbox caps at 15 characters.
import { randomInt } from 'node:crypto';

/** Set by `npm run contract`: the run id it names in the report's environment. */
export const RUN_ID_VARIABLE = 'CONTRACT_RUN_ID';

export function newRunId(now = Date.now()): string {
  const seconds = Math.floor((now - Date.UTC(2024, 0, 1)) / 1000).toString(36);
  const random = randomInt(36 ** 3).toString(36);
  return `r${seconds.padStart(6, '0')}${random.padStart(3, '0')}`;
}
