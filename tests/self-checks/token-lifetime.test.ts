// Simulated clock: token lifetimes and renewals are time, which a run's simulator and specs share
// (child-runs.ts onSimulatedClock); every run of this file in one vitest process (planned-runs.ts), a run of the whole
// suite against 2 s tokens taking a second or two.
// Tokens for any lifetime: the token service says how long a token lives (`expires_in`), and the
// suite must stay green and frugal whatever it says. Each run goes against a simulator of its own
// that issues tokens of one lifetime; the simulator counts the tokens it issued.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { SimulatorReport } from '../../support/run/child-runs.js';
import { SIMULATOR_REPORT_VARIABLE } from '../../support/run/global-setup.js';
import { failuresIn, plannedRuns } from './planned-runs.js';

const LIFETIMES = [
  // One per client: the run's tokens come from its setup and outlive the run.
  { tokenTtlSeconds: 3600, atMost: 2, atLeast: undefined, bound: 'at most 2' },
  // The bar: a 20 s token service once got a token request per API call.
  { tokenTtlSeconds: 20, atMost: 30, atLeast: undefined, bound: 'at most 30' },
  // Tokens expire several times during the run (its files at once): renewal is exercised, not only counted.
  { tokenTtlSeconds: 2, atMost: undefined, atLeast: 3, bound: 'at least 3' },
];

const scratch = mkdtempSync(join(tmpdir(), 'token-lifetime-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
/** Where each run's simulator writes what it served, the tokens it issued among it. */
const served = (tokenTtlSeconds: number) => join(scratch, `${tokenTtlSeconds}.json`);

const runs = plannedRuns(
  LIFETIMES.map(({ tokenTtlSeconds }) => ({
    name: `tokens:${tokenTtlSeconds}`,
    specs: ['specs/**/*.spec.ts'],
    // Tokens are what is counted, not lists: 40 records of others, not 1,500 made for every run.
    env: {
      SIMULATOR_TOKEN_TTL_S: String(tokenTtlSeconds),
      SIMULATOR_BACKGROUND_RECORDS: '40',
      [SIMULATOR_REPORT_VARIABLE]: served(tokenTtlSeconds),
    },
  })),
);

test.concurrent.for(LIFETIMES)(
  'a run against $tokenTtlSeconds s tokens stays green ($bound tokens issued)',
  async ({ tokenTtlSeconds, atMost, atLeast }) => {
    const files = await runs.filesOf(`tokens:${tokenTtlSeconds}`);
    const { tokensIssued } = JSON.parse(readFileSync(served(tokenTtlSeconds), 'utf8')) as SimulatorReport;
    const passed = files.flatMap((file) => file.assertionResults).filter((test) => test.status === 'passed');
    console.log(
      `token lifetime ${tokenTtlSeconds} s: ${passed.length} passed; ${tokensIssued} token(s) issued for 2 clients`,
    );
    expect(failuresIn(files)).toEqual([]);
    expect(passed.length, 'tests that passed').toBeGreaterThan(0);
    const { code, output } = await runs.finished();
    expect(code, `every run passed, and nothing failed outside a test:\n${output.slice(-3000)}`).toBe(0);
    if (atMost !== undefined) expect(tokensIssued, 'tokens issued in the whole run').toBeLessThanOrEqual(atMost);
    if (atLeast !== undefined)
      expect(tokensIssued, 'tokens issued in the whole run: some renewed').toBeGreaterThanOrEqual(atLeast);
  },
);
