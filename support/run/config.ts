// Owns the configuration: CONTRACT_* settings read once from the environment and .env, each problem named.
// Configuration, read once from the environment and an optional .env file. Every problem is
// reported before any test runs, as one message that names the variable and the fix. Secret
// values never appear in a message.
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../transport/http.js';

export type Market = 'SE' | 'NO' | 'DK' | 'FI';
export const MARKETS: readonly Market[] = ['SE', 'NO', 'DK', 'FI'];

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** What the environment says; `baseUrl` undefined → the embedded simulator is started. */
export interface Settings {
  baseUrl?: string;
  authUrl?: string;
  client?: Credentials;
  secondClient?: Credentials;
  market: Market;
  screeningProvider?: string;
  companyScreeningPath: string;
  prodBaseUrl?: string;
  availabilityTimeoutMs: number;
  requestTimeoutMs: number;
  seed?: number;
}

/** Resolved once in global setup and provided to every worker. */
export interface ContractConfig {
  target: 'simulator' | 'remote';
  baseUrl: string;
  authUrl: string;
  client: Credentials;
  secondClient?: Credentials;
  market: Market;
  screeningProvider: string;
  companyScreeningPath: string;
  prodBaseUrl?: string;
  availabilityTimeoutMs: number;
  requestTimeoutMs: number;
  seed: number;
  runId: string;
}

/** The variables that configure one client's credentials. */
export interface CredentialVariables {
  id: string;
  secret: string;
}

export const CLIENT_VARIABLES: CredentialVariables = { id: 'CONTRACT_CLIENT_ID', secret: 'CONTRACT_CLIENT_SECRET' };
export const SECOND_CLIENT_VARIABLES: CredentialVariables = { id: 'CONTRACT_SECOND_CLIENT_ID', secret: 'CONTRACT_SECOND_CLIENT_SECRET' };

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

export const DEFAULT_COMPANY_SCREENING_PATH = '/aml-real-time-screening/v2/api/aml/kyc/company/screening';
const DEFAULT_AVAILABILITY_TIMEOUT_MS = 30_000;

type Variables = Record<string, string | undefined>;

/** Reads and validates the CONTRACT_* settings; variables in `env` win over the .env file. */
export function readSettings(env: NodeJS.ProcessEnv = process.env, dotenvPath = '.env'): Settings {
  const set = Object.entries(env).filter(([, value]) => value !== undefined);
  const vars: Variables = { ...readDotenv(dotenvPath), ...Object.fromEntries(set) };
  const baseUrl = optionalUrl(vars, 'CONTRACT_BASE_URL');
  const authUrl = optionalUrl(vars, 'CONTRACT_AUTH_URL');
  if (authUrl !== undefined && baseUrl === undefined) {
    throw new ConfigError(
      'CONTRACT_AUTH_URL',
      'is set but CONTRACT_BASE_URL is not; set CONTRACT_BASE_URL to the API host, or unset CONTRACT_AUTH_URL to run against the embedded simulator',
    );
  }
  const remote = baseUrl !== undefined;
  const client = credentials(vars, CLIENT_VARIABLES, remote);
  const screeningProvider = text(vars, 'CONTRACT_SCREENING_PROVIDER');
  if (remote && screeningProvider === undefined) {
    throw new ConfigError(
      'CONTRACT_SCREENING_PROVIDER',
      "is required when CONTRACT_BASE_URL is set; set it to the code of the service's own screening provider",
    );
  }
  return {
    baseUrl,
    authUrl: authUrl ?? baseUrl,
    client,
    secondClient: credentials(vars, SECOND_CLIENT_VARIABLES, false),
    market: market(vars),
    screeningProvider,
    companyScreeningPath: path(vars, 'CONTRACT_COMPANY_SCREENING_PATH') ?? DEFAULT_COMPANY_SCREENING_PATH,
    prodBaseUrl: optionalUrl(vars, 'CONTRACT_PROD_BASE_URL'),
    availabilityTimeoutMs: milliseconds(vars, 'CONTRACT_AVAILABILITY_TIMEOUT_MS') ?? DEFAULT_AVAILABILITY_TIMEOUT_MS,
    requestTimeoutMs: milliseconds(vars, 'CONTRACT_REQUEST_TIMEOUT_MS') ?? DEFAULT_REQUEST_TIMEOUT_MS,
    seed: seed(vars),
  };
}

/** A printable, secret-free summary of where a run goes: from the settings, or the resolved config. */
export function describeTarget(config: Settings | ContractConfig): string {
  const target = 'target' in config ? config.target : config.baseUrl ? 'remote' : 'simulator';
  const parts = [
    `${target} target ${config.baseUrl ?? '(embedded simulator, started on a free port)'}`,
    config.authUrl && config.authUrl !== config.baseUrl ? `auth ${config.authUrl}` : undefined,
    `market ${config.market}`,
    config.client ? `client ${config.client.clientId}` : undefined,
    config.secondClient ? `second client ${config.secondClient.clientId}` : undefined,
    config.screeningProvider ? `screening provider ${config.screeningProvider}` : undefined,
    config.prodBaseUrl ? `production ${config.prodBaseUrl} (sandbox-only operations refused there)` : undefined,
    'runId' in config ? `run ${config.runId}` : undefined,
    config.seed !== undefined ? `seed ${config.seed}` : undefined,
  ];
  return parts.filter((part) => part !== undefined).join(', ');
}

function readDotenv(dotenvPath: string): Variables {
  if (!existsSync(dotenvPath)) return {};
  try {
    return parseEnv(readFileSync(dotenvPath, 'utf8'));
  } catch (error) {
    throw new ConfigError(dotenvPath, `cannot be read (${(error as Error).message}); fix or remove the file`);
  }
}

// An empty value counts as unset, so `CONTRACT_SEED=` in a copied .env.example means "no seed",
// and an empty variable in the environment unsets what .env says (the project's own checks force
// the embedded simulator with CONTRACT_BASE_URL='', whatever a developer's .env points at).
function text(vars: Variables, name: string): string | undefined {
  const value = vars[name]?.trim();
  return value === '' ? undefined : value;
}

function optionalUrl(vars: Variables, name: string): string | undefined {
  const value = text(vars, name);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, `is not a URL; set it to an http(s) address such as https://api.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must use http or https, not ${url.protocol}; set it to an address such as https://api.example.com`);
  }
  // Credentials in a URL would end up in every report step; they belong in CONTRACT_CLIENT_*.
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(name, 'must not contain credentials; put them in CONTRACT_CLIENT_ID and CONTRACT_CLIENT_SECRET');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError(name, 'must not have a query or fragment; set it to the host (and optional path prefix) only');
  }
  return url.toString().replace(/\/+$/, '');
}

function credentials(vars: Variables, { id: idName, secret: secretName }: CredentialVariables, required: boolean): Credentials | undefined {
  const clientId = text(vars, idName);
  const clientSecret = text(vars, secretName);
  if (clientId !== undefined && clientSecret !== undefined) return { clientId, clientSecret };
  if (clientId === undefined && clientSecret === undefined && !required) return undefined;
  const missing = clientId === undefined ? idName : secretName;
  const reason = required ? 'is required when CONTRACT_BASE_URL is set' : `is required together with ${missing === idName ? secretName : idName}`;
  throw new ConfigError(missing, `${reason}; set it to the sandbox credentials of the registered organization`);
}

function market(vars: Variables): Market {
  const value = text(vars, 'CONTRACT_MARKET')?.toUpperCase() ?? 'SE';
  if (!(MARKETS as readonly string[]).includes(value)) {
    throw new ConfigError('CONTRACT_MARKET', `must be one of ${MARKETS.join(', ')} (got ${JSON.stringify(value)})`);
  }
  return value as Market;
}

function path(vars: Variables, name: string): string | undefined {
  const value = text(vars, name);
  if (value !== undefined && !value.startsWith('/')) {
    throw new ConfigError(name, `must be a path starting with "/", such as ${DEFAULT_COMPANY_SCREENING_PATH}`);
  }
  return value;
}

function milliseconds(vars: Variables, name: string): number | undefined {
  const value = text(vars, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new ConfigError(name, `must be a positive whole number of milliseconds, such as 30000 (got ${JSON.stringify(value)})`);
  }
  return Number(value);
}

function seed(vars: Variables): number | undefined {
  const value = text(vars, 'CONTRACT_SEED');
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new ConfigError('CONTRACT_SEED', `must be an integer, such as the seed printed by an earlier run (got ${JSON.stringify(value)})`);
  }
  return Number(value);
}

/**
 * The settings for a command, or undefined after printing the one configuration message: a wrong or
 * missing variable stops a command before it does anything, with the variable and the fix.
 */
export function settingsFor(command: string, env: NodeJS.ProcessEnv = process.env): Settings | undefined {
  try {
    return readSettings(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${command}: configuration error: ${error.message}`);
    return undefined;
  }
}
