// Real processes: a run killed midway, its process group, and the sweep after it are what this checks.
// The suite leaves nothing behind on a shared sandbox. Against a simulator of the test's own
// (control surface on, reached as a remote target so nothing is torn down with the run): a complete
// contract run leaves zero custom persons; a run killed (SIGKILL) once persons exist leaves persons
// and ledger entries, which the sweep (npm run sweep) then deletes.
import type { ChildProcess } from 'node:child_process';
import { expect, test, type TestContext } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../simulator/listen.js';
import { readSettings, type Credentials } from '../../support/run/config.js';
import { eventually, NotConsistentError } from '../../support/readings/eventually.js';
import { ApiClient, type ApiResponse } from '../../support/transport/http.js';
import { leftovers } from '../../support/data/ledger.js';
import { sweep } from '../../support/run/sweep.js';
import { runVitest, runVitestWithResults, simulatorAsRemoteTarget } from '../../support/run/child-runs.js';
import { ownReports } from './own-reports.js';

// The documented paths: what every path is when no CONTRACT_*_PATH is set.
const DEFAULT_PATHS = readSettings({}, '/nonexistent').paths;

// Deletions are stored when the DELETE is answered, so the zero is normally seen at once; the
// deadline only bounds a run whose cleanup is still on its way.
const SETTLE_TIMEOUT_MS = 30_000;
const CONTRACT = ['--project', 'contract'];

/** A simulator of the test's own, the environment that points a run at it, and what it holds. */
async function leakTarget(context: TestContext) {
  // Few records beside the run's own: lists are not what this checks.
  const simulator: RunningSimulator = await startSimulator({ control: true, backgroundRecords: 40 });
  context.onTestFinished(() => simulator.close());
  const control = new ApiClient({ baseUrl: simulator.baseUrl });
  const reports = ownReports(context);
  const readPersons = () => control.request('GET', '/__control/persons');
  return {
    simulator,
    env: { ...process.env, ...simulatorAsRemoteTarget(simulator), ...reports.env },
    ledger: reports.paths.ledger,
    origin: new URL(simulator.baseUrl).origin,
    readPersons,
    /** The number of custom persons once it reaches zero, or the count last seen when it does not. */
    async personsLeft(what: string): Promise<number> {
      try {
        await eventually(what, readPersons, (response) => personsIn(response) === 0, { timeoutMs: SETTLE_TIMEOUT_MS });
        return 0;
      } catch (error) {
        if (!(error instanceof NotConsistentError)) throw error;
        return personsIn(error.lastResponse);
      }
    },
    async personPuts(): Promise<number> {
      const { counts } = (await control.request('GET', '/__control/requests')).body as {
        counts: Record<string, number>;
      };
      return Object.entries(counts)
        .filter(([route]) => route.startsWith('PUT ') && route.includes('/persons'))
        .reduce((sum, [, n]) => sum + n, 0);
    },
  };
}

const personsIn = (response: ApiResponse): number => (response.body as { persons: unknown[] }).persons.length;

test.concurrent('a complete run leaves no person behind', async (context) => {
  const target = await leakTarget(context);
  const { code, results } = await runVitestWithResults(CONTRACT, target.env);
  const created = await target.personPuts();
  const left = await target.personsLeft('the simulator holds no custom person after a complete run');
  console.log(
    `leak-check: complete run: exit ${code} (${results?.numPassedTests} passed, ${results?.numFailedTests} ` +
      `failed), ${created} person PUT(s); persons left ${left}, ledger leftovers ` +
      `${leftovers(target.origin, target.ledger).length}`,
  );
  expect(created, 'person PUTs (a run that created nobody proves nothing)').toBeGreaterThan(0);
  expect(left, 'persons left after a complete run').toBe(0);
});

test.concurrent('the sweep deletes what a killed run left behind', async (context) => {
  const target = await leakTarget(context);
  let child: ChildProcess | undefined;
  const interrupted = runVitest(CONTRACT, target.env, { processGroup: true, onSpawn: (spawned) => (child = spawned) });
  // vitest's start, global setup and the first PUT take seconds or minutes by how busy the machine is: the wait
  // lasts as long as the run does, and fails only if the run ends first.
  let ended = false;
  const end = () => (ended = true);
  void interrupted.then(end, end);
  try {
    await eventually(
      'the interrupted run has created persons and written them to its ledger',
      target.readPersons,
      (response) => {
        if (personsIn(response) > 0 && leftovers(target.origin, target.ledger).length > 0) return true;
        if (ended) throw new Error('the run ended before it had created persons and written them to its ledger');
        return false;
      },
      { timeoutMs: Number.POSITIVE_INFINITY },
    );
  } finally {
    // The whole process group: a worker left alive would go on cleaning up, which no real kill allows.
    if (child?.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    await interrupted;
  }
  const leftBehind = personsIn(await target.readPersons());
  console.log(
    `leak-check: killed run left ${leftBehind} person(s), ledger leftovers ` +
      `${leftovers(target.origin, target.ledger).length}`,
  );
  expect(leftBehind, 'persons a killed run left (none: the sweep would not be exercised)').toBeGreaterThan(0);

  const clients: Credentials[] = target.simulator.options.clients.map(({ id, secret }) => ({
    clientId: id,
    clientSecret: secret,
  }));
  const swept = await sweep(
    {
      baseUrl: target.simulator.baseUrl,
      authUrl: target.simulator.baseUrl,
      paths: DEFAULT_PATHS,
      prodBaseUrl: undefined,
    },
    clients,
    target.ledger,
  );
  const left = await target.personsLeft('the simulator holds no custom person after the sweep');
  console.log(
    `leak-check: sweep: ${swept.deleted} deleted, ${swept.failed} failed; persons left ${left}, ledger leftovers ` +
      `${leftovers(target.origin, target.ledger).length}`,
  );
  expect(left, 'persons left after the sweep').toBe(0);
  expect(swept.failed, 'persons the sweep could not delete').toBe(0);
});
