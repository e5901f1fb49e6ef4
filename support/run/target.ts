// Owns where a run goes: the resolved config, and the refusal of sandbox-only operations on production.
import { ConfigError, type ContractConfig, type Credentials, type Settings } from './config.js';

/** The one config every worker receives; without a base URL, the embedded simulator's (what it reports it serves). */
export function resolveConfig(
  settings: Settings,
  simulator: { baseUrl: string; clients: Credentials[]; provider: string } | undefined,
  runId: string,
  seed: number,
): ContractConfig {
  if (simulator) {
    const [client, secondClient] = simulator.clients;
    if (!client)
      throw new Error(
        'The embedded simulator accepts no client credentials: set SIMULATOR_CLIENTS to id:secret[,id:secret].',
      );
    return {
      ...settings,
      target: 'simulator',
      baseUrl: simulator.baseUrl,
      authUrl: simulator.baseUrl,
      client,
      secondClient,
      screeningProvider: simulator.provider,
      seed,
      runId,
    };
  }
  const { baseUrl, authUrl = baseUrl, client, screeningProvider } = settings;
  if (!baseUrl || !authUrl || !client || !screeningProvider) {
    const needs = 'CONTRACT_BASE_URL, CONTRACT_CLIENT_ID, CONTRACT_CLIENT_SECRET and CONTRACT_SCREENING_PROVIDER';
    throw new ConfigError('CONTRACT_BASE_URL', `A remote target needs ${needs}.`);
  }
  const config = { ...settings, target: 'remote' as const, baseUrl, authUrl, client, screeningProvider, seed, runId };
  if (isProductionTarget(config)) {
    throw new ConfigError(
      'CONTRACT_BASE_URL',
      'is the production host (CONTRACT_PROD_BASE_URL); the suite creates and deletes sandbox persons, so point ' +
        'CONTRACT_BASE_URL at the sandbox.',
    );
  }
  return config;
}

function isProductionTarget(config: Pick<ContractConfig, 'baseUrl' | 'prodBaseUrl'>): boolean {
  return config.prodBaseUrl !== undefined && new URL(config.baseUrl).origin === new URL(config.prodBaseUrl).origin;
}

export class SandboxOnlyError extends Error {
  override readonly name = 'SandboxOnlyError';
}

/**
 * Rule 3 of the Endpoints section: operations 1 and 2 exist only in the sandbox, so none is sent to the production
 * host. A run is refused at configuration time; this guard keeps every other caller (the sweep, a script) safe.
 */
export function assertSandboxTarget(config: Pick<ContractConfig, 'baseUrl' | 'prodBaseUrl'>, operation: string): void {
  if (isProductionTarget(config)) {
    throw new SandboxOnlyError(
      `Refused to send ${operation}: it exists only in the sandbox and the target ` +
        `${new URL(config.baseUrl).origin} is the production host (CONTRACT_PROD_BASE_URL). Point ` +
        'CONTRACT_BASE_URL at the sandbox.',
    );
  }
}
