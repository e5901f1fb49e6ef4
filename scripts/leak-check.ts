/**
 * npm run leak-check: proves the suite leaves nothing behind on a shared sandbox. Against one
 * simulator (control surface on, reached as a remote target so nothing is torn down with the run):
 *   1. a complete contract run, after which the simulator holds zero custom persons;
 *   2. a run killed (SIGKILL) once persons exist, which leaves persons and ledger entries behind;
 *      `sweep` (npm run sweep) then deletes them, and the simulator holds zero again.
 * Prints the counts; exits non-zero when a person outlives a complete run or a sweep.
 */
import type { ChildProcess } from 'node:child_process';
import { startSimulator } from '../simulator/listen.js';
import type { Credentials } from '../support/config.js';
import { eventually, NotConsistentError } from '../support/eventually.js';
import { ApiClient, type ApiResponse } from '../support/http.js';
import { leftovers } from '../support/ledger.js';
import { sweep } from './sweep.js';
import { simulatorAsRemoteTarget } from './simulator-target.js';
import { runVitest, vitestCounts } from './vitest-run.js';

// Deletions are stored when the DELETE is answered, so the zero is normally seen at once; the
// deadline only bounds a run whose cleanup is still on its way.
const SETTLE_TIMEOUT_MS = 30_000;
// vitest's start, global setup and the first PUT: seconds on a loaded two-core machine.
const FIRST_PERSONS_TIMEOUT_MS = 120_000;

const simulator = await startSimulator({ control: true });
const target = new URL(simulator.baseUrl).origin;
const clients: Credentials[] = simulator.options.clients.map(({ id, secret }) => ({ clientId: id, clientSecret: secret }));
const env: NodeJS.ProcessEnv = { ...process.env, ...simulatorAsRemoteTarget(simulator) };
const contractArgs = ['--project', 'contract'];

const control = new ApiClient({ baseUrl: simulator.baseUrl });
const readPersons = () => control.request('GET', '/__control/persons');
const personsIn = (response: ApiResponse): number => (response.body as { persons: unknown[] }).persons.length;

interface Settled {
  zero: boolean;
  seen: number;
  attempts: number;
}

/** Waits until the simulator holds no custom person; the count actually seen when it does not. */
async function settlesAtZero(what: string): Promise<Settled> {
  try {
    const { attempts } = await eventually(what, readPersons, (response) => personsIn(response) === 0, { timeoutMs: SETTLE_TIMEOUT_MS });
    return { zero: true, seen: 0, attempts };
  } catch (error) {
    if (!(error instanceof NotConsistentError)) throw error;
    return { zero: false, seen: personsIn(error.lastResponse), attempts: error.attempts };
  }
}

const settled = ({ zero, seen, attempts }: Settled): string =>
  `persons left ${seen} ${zero ? `(zero at attempt ${attempts})` : `after ${attempts} attempt(s)`}`;

async function putRequests(): Promise<number> {
  const { counts } = (await control.request('GET', '/__control/requests')).body as { counts: Record<string, number> };
  return Object.entries(counts).filter(([route]) => route.startsWith('PUT ') && route.includes('/persons')).reduce((sum, [, n]) => sum + n, 0);
}

const failures: string[] = [];
try {
  // 1. A complete run.
  const complete = await runVitest(contractArgs, env, { quiet: true });
  const { passed, failed } = vitestCounts(complete.output);
  const created = await putRequests();
  const afterRun = await settlesAtZero('the simulator holds no custom person after a complete run');
  const ledgerAfterRun = leftovers(target).length;
  console.log(
    `leak-check: complete run: exit ${complete.code} (${passed} passed, ${failed} failed), ${created} person PUT(s); ` +
      `${settled(afterRun)}, ledger leftovers ${ledgerAfterRun}`,
  );
  if (created === 0) failures.push('the complete run created no person, so it proves nothing');
  if (!afterRun.zero) failures.push(`${afterRun.seen} person(s) outlived a complete run`);

  // 2. A run killed once persons exist and the ledger names them.
  let child: ChildProcess | undefined;
  const interrupted = runVitest(contractArgs, env, { quiet: true, processGroup: true, onSpawn: (spawned) => (child = spawned) });
  let seenBeforeKill: number;
  try {
    ({ value: seenBeforeKill } = await eventually(
      'the interrupted run has created persons and written them to its ledger',
      readPersons,
      (response) => {
        const persons = personsIn(response);
        return persons > 0 && leftovers(target).length > 0 ? persons : undefined;
      },
      { timeoutMs: FIRST_PERSONS_TIMEOUT_MS },
    ));
  } finally {
    // The whole process group: a worker left alive would go on cleaning up, which no real kill allows.
    if (child?.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    await interrupted;
  }
  const leftBehind = personsIn(await readPersons());
  const ledgerLeftovers = leftovers(target);
  console.log(
    `leak-check: interrupted run: SIGKILL with ${seenBeforeKill} person(s) on the simulator; ` +
      `persons left ${leftBehind}, ledger leftovers ${ledgerLeftovers.length} in ${new Set(ledgerLeftovers.map((entry) => entry.file)).size} ledger(s)`,
  );
  if (leftBehind === 0) failures.push('the killed run left no person behind, so the sweep was not exercised');

  const swept = await sweep(simulator.baseUrl, simulator.baseUrl, clients, undefined);
  const afterSweep = await settlesAtZero('the simulator holds no custom person after the sweep');
  console.log(
    `leak-check: sweep: ${swept.deleted} deleted, ${swept.failed} failed; ` +
      `${settled(afterSweep)}, ledger leftovers ${leftovers(target).length}`,
  );
  if (!afterSweep.zero) failures.push(`${afterSweep.seen} person(s) outlived the sweep`);
} finally {
  await simulator.close();
}

console.log(failures.length ? `leak-check: FAIL: ${failures.join('; ')}` : 'leak-check: PASS: nothing outlived a complete run, and the sweep removed what a killed run left');
process.exitCode = failures.length ? 1 : 0;
