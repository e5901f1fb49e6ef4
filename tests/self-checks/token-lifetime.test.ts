// Tokens for any lifetime: the token service says how long a token lives (`expires_in`), and the
// suite must stay green and frugal whatever it says. Each run goes against a simulator of its own
// that issues tokens of one lifetime; the simulator counts the tokens it issued.
import { expect, test } from 'vitest';
import { startSimulator } from '../../simulator/listen.js';
import { ApiClient } from '../../support/transport/http.js';
import { runVitestWithResults, simulatorAsRemoteTarget } from '../../support/run/child-runs.js';
import { ownReports } from './own-reports.js';

test.concurrent.for([
  // One per client: the run's tokens come from global setup and outlive the run.
  { tokenTtlSeconds: 3600, atMost: 2, atLeast: undefined, bound: 'at most 2' },
  // The bar: a 20 s token service once got a token request per API call.
  { tokenTtlSeconds: 20, atMost: 30, atLeast: undefined, bound: 'at most 30' },
  // Tokens expire several times during the run (a few seconds, its files at once): renewal is
  // exercised, not only counted.
  { tokenTtlSeconds: 2, atMost: undefined, atLeast: 3, bound: 'at least 3' },
])(
  'a run against $tokenTtlSeconds s tokens stays green ($bound tokens issued)',
  async ({ tokenTtlSeconds, atMost, atLeast }, context) => {
    const simulator = await startSimulator({ control: true, tokenTtlSeconds });
    context.onTestFinished(() => simulator.close());
    const { code, output, results } = await runVitestWithResults(['--project', 'contract'], {
      ...process.env,
      ...simulatorAsRemoteTarget(simulator),
      ...ownReports(context).env,
    });
    const { tokensIssued } = (await new ApiClient({ baseUrl: simulator.baseUrl }).request('GET', '/__control/requests'))
      .body as { tokensIssued: number };
    console.log(
      `token lifetime ${tokenTtlSeconds} s: exit ${code}, ${results?.numPassedTests ?? 0} passed, ` +
        `${results?.numFailedTests ?? 0} failed; ${tokensIssued} token(s) issued for ` +
        `${simulator.options.clients.length} clients`,
    );
    expect(results?.numFailedTests, output.slice(-3000)).toBe(0);
    expect(code).toBe(0);
    if (atMost !== undefined) expect(tokensIssued, 'tokens issued in the whole run').toBeLessThanOrEqual(atMost);
    if (atLeast !== undefined)
      expect(tokensIssued, 'tokens issued in the whole run: some renewed').toBeGreaterThanOrEqual(atLeast);
  },
);
