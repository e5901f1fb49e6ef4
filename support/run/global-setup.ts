// Owns the run's setup: the target (the embedded simulator unless configured) and one token per client.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  CLIENT_VARIABLES,
  readSettings,
  SECOND_CLIENT_VARIABLES,
  type ContractConfig,
  type CredentialVariables,
  type Credentials,
} from './config.js';
import { redact, redactText } from '../transport/redact.js';
import { ALLURE_RESULTS_DIR, OBSERVED_DIR } from './paths.js';
import { recordObservations } from '../evidence/observed/recorder.js';
import { requestToken, TokenError, type IssuedToken } from './tokens.js';
import { attributeToRule } from '../evidence/failures.js';
import type { HttpExchange } from '../transport/http.js';
import { resolveConfig } from './target.js';
import { newRunId, RUN_ID_VARIABLE } from './run-id.js';

/** What the run hands every worker: the resolved config and one token per client. */
export interface ContractRun {
  config: ContractConfig;
  /** One token per client, and one of the first client's for screening when CONTRACT_SCREENING_SCOPE is set. */
  tokens: { primary: IssuedToken; second?: IssuedToken; screening?: IssuedToken };
  /** The documented token request of this run, redacted, so the authentication spec can show it. */
  tokenEvidence: TokenEvidence;
}

export interface TokenEvidence {
  status: number;
  bodyKeys: string[];
  tokenType?: string;
  exchanges: HttpExchange[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    contract: ContractRun;
  }
}

/**
 * The rules global setup checks itself: a run that breaks one stops before any test (the mutant
 * matrix runs their mutants on their own, since such a stop ends every project of a run).
 */
const TOKEN_ISSUED = 'auth.token-issued';
export const RULES_CHECKED_IN_SETUP: readonly string[] = [TOKEN_ISSUED];

/** A 2xx token answer without an access_token breaks the documented token response, not the setup. */
async function issueToken(
  config: ContractConfig,
  credentials: Credentials,
  credentialVariables: CredentialVariables,
  scope?: string,
) {
  try {
    return await requestToken(config.authUrl, credentials, {
      credentialVariables,
      scope,
      purpose: scope === undefined ? undefined : `Request token (scope ${scope})`,
      maxRps: config.maxRps,
      deadlineMs: config.availabilityTimeoutMs,
    });
  } catch (error) {
    throw error instanceof TokenError && error.reason === 'malformed' ? attributeToRule(error, TOKEN_ISSUED) : error;
  }
}

/**
 * A run stopped in setup has no test results, so the report and the console summary would only say
 * "nothing ran". Written as one broken result (only when reports are written, see
 * vitest.config.ts), the failure lands in its category like any test's: "Target unavailable" for a
 * token service that does not answer, "Configuration error" for rejected credentials.
 */
function recordSetupFailure(error: unknown): void {
  if (process.env.CONTRACT_REPORTS !== '1') return;
  const failure = error instanceof Error ? error : new Error(String(error));
  const now = Date.now();
  const uuid = randomUUID();
  mkdirSync(ALLURE_RESULTS_DIR, { recursive: true });
  writeFileSync(
    join(ALLURE_RESULTS_DIR, `${uuid}-result.json`),
    JSON.stringify({
      uuid,
      historyId: 'support/run/global-setup.ts',
      name: 'Run setup: resolve the target and request one token per client',
      fullName: 'support/run/global-setup.ts',
      status: 'broken',
      stage: 'finished',
      // The taxonomy reads the error class from the start of the trace, as in a test's result. The
      // stack itself is left out: the message is the whole explanation of a setup failure, and
      // reading a stack here, where vitest's module cache (vitest.config.ts) has loaded this file,
      // crashes vitest 4.1's source mapping and loses the run's message.
      statusDetails: redact({ message: failure.message, trace: `${failure.name}: ${failure.message}` }),
      labels: [{ name: 'suite', value: 'Run setup' }],
      start: now,
      stop: now,
      steps: [],
      attachments: [],
      parameters: [],
      links: [],
    }),
  );
}

/**
 * A run stopped in setup says why in one message, as the person at the terminal needs it: no stack
 * trace, and none of what vitest would print after a failed global setup ("No test files found").
 * The report still gets the failure (recordSetupFailure above).
 */
function stopWithOneMessage(error: unknown): never {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  console.error(redactText(`\ncontract: the run stopped in setup, before any test.\n${message}\n`));
  process.exit(1);
}

/**
 * The simulator (fastify and some forty files to transform) is loaded only by a run that starts it:
 * a run against a sandbox never does.
 */
async function startEmbeddedSimulator(env: NodeJS.ProcessEnv) {
  const [{ startSimulator }, { simulatorOptionsFromEnv }] = await Promise.all([
    import('../../simulator/listen.js'),
    import('../../simulator/options.js'),
  ]);
  return startSimulator(simulatorOptionsFromEnv(env));
}

/**
 * Resolves the target once per run: starts the embedded simulator when no CONTRACT_BASE_URL is
 * set, then fetches exactly one token per client for all workers (the token service is shared and
 * rate-limited; one request per client per run is the budget).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A project's own env (each mutant project of the mutant matrix names its mutant there) over the process's.
  const env = { ...process.env, ...project.config.env };
  const { settings, simulator } = await (async () => {
    try {
      const read = readSettings(env);
      return { settings: read, simulator: read.baseUrl ? undefined : await startEmbeddedSimulator(env) };
    } catch (error) {
      recordSetupFailure(error);
      return stopWithOneMessage(error);
    }
  })();
  const seed = settings.seed ?? Math.floor(Math.random() * 2 ** 31);
  try {
    const config = resolveConfig(
      settings,
      simulator && {
        baseUrl: simulator.baseUrl,
        clients: simulator.options.clients.map(({ id, secret }) => ({ clientId: id, clientSecret: secret })),
        provider: simulator.options.provider,
      },
      env[RUN_ID_VARIABLE] || newRunId(),
      seed,
    );

    // The first client's token request is part of what the target did (the token lifetime among them).
    const stopRecording = process.env.CONTRACT_REPORTS === '1' ? recordObservations(OBSERVED_DIR) : () => {};
    const primary = await issueToken(config, config.client, CLIENT_VARIABLES).finally(stopRecording);
    const second = config.secondClient
      ? (await issueToken(config, config.secondClient, SECOND_CLIENT_VARIABLES)).token
      : undefined;
    const screening = config.screeningScope
      ? (await issueToken(config, config.client, CLIENT_VARIABLES, config.screeningScope)).token
      : undefined;
    const body = primary.response.body;
    project.provide('contract', {
      config,
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
    recordSetupFailure(error);
    stopWithOneMessage(error);
  }
  return async () => {
    await simulator?.close();
  };
}
