// Owns the run's setup: the target (the embedded simulator unless configured) and one token per client.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Stage, Status } from 'allure-js-commons';
import { createTestResult, FileSystemWriter } from 'allure-js-commons/sdk/reporter';
import type { ProvidedContext } from 'vitest';
import type { TestProject } from 'vitest/node';
import type { Dispatcher } from 'undici';
import type { Clock } from '../transport/clock.js';
import { SIMULATED_EPOCH_MS, SimulatedClock } from '../transport/clock.js';
import { InProcessDispatcher } from '../transport/proxy-routes.js';
import type { RunningSimulator } from '../../simulator/listen.js';
import {
  newRunId,
  readSettings,
  resolveConfig,
  RUN_ID_VARIABLE,
  SECOND_CLIENT_VARIABLES,
  type ContractConfig,
  type CredentialVariables,
  type Credentials,
  type LayoutPlan,
} from './config.js';
import { redact, redactText } from '../transport/redact.js';
import { ALLURE_RESULTS_DIR, OBSERVED_DIR, reportsOf } from './paths.js';
import { recordObservations } from '../evidence/observed/recorder.js';
import { requestToken, TokenError, type IssuedToken } from './tokens.js';
import { BrokenRuleError } from '../evidence/failures.js';
import type { HttpExchange } from '../transport/exchanges.js';
import { readLayoutFile, type LayoutFile } from '../layout/layout-file.js';
import { provisional } from '../layout/learning-journal.js';

/** The layout file of the run: CONTRACT_LAYOUT's, the embedded simulator's own for its options, or none (learning). */
async function layoutOf(plan: LayoutPlan, simulator: Pick<RunningSimulator, 'options'> | undefined) {
  if (plan.kind === 'read') return { path: plan.path, file: readLayoutFile(plan.path) };
  if (plan.kind === 'learn' || !simulator) return undefined;
  const { simulatorLayoutFile } = await import('../../simulator/layouts/layout-files.js');
  const own = simulatorLayoutFile(simulator.options);
  return { path: own, file: readLayoutFile(own, "the simulator's layout file") };
}

declare module 'vitest' {
  export interface ProvidedContext {
    contract: {
      config: ContractConfig;
      /** One token per client, and one of the first client's for screening when CONTRACT_SCREENING_SCOPE is set. */
      tokens: { primary: IssuedToken; second?: IssuedToken; screening?: IssuedToken };
      /** The run's documented token request, redacted, for the authentication spec to show. */
      tokenEvidence: { status: number; bodyKeys: string[]; tokenType?: string; exchanges: HttpExchange[] };
      /** The target's layout file and where it was read; none: facts are read by key names, verdicts provisional. */
      layout?: { path: string; file: LayoutFile };
      /** A learning run's journal folder (support/layout/learning-journal.ts), and the file it proposes. */
      learning?: { journal: string; into: string };
    };
    /**
     * Set instead of `contract` when CONTRACT_SIMULATED_CLOCK=1 runs the embedded simulator in the worker: the seed its
     * options resolved to here, and the run's id, so that every worker builds the same simulator and run.
     */
    simulatedRun?: { seed: number; runId: string };
  }
}

/** Runs the embedded simulator in the contract worker, on a clock it shares with the specs (the self-checks do). */
export const SIMULATED_CLOCK_VARIABLE = 'CONTRACT_SIMULATED_CLOCK';

/** The rule setup checks: a run breaking it stops before any test, so the mutant matrix runs its mutants alone. */
export const SETUP_RULE = 'auth.token-issued';

/** How the run's setup names its token requests (support/evidence/transcript.ts lists them before the tests). */
export const SETUP_TOKEN_PURPOSE = 'Run setup: request a token';

/** A 2xx token answer without an access_token breaks the documented token response, not the setup. */
function issueToken(
  config: ContractConfig,
  credentials: Credentials,
  transport: { clock?: Clock; dispatcher?: Dispatcher; random?: () => number },
  whose: string,
  scope?: string,
  variables?: CredentialVariables,
) {
  return requestToken(config.authUrl, credentials, {
    ...transport,
    credentialVariables: variables,
    scope,
    // Named as the run's setup, so that a transcript tells them from the tokens a test or a renewal asks.
    purpose: `${SETUP_TOKEN_PURPOSE} of the ${whose}${scope === undefined ? '' : ` (scope ${scope})`}`,
    maxRps: config.maxRps,
    deadlineMs: config.availabilityTimeoutMs,
  }).catch((error: unknown) => {
    throw error instanceof TokenError && error.reason === 'malformed' ? new BrokenRuleError(SETUP_RULE, error) : error;
  });
}

/** One token per client, and one of the first client's for screening when CONTRACT_SCREENING_SCOPE is set. */
async function issueTokens(config: ContractConfig, transport: Parameters<typeof issueToken>[2]) {
  const primary = await issueToken(config, config.client, transport, 'first client');
  const second =
    config.secondClient &&
    (await issueToken(config, config.secondClient, transport, 'second client', undefined, SECOND_CLIENT_VARIABLES))
      .token;
  const screening = config.screeningScope
    ? (await issueToken(config, config.client, transport, 'first client', config.screeningScope)).token
    : undefined;
  return { primary, second, screening };
}

/**
 * A run stopped in setup says why in one message (no stack, none of what vitest prints after a failed
 * global setup) and, when reports are written, in one broken result filed in its category like a test's.
 */
function stopInSetup(error: unknown): never {
  const failure = error instanceof Error ? error : new Error(String(error));
  const trace = `${failure.name}: ${failure.message}`;
  if (process.env.CONTRACT_REPORTS === '1') {
    const now = Date.now();
    new FileSystemWriter({ resultsDir: ALLURE_RESULTS_DIR }).writeResult({
      ...createTestResult(randomUUID(), 'support/run/global-setup.ts'),
      name: 'Run setup: resolve the target and request one token per client',
      fullName: 'support/run/global-setup.ts',
      status: Status.BROKEN,
      stage: Stage.FINISHED,
      // The trace is the error class the taxonomy reads, not the stack: vitest's source mapping of a stack
      // under its module cache (vitest.config.ts) can crash, and the message would be lost.
      statusDetails: redact({ message: failure.message, trace }),
      labels: [{ name: 'suite', value: 'Run setup' }],
      start: now,
      stop: now,
    });
  }
  const message = error instanceof Error ? trace : String(error);
  console.error(redactText(`\ncontract: the run stopped in setup, before any test.\n${message}\n`));
  process.exit(1);
}

/** The target as a run sees it: the embedded simulator's address and options, or none (CONTRACT_BASE_URL's). */
type Target = Pick<RunningSimulator, 'baseUrl' | 'options'> | undefined;

/**
 * Resolves the run's config against `simulator` (or the configured target) and requests one token per client, over
 * `transport`: the network, or an in-process simulator on a simulated clock (`startSimulatedRun`).
 */
export async function prepareRun(
  env: NodeJS.ProcessEnv,
  simulator: Target,
  transport: { clock?: Clock; dispatcher?: Dispatcher; random?: () => number } = {},
): Promise<ProvidedContext['contract']> {
  const settings = readSettings(env);
  const config = resolveConfig(settings, simulator, env[RUN_ID_VARIABLE] || newRunId());
  // The setup's token requests are part of what the target did (the token lifetime among them).
  const stopRecording = process.env.CONTRACT_REPORTS === '1' ? recordObservations(OBSERVED_DIR) : () => {};
  const { primary, second, screening } = await issueTokens(config, transport).finally(stopRecording);
  const body = primary.response.body;
  const layout = await layoutOf(settings.layout, simulator);
  const learning =
    settings.layout.kind === 'learn'
      ? // In the run's own reports folder: a file run's, not its worker's.
        { journal: reportsOf(env).learningJournal, into: settings.layout.into }
      : undefined;
  if (learning) console.warn(provisional(learning.into));
  return {
    config,
    layout,
    learning,
    tokens: { primary: primary.token, second, screening },
    tokenEvidence: {
      status: primary.response.status,
      bodyKeys: body && typeof body === 'object' ? Object.keys(body) : [],
      tokenType: primary.token.tokenType,
      exchanges: redact(primary.response.exchanges),
    },
  };
}

// A host of its own for each simulated run of a worker thread (the mutant matrix runs several projects), since a
// client's pace is shared by origin: nothing listens there, the in-process dispatcher answers.
let simulatedRuns = 0;

/** Where a simulated run writes what its simulator served (as `/__control/requests` answers), for a self-check. */
export const SIMULATOR_REPORT_VARIABLE = 'CONTRACT_SIMULATOR_REPORT';

/**
 * A run on a simulated clock (CONTRACT_SIMULATED_CLOCK=1, which the self-checks set), set up in the contract worker:
 * the embedded simulator built there, beside the specs, on a fresh simulated clock they share, and every request handed
 * to it by the in-process dispatcher below the suite's own client, so what the run judges is judged as over sockets
 * while the minutes of its waits, Retry-Afters and token lifetimes pass in milliseconds. Failing here fails the
 * worker's tests, not the run in setup: a check of how a run stops in setup runs on real sockets.
 */
export async function startSimulatedRun({ seed, runId }: { seed: number; runId: string }, runEnv = process.env) {
  // Loaded only by a simulated run: fastify and some forty files to transform.
  const { buildSimulator } = await import('../../simulator/build.js');
  const { requestReport } = await import('../../simulator/control.js');
  const { simulatorOptionsFromEnv } = await import('../../simulator/options.js');
  const { seededRandom } = await import('../../simulator/random.js');
  const clock = new SimulatedClock();
  const simulator = buildSimulator({ ...simulatorOptionsFromEnv(runEnv), seed, clock: clock.forSimulator() });
  const dispatcher = new InProcessDispatcher(simulator.app, clock);
  // The run's data follows the simulator's seed unless CONTRACT_SEED says otherwise: one seed replays the whole run,
  // and the jitter of the suite's retries is seeded too.
  const env = { ...runEnv, CONTRACT_SEED: runEnv.CONTRACT_SEED || String(seed), [RUN_ID_VARIABLE]: runId };
  const random = seededRandom(seed ^ 0x2545f491);
  const baseUrl = `http://simulator-${(simulatedRuns += 1)}.in-process`;
  const run = await prepareRun(env, { baseUrl, options: simulator.options }, { clock, dispatcher, random });
  return {
    run,
    transport: { clock, dispatcher, random },
    /** Ends the simulator, and writes what it served where SIMULATOR_REPORT_VARIABLE says. */
    close: async () => {
      const file = process.env[SIMULATOR_REPORT_VARIABLE];
      if (file) writeFileSync(file, JSON.stringify(requestReport(simulator.state)));
      await simulator.app.close();
    },
  };
}

/** One token per client for all workers: the token service is shared and rate-limited. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A project's own env (each mutant project of the mutant matrix names its mutant there) over the process's.
  const env = { ...process.env, ...project.config.env };
  let simulator: RunningSimulator | undefined;
  try {
    const settings = readSettings(env);
    if (!settings.baseUrl && env[SIMULATED_CLOCK_VARIABLE] === '1') {
      // The worker builds the simulator beside the specs, on the clock they share; one seed for every worker.
      const { simulatorOptionsFromEnv, resolveOptions } = await import('../../simulator/options.js');
      const { seed } = resolveOptions(simulatorOptionsFromEnv(env));
      // Named by the seed and the simulated epoch: its ids, and the URLs that carry them, repeat with the seed.
      const runId = env[RUN_ID_VARIABLE] || newRunId(SIMULATED_EPOCH_MS, seed);
      project.provide('simulatedRun', { seed, runId });
      console.log(`contract: embedded simulator in process, on a simulated clock (SIMULATOR_SEED=${seed})`);
      return async () => {};
    }
    if (!settings.baseUrl) {
      // Loaded only by a run that starts it: fastify and some forty files to transform.
      const { startSimulator } = await import('../../simulator/listen.js');
      const { simulatorOptionsFromEnv } = await import('../../simulator/options.js'); // already loaded with listen.js
      simulator = await startSimulator(simulatorOptionsFromEnv(env));
    }
    project.provide('contract', await prepareRun(env, simulator));
    if (simulator) console.log(`contract: embedded simulator listening on ${simulator.baseUrl}`);
  } catch (error) {
    await simulator?.close();
    stopInSetup(error);
  }
  return async () => {
    await simulator?.close();
  };
}
