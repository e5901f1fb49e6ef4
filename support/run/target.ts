// Owns where a run goes: the resolved config, and the refusal of sandbox-only operations on production.
import { ConfigError, type ContractConfig, type Credentials, type Settings } from './config.js';

/** The one config every worker receives; without a base URL, the embedded simulator's (what it reports it serves). */
export function resolveConfig(
  settings: Settings,
  simulator: { baseUrl: string; clients: Credentials[]; provider: string } | undefined,
  runId: string,
  seed = settings.seed ?? Math.floor(Math.random() * 2 ** 31),
): ContractConfig {
  if (simulator) {
    // SIMULATOR_CLIENTS, when set, names at least one client (simulator/options.ts).
    const [client, secondClient] = simulator.clients as [Credentials, Credentials?];
    const { baseUrl, provider: screeningProvider } = simulator;
    return { ...settings, baseUrl, authUrl: baseUrl, client, secondClient, screeningProvider, seed, runId };
  }
  const { baseUrl, authUrl = baseUrl, client, screeningProvider } = settings;
  // With a base URL, readSettings has required the rest; callers without one start the simulator.
  if (!baseUrl || !authUrl || !client || !screeningProvider) throw new ConfigError('CONTRACT_BASE_URL', 'is not set');
  const config = { ...settings, baseUrl, authUrl, client, screeningProvider, seed, runId };
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

/** Endpoints rule 3: operations 1 and 2 exist only in the sandbox; this keeps the sweep and scripts off production. */
export function assertSandboxTarget(config: Pick<ContractConfig, 'baseUrl' | 'prodBaseUrl'>, operation: string): void {
  if (isProductionTarget(config)) {
    throw new SandboxOnlyError(
      `Refused to send ${operation}: it exists only in the sandbox and the target ` +
        `${new URL(config.baseUrl).origin} is the production host (CONTRACT_PROD_BASE_URL). Point ` +
        'CONTRACT_BASE_URL at the sandbox.',
    );
  }
}
