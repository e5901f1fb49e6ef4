// Simulated clock, but for the token service that throttles: real processes there, since such a run stops in global
// setup, in vitest's main process, which a simulated run leaves to its worker (child-runs.ts onSimulatedClock).
// A run against a target that only throttles ends with its failures filed under "Target throttled",
// never under "Contract broken" nor "Target unavailable": a throttled request is the target protecting
// itself from the client's rate. Two ways to be throttled to the deadline: the token
// service answering every request 429 or 503 with Retry-After (the run stops in setup), and a
// target that lets each client's token request through and refuses every later request with 429 and
// a Retry-After past the deadline (every test that sends a request fails, each as throttled). And a
// rate limit that only makes the run long, which fails no test (below).
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from 'vitest';
import { runContract } from './commands.js';
import { categoryCount } from './console-summary.js';
import { ownReports } from './own-reports.js';
import { onSimulatedClock } from '../../support/run/child-runs.js';

// The embedded simulator whatever a .env says; a short deadline, so the run is held to it quickly.
const throttlingTarget = { CONTRACT_BASE_URL: '', CONTRACT_AVAILABILITY_TIMEOUT_MS: '3000' };

test.concurrent.for([
  {
    name: 'the token service answers every request 429 or 503 with Retry-After',
    env: { ...throttlingTarget, SIMULATOR_FAULT_RATE: '1' },
    atLeast: 1,
  },
  {
    name:
      'every request after the token is answered 429 with a Retry-After past the deadline (a limit of one request ' +
      'per 20 s)',
    env: { ...throttlingTarget, ...onSimulatedClock(), SIMULATOR_RATE_LIMIT: '0.05' },
    atLeast: 20,
  },
])('a run ends as "Target throttled", with no broken rule, when $name', async ({ env, atLeast }, context) => {
  const { code, output: raw } = await runContract([], { ...process.env, ...env, ...ownReports(context).env });
  const output = stripVTControlCharacters(raw);
  const line = /Target throttled: [^\n]*/.exec(output)?.[0];
  console.log(
    `target-throttled: exit ${code}; ${categoryCount(output, 'Target throttled')} throttled; ` +
      `${line?.slice(0, 300) ?? '(no target-throttled line)'}`,
  );
  expect(code, 'the run exits non-zero').not.toBe(0);
  expect(line, 'a message that names the request, the rate it was held to and the setting to lower').toMatch(
    /(still answered (429|503) to|held) (GET|PUT|POST|DELETE) .* held to .*Set CONTRACT_MAX_RPS/,
  );
  expect(categoryCount(output, 'Target throttled'), 'results filed under "Target throttled"').toBeGreaterThanOrEqual(
    atLeast,
  );
  expect(categoryCount(output, 'Contract broken'), 'results filed under "Contract broken"').toBe(0);
  expect(categoryCount(output, 'Target unavailable'), 'results filed under "Target unavailable"').toBe(0);
  expect(categoryCount(output, 'Configuration error'), 'results filed under "Configuration error"').toBe(0);
});

// A rate limit no request is throttled to its deadline by, that still makes the run long: at ten
// records a page (the vendor's layout) every list read to its end is a request a page, each waiting
// its turn at 5 a second; over 300 records a read of a list is 30 pages or more, and the watches'
// reads take longer than their own 30 s. Their turn at the rate and their lists' pages are not
// their time: they pass, and the console says why (charged for them, the run fails). A 10 s
// deadline for effects keeps their own work (their waits, a watch as long as its control) far
// inside their own time.
test('tests queued for a rate limit past their own time pass, never throttled nor timed out', async (context) => {
  const env = {
    ...onSimulatedClock(),
    SIMULATOR_LAYOUT: 'vendor',
    SIMULATOR_RATE_LIMIT: '5',
    SIMULATOR_BACKGROUND_RECORDS: '300',
    CONTRACT_TEST_TIMEOUT_MS: '30000',
    CONTRACT_AVAILABILITY_TIMEOUT_MS: '10000',
  };
  const watches = ['specs/consumers/list-uploaded-only.spec.ts', 'specs/consumers/subscribed-only.spec.ts'];
  const { code, output: raw } = await runContract(watches, { ...process.env, ...env, ...ownReports(context).env });
  const output = stripVTControlCharacters(raw);
  console.log(
    `target-throttled, tests queued: exit ${code}; ${categoryCount(output, 'Target throttled')} throttled, ` +
      `${categoryCount(output, 'Test errors')} test errors`,
  );
  expect(output).toMatch(/The target's rate makes this run take longer: \d+ request\(s\) so far/);
  expect(categoryCount(output, 'Target throttled'), 'results filed under "Target throttled"').toBe(0);
  expect(categoryCount(output, 'Test errors'), 'tests that timed out in no category').toBe(0);
  expect(code, `the run passes; its console ended: ${output.slice(-1_500)}`).toBe(0);
});
