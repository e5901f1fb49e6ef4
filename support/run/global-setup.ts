// Owns the run's setup: the target (the embedded simulator unless configured) and one token per client.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { readSettings, type ContractConfig, type Credentials } from './config.js';
import { redact } from '../transport/redact.js';
import { ALLURE_RESULTS_DIR } from './paths.js';
import { requestToken, TokenError, type IssuedToken } from './tokens.js';
import { attributeToRule } from '../evidence/failures.js';
import type { HttpExchange } from '../transport/http.js';
import { resolveConfig } from './target.js';
import { startSimulator } from '../../simulator/listen.js';
import { simulatorOptionsFromEnv } from '../../simulator/options.js';

/** What the run hands every worker: the resolved config and one token per client. */
export interface ContractRun {
  config: ContractConfig;
  tokens: { primary: IssuedToken; second?: IssuedToken };
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

function newRunId(seed: number): string {
  return `r${Date.now().toString(36)}${seed.toString(36)}`;
}

/** A 2xx token answer without an access_token breaks the documented token response, not the setup. */
async function issueToken(authUrl: string, credentials: Credentials) {
  try {
    return await requestToken(authUrl, credentials);
  } catch (error) {
    throw error instanceof TokenError && error.reason === 'malformed' ? attributeToRule(error, 'auth.token-issued') : error;
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
      // The taxonomy reads the error class from the start of the trace, as in a test's result.
      statusDetails: redact({ message: failure.message, trace: failure.stack ?? `${failure.name}: ${failure.message}` }),
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
 * Resolves the target once per run: starts the embedded simulator when no CONTRACT_BASE_URL is
 * set, then fetches exactly one token per client for all workers (the token service is shared and
 * rate-limited; one request per client per run is the budget).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const settings = readSettings();
  const seed = settings.seed ?? Math.floor(Math.random() * 2 ** 31);
  const simulator = settings.baseUrl
    ? undefined
    : await startSimulator(simulatorOptionsFromEnv(process.env));
  try {
    const config = resolveConfig(settings, simulator && {
      baseUrl: simulator.baseUrl,
      clients: simulator.options.clients.map(({ id, secret }) => ({ clientId: id, clientSecret: secret })),
      provider: simulator.options.provider,
    }, newRunId(seed), seed);

    const primary = await issueToken(config.authUrl, config.client);
    const second = config.secondClient ? (await issueToken(config.authUrl, config.secondClient)).token : undefined;
    const body = primary.response.body;
    project.provide('contract', {
      config,
      tokens: { primary: primary.token, second },
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
    throw error;
  }
  return async () => {
    await simulator?.close();
  };
}
