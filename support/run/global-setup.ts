// Owns the run's setup: the target (the embedded simulator unless configured) and one token per client.
import { randomUUID } from 'node:crypto';
import { Stage, Status } from 'allure-js-commons';
import { createTestResult, FileSystemWriter } from 'allure-js-commons/sdk/reporter';
import type { TestProject } from 'vitest/node';
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
import { ALLURE_RESULTS_DIR, LEARNING_JOURNAL_DIR, OBSERVED_DIR } from './paths.js';
import { recordObservations } from '../evidence/observed/recorder.js';
import { requestToken, TokenError, type IssuedToken } from './tokens.js';
import { BrokenRuleError } from '../evidence/failures.js';
import type { HttpExchange } from '../transport/exchanges.js';
import { readLayoutFile, type LayoutFile } from '../layout/layout-file.js';
import { provisional } from '../layout/learning-journal.js';

/** The layout file of the run: CONTRACT_LAYOUT's, the embedded simulator's own for its options, or none (learning). */
async function layoutOf(plan: LayoutPlan, simulator: RunningSimulator | undefined) {
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
  }
}

/** The rule setup checks: a run breaking it stops before any test, so the mutant matrix runs its mutants alone. */
export const SETUP_RULE = 'auth.token-issued';

/** A 2xx token answer without an access_token breaks the documented token response, not the setup. */
function issueToken(config: ContractConfig, credentials: Credentials, scope?: string, variables?: CredentialVariables) {
  return requestToken(config.authUrl, credentials, {
    credentialVariables: variables,
    scope,
    purpose: scope === undefined ? undefined : `Request token (scope ${scope})`,
    maxRps: config.maxRps,
    deadlineMs: config.availabilityTimeoutMs,
  }).catch((error: unknown) => {
    throw error instanceof TokenError && error.reason === 'malformed' ? new BrokenRuleError(SETUP_RULE, error) : error;
  });
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

/** One token per client for all workers: the token service is shared and rate-limited. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A project's own env (each mutant project of the mutant matrix names its mutant there) over the process's.
  const env = { ...process.env, ...project.config.env };
  let simulator: RunningSimulator | undefined;
  let learning: { journal: string; into: string } | undefined;
  try {
    const settings = readSettings(env);
    if (!settings.baseUrl) {
      // Loaded only by a run that starts it: fastify and some forty files to transform.
      const { startSimulator } = await import('../../simulator/listen.js');
      const { simulatorOptionsFromEnv } = await import('../../simulator/options.js'); // already loaded with listen.js
      simulator = await startSimulator(simulatorOptionsFromEnv(env));
    }
    const config = resolveConfig(settings, simulator, env[RUN_ID_VARIABLE] || newRunId());

    // The first client's token request is part of what the target did (the token lifetime among them).
    const stopRecording = process.env.CONTRACT_REPORTS === '1' ? recordObservations(OBSERVED_DIR) : () => {};
    const primary = await issueToken(config, config.client).finally(stopRecording);
    const second =
      config.secondClient && (await issueToken(config, config.secondClient, undefined, SECOND_CLIENT_VARIABLES)).token;
    const screening = config.screeningScope
      ? (await issueToken(config, config.client, config.screeningScope)).token
      : undefined;
    const body = primary.response.body;
    const layout = await layoutOf(settings.layout, simulator);
    if (settings.layout.kind === 'learn') learning = { journal: LEARNING_JOURNAL_DIR, into: settings.layout.into };
    if (learning) console.warn(provisional(learning.into));
    project.provide('contract', {
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
    });
    if (simulator) console.log(`contract: embedded simulator listening on ${simulator.baseUrl}`);
  } catch (error) {
    await simulator?.close();
    stopInSetup(error);
  }
  return async () => {
    await simulator?.close();
  };
}
