// Owns the spec API: `rule(id).test(title, body)`, a documented rule as a test labelled from the catalogue whose
// failures name that rule; the context it hands each test, its fixtures, each declared once with scope and cleanup;
// and the phases a spec reads in, Given, When and Then, whose failures say which step broke.
import { appendFileSync } from 'node:fs';
import { expect, inject, test as base, type TestAPI, type TestContext } from 'vitest';
import type { ContractConfig, Credentials } from '../run/config.js';
import { ApiClient } from '../transport/http.js';
import type { Dispatcher } from 'undici';
import { systemClock, type Clock } from '../transport/clock.js';
import { sharedPace } from '../transport/pace.js';
import { registerCredentials, TokenProvider, type IssuedToken } from '../run/tokens.js';
import { createDataFactory } from '../data/factories.js';
import { SandboxPersons } from './persons.js';
import { ConsumerData } from './consumers.js';
import { ListScans } from '../readings/list-scan.js';
import { AmlScreening } from './screening.js';
import { onWait } from '../readings/eventually.js';
import { LearnedFacts } from '../layout/learned-readings.js';
import { attachExchanges, attachText, labels, labelVerdict, step, type StepBody } from '../evidence/report.js';
import { RunTime, TestWork } from '../evidence/test-time.js';
import { registerSecret } from '../transport/redact.js';
import { proxySettings } from '../transport/proxy-routes.js';
import { recordObservations } from '../evidence/observed/recorder.js';
import { OBSERVED_DIR } from '../run/paths.js';
import { operationById, ruleById, ruleSource } from '../run/catalogue.js';
import { attributeToRule, PreconditionError, StepFailure, type Phase } from '../evidence/failures.js';

/** How this worker's requests travel and what time they read: the network and the system clock, unless simulated. */
export interface Transport {
  clock: Clock;
  dispatcher?: Dispatcher;
  random?: () => number;
}

/** A client's calls and token renewals share one pace (support/transport/pace.ts), screening token's included. */
function clientFor(
  config: ContractConfig,
  { clock, dispatcher, random }: Transport,
  credentials: Credentials,
  token: IssuedToken,
  scope?: string,
): ApiClient {
  const limits = { maxRps: config.maxRps, deadlineMs: config.availabilityTimeoutMs };
  const renewal = { ...limits, scope, clock, dispatcher, random };
  return new ApiClient({
    baseUrl: config.baseUrl,
    addressSetting: 'CONTRACT_BASE_URL',
    requestTimeoutMs: config.requestTimeoutMs,
    deadlineMs: limits.deadlineMs,
    clock,
    dispatcher,
    random,
    pace: sharedPace(new URL(config.baseUrl).origin, credentials.clientId, clock, config.maxRps),
    auth: { kind: 'bearer', tokens: new TokenProvider(config.authUrl, credentials, token, renewal) },
  });
}

/**
 * The run global setup resolved, as this worker reads it, or, on a simulated clock, the run against the simulator this
 * worker builds (support/run/global-setup.ts `startSimulatedRun`); its secrets go to the redaction point first.
 */
async function readRun(onCleanup: (cleanup: () => Promise<void>) => void) {
  const simulated = inject('simulatedRun');
  let transport: Transport = { clock: systemClock };
  let run: ReturnType<typeof inject<'contract'>>;
  // A file's own variables reach only a simulator built here: global setup's serves the project's.
  if (FILE_RUNS && !simulated) throw new Error('runs of a spec file each need CONTRACT_SIMULATED_CLOCK=1');
  if (simulated) {
    const { startSimulatedRun } = await import('../run/global-setup.js');
    const fileEnv = FILE_RUNS?.[expect.getState().testPath!];
    const started = await startSimulatedRun(simulated, { ...process.env, ...fileEnv });
    onCleanup(() => started.close());
    ({ run, transport } = started);
  } else run = inject('contract');
  for (const credentials of [run.config.client, run.config.secondClient])
    if (credentials) registerCredentials(credentials);
  for (const token of [run.tokens.primary, run.tokens.second, run.tokens.screening]) registerSecret(token?.accessToken);
  proxySettings(); // registers the proxy's credentials, if its address has any
  return { ...run, transport };
}

// A fixture is built for the tests that destructure it (or a fixture they use), as vitest's `test.extend` does; the few
// that every test of the worker needs are automatic, each saying why.
// Where each spec file is a run of its own (the mutant matrix's, support/run/project-plan.ts), run after run in one
// worker, what a run holds is the file's: its simulator, clients, scans and account. Typed as the worker's scope, the
// stricter: what a worker's fixture may use, a file's may use too.
const FILE_RUNS = inject('fileRuns');
const WORKER = { scope: (FILE_RUNS ? 'file' : 'worker') as 'worker' };
const EVERY_WORKER = { ...WORKER, auto: true };

const test = base
  // Automatic: the run's secrets reach the redaction point before anything is reported, whatever a test asks for.
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from its destructuring.
  .extend('run', EVERY_WORKER, ({}, { onCleanup }) => readRun(onCleanup))
  // How this worker's requests travel, and the clock its tests read: the network and the system clock, or the
  // in-process simulator and the simulated clock it shares. A spec that sends a request of its own sends it with these.
  .extend('transport', WORKER, ({ run }): Transport => run.transport)
  .extend('clock', WORKER, ({ transport }) => transport.clock)
  // The run's account in this worker: every request, and how fast the target let them go (a test's own time).
  // Automatic: every test's work is charged to it.
  .extend('runTime', EVERY_WORKER, ({ clock }) => new RunTime(clock))
  // The one place this worker's observers subscribe: report evidence and the run's account always, the observed
  // contract when the run writes reports, the wait log when npm run bench sets CONTRACT_WAIT_LOG. Automatic: no test
  // asks for it, and every request must be seen.
  .extend('observers', EVERY_WORKER, ({ runTime }, { onCleanup }) => {
    const waitLog = process.env.CONTRACT_WAIT_LOG;
    const unsubscribe = [
      attachExchanges(),
      runTime.countExchanges(),
      process.env.CONTRACT_REPORTS === '1' ? recordObservations(OBSERVED_DIR) : undefined,
      waitLog ? onWait((wait) => appendFileSync(waitLog, `${JSON.stringify(wait)}\n`)) : undefined,
    ];
    onCleanup(() => unsubscribe.forEach((stop) => stop?.()));
  })
  .extend('config', WORKER, ({ run }) => run.config)
  // The target's facts, each read where its layout file says, or by key names and journalled when the run learns.
  .extend('facts', WORKER, ({ run }) => new LearnedFacts(run.layout?.file, run.learning?.journal))
  // Each client of the run, its pace and token shared by every test: the run's own work (cleanup, renewals).
  .extend('clients', WORKER, ({ run }) => {
    const { config, tokens } = run;
    const { transport } = run;
    const primary = clientFor(config, transport, config.client, tokens.primary);
    const second = config.secondClient && tokens.second;
    return {
      primary,
      second: second ? clientFor(config, transport, config.secondClient!, second) : undefined,
      // Screening calls carry a token of their own when CONTRACT_SCREENING_SCOPE names the vendor's screening scope.
      screening: tokens.screening
        ? clientFor(config, transport, config.client, tokens.screening, config.screeningScope)
        : primary,
    };
  })
  // The test's work: its requests stop when it ends (its body settled, or vitest's `signal` cancelled it), and its
  // own time is counted (support/evidence/test-time.ts). Automatic: `rule(id).test` runs every body as its work.
  .extend('work', { auto: true }, ({ task, signal, runTime }) => {
    const limits = { ownTimeMs: inject('testOwnTimeMs'), backstopMs: task.timeout };
    return new TestWork(`${task.file.name} > ${task.name}`, signal, runTime, limits);
  })
  .extend('api', ({ clients, work }) => clients.primary.forWork(work))
  .extend('secondApi', ({ clients, work }): ApiClient | undefined => clients.second?.forWork(work))
  .extend('data', ({ config, work }) => createDataFactory({ ...config, scope: work.name }))
  .extend('persons', async ({ api, config, data, facts }, { onCleanup }) => {
    const persons = new SandboxPersons(api, config, data, facts);
    onCleanup(() => persons.cleanUp());
    return persons;
  })
  // The second client's own persons (write-isolation checks), cleaned up alike; undefined without a second client.
  .extend('secondPersons', async ({ secondApi, config, data, facts }, { onCleanup }) => {
    if (!secondApi || !config.secondClient) return undefined;
    const persons = new SandboxPersons(secondApi, { ...config, client: config.secondClient }, data, facts);
    onCleanup(() => persons.cleanUp());
    return persons;
  })
  // The run's scan of each of its lists, one read in flight per list, which every wait on it reads.
  .extend('scans', WORKER, ({ clients }) => new ListScans(clients.primary))
  .extend('consumers', ({ api, config, facts, scans }) => new ConsumerData(api, config, facts, scans))
  .extend('screeningApi', ({ clients, work }) => clients.screening.forWork(work))
  .extend('screening', ({ screeningApi, config }) => new AmlScreening(screeningApi, config))
  // Skips the test with a reason that shows in the console and in the report, not only in a count.
  .extend('skipBecause', ({ skip, task }) => async (reason: string): Promise<never> => {
    console.warn(`skipped: ${task.name}: ${reason}`);
    await attachText('Why this test was skipped', reason);
    return skip(reason);
  });

/** Every fixture above, by name. */
export type ContractContext = typeof test extends TestAPI<infer Fixtures> ? Fixtures : never;

/**
 * `rule('transition.delete').test('…', async ({ persons }) => …)`, labelled epic = interface, feature = operation,
 * story = rule. The test passes when its body does. Its failure's verdict is `rule`'s alone (`attributeToRule`,
 * support/evidence/failures.ts): an assertion or a wait's timeout (the availability deadline,
 * `CONTRACT_AVAILABILITY_TIMEOUT_MS`, 30 s by default) in a When or Then breaks this rule (`Broken rule <id> (…):
 * Then "<step>": …`); a Given that failed is a precondition not met, and so is another rule's promise a verb checks
 * when that failure decides nothing of this rule (a new person never retrievable); the target, a setting, a
 * permission, or the test's own time running out (120 s, `CONTRACT_TEST_TIMEOUT_MS`: "Out of time", or "Target
 * throttled") is a category of its own; a crash is a suite error. Every request a verb sends may be sent again as it
 * was (method, path, body) on a 429, 502, 503 or 504 or a dropped connection, by support/transport/retry.ts
 * `RETRY_POLICY` (a POST only on a 429 or 503, or a connection refused or unresolved), and once more after a 401.
 */
export function rule(id: string) {
  const entry = ruleById(id);
  const operation = operationById(entry.operations[0]!);
  return {
    test(title: string, body: (context: TestContext & ContractContext) => Promise<void>): void {
      const ruleTest = async (context: TestContext & ContractContext): Promise<void> => {
        await labels({
          epic: entry.epic ?? operation.epic,
          feature: entry.epic ? entry.id : operation.feature,
          story: `${entry.id}: ${entry.quote}`,
          severity: entry.severity,
          run: context.run.config.runId,
          links: [ruleSource(entry)],
        });
        try {
          // Its requests stop when it ends, out of time as well.
          await context.work.run(() => body(context));
        } catch (error) {
          const verdict = attributeToRule(error, id);
          await labelVerdict(verdict);
          throw verdict;
        }
      };
      test(title, askingAs(body, ruleTest));
    },
  };
}

/**
 * `run`, asking vitest for the fixtures `body` asks for. vitest builds a test's fixtures from the destructuring of its
 * function's first parameter, read from the function's text, and hands the test its context with them in it; `run`
 * (the rule's labels, its work, its verdict) takes that context whole, so it shows vitest the spec's body instead.
 * tests/unit/contract.test.ts checks that a rule's test gets what its body destructures, and nothing it does not.
 */
export function askingAs<Context>(
  body: (context: Context) => unknown,
  run: (context: Context) => Promise<void>,
): (context: Context) => Promise<void> {
  return Object.defineProperty(run, 'toString', { value: () => body.toString() });
}

// Capitalised, as the phases read in the report (a module exporting `then` is a thenable namespace, which vitest's
// module runner would call). A failure inside a Given step did not test the rule: it is a precondition not met.
export function Given<T>(name: string, body: StepBody<T>): Promise<T> {
  return step(`Given ${name}`, body).catch((error: unknown) => {
    throw error instanceof PreconditionError ? error : new PreconditionError(`Given ${name}`, error);
  });
}

/** A failure in a When or Then step says which step it was, for the verdict of `rule(id).test`; the innermost wins. */
function phaseStep<T>(phase: Phase, name: string, body: StepBody<T>): Promise<T> {
  return step(`${phase} ${name}`, body).catch((error: unknown) => {
    throw error instanceof StepFailure || error instanceof PreconditionError
      ? error
      : new StepFailure(phase, name, error);
  });
}

export const When = <T>(name: string, body: StepBody<T>): Promise<T> => phaseStep('When', name, body);

export const Then = <T>(name: string, body: StepBody<T>): Promise<T> => phaseStep('Then', name, body);
