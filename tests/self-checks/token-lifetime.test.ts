// Simulated clock: token lifetimes and renewals are time, which a run's simulator and specs share
// (child-runs.ts onSimulatedClock); a run of the whole suite against 2 s tokens takes a second or two.
// Tokens for any lifetime: the token service says how long a token lives (`expires_in`), and the
// suite must stay green and frugal whatever it says. Each run goes against a simulator of its own
// that issues tokens of one lifetime; the simulator counts the tokens it issued.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { onSimulatedClock, runVitestWithResults, type SimulatorReport } from '../../support/run/child-runs.js';
import { ownReports } from './own-reports.js';

test.concurrent.for([
  // One per client: the run's tokens come from its setup and outlive the run.
  { tokenTtlSeconds: 3600, atMost: 2, atLeast: undefined, bound: 'at most 2' },
  // The bar: a 20 s token service once got a token request per API call.
  { tokenTtlSeconds: 20, atMost: 30, atLeast: undefined, bound: 'at most 30' },
  // Tokens expire several times during the run (its files at once): renewal is exercised, not only counted.
  { tokenTtlSeconds: 2, atMost: undefined, atLeast: 3, bound: 'at least 3' },
])(
  'a run against $tokenTtlSeconds s tokens stays green ($bound tokens issued)',
  async ({ tokenTtlSeconds, atMost, atLeast }, context) => {
    const scratch = mkdtempSync(join(tmpdir(), 'token-lifetime-'));
    context.onTestFinished(() => rmSync(scratch, { recursive: true, force: true }));
    const report = join(scratch, 'simulator.json');
    const { code, output, results } = await runVitestWithResults(['--project', 'contract'], {
      ...process.env,
      ...onSimulatedClock(report),
      SIMULATOR_TOKEN_TTL_S: String(tokenTtlSeconds),
      ...ownReports(context).env,
    });
    const { tokensIssued } = JSON.parse(readFileSync(report, 'utf8')) as SimulatorReport;
    console.log(
      `token lifetime ${tokenTtlSeconds} s: exit ${code}, ${results?.numPassedTests ?? 0} passed, ` +
        `${results?.numFailedTests ?? 0} failed; ${tokensIssued} token(s) issued for 2 clients`,
    );
    expect(results?.numFailedTests, output.slice(-3000)).toBe(0);
    expect(code).toBe(0);
    if (atMost !== undefined) expect(tokensIssued, 'tokens issued in the whole run').toBeLessThanOrEqual(atMost);
    if (atLeast !== undefined)
      expect(tokensIssued, 'tokens issued in the whole run: some renewed').toBeGreaterThanOrEqual(atLeast);
  },
);
