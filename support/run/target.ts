// Owns where a run goes: the resolved config, and the refusal of sandbox-only operations on production.
import type { ContractConfig, Credentials, Settings } from './config.js';
import { ConfigError } from './config.js';

/** What the embedded simulator reports about itself once it listens. */
export interface SimulatorTarget {
  baseUrl: string;
  clients: Credentials[];
  provider: string;
}

/**
 * Turns what the environment says into the one config every worker receives. Without a base URL
 * every setting points at the embedded simulator, so a fresh clone runs with no configuration.
 */
export function resolveConfig(
  settings: Settings,
  simulator: SimulatorTarget | undefined,
  runId: string,
  seed: number,
): ContractConfig {
  const shared = {
    market: settings.market,
    screeningScope: settings.screeningScope,
    paths: settings.paths,
    prodBaseUrl: settings.prodBaseUrl,
    availabilityTimeoutMs: settings.availabilityTimeoutMs,
    requestTimeoutMs: settings.requestTimeoutMs,
    maxRps: settings.maxRps,
    pageSize: settings.pageSize,
    seed,
    runId,
  };
  if (simulator) {
    const [client, secondClient] = simulator.clients;
    if (!client)
      throw new Error(
        'The embedded simulator accepts no client credentials: set SIMULATOR_CLIENTS to id:secret[,id:secret].',
      );
    return {
      ...shared,
      target: 'simulator',
      baseUrl: simulator.baseUrl,
      authUrl: simulator.baseUrl,
      client,
      secondClient,
      screeningProvider: simulator.provider,
    };
  }
  const { baseUrl, client, screeningProvider } = settings;
  if (!baseUrl || !client || !screeningProvider) {
    throw new ConfigError(
      'CONTRACT_BASE_URL',
      'A remote target needs CONTRACT_BASE_URL, CONTRACT_CLIENT_ID, CONTRACT_CLIENT_SECRET and ' +
        'CONTRACT_SCREENING_PROVIDER.',
    );
  }
  const config: ContractConfig = {
    ...shared,
    target: 'remote',
    baseUrl,
    authUrl: settings.authUrl ?? baseUrl,
    client,
    secondClient: settings.secondClient,
    screeningProvider,
  };
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
 * Rule 3 of the Endpoints section: operations 1 and 2 exist only in the sandbox. The suite refuses
 * them before anything is sent when the target is the configured production host. A run is already
 * refused at configuration time; this guard keeps every other caller (the sweep, a script) safe.
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
