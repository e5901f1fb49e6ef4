// Owns the configuration: CONTRACT_* settings read once from the environment and .env, each problem named.
// Configuration, read once from the environment and an optional .env file. Every problem is
// reported before any test runs, as one message that names the variable and the fix. Secret
// values never appear in a message.
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../transport/http.js';
import { describeProxy, ProxySettingError, readProxySettings, routeFor } from '../transport/dispatcher.js';

export type Market = 'SE' | 'NO' | 'DK' | 'FI';
export const MARKETS: readonly Market[] = ['SE', 'NO', 'DK', 'FI'];

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** What Settings and ContractConfig share, with the same meaning in both. */
interface SharedSettings {
  secondClient?: Credentials;
  market: Market;
  /** The OAuth scope of a token of its own for screening; unset: screening uses the bci token. */
  screeningScope?: string;
  paths: OperationPaths;
  prodBaseUrl?: string;
  availabilityTimeoutMs: number;
  requestTimeoutMs: number;
  /** Requests a second per client never to exceed (CONTRACT_MAX_RPS); undefined: learned from the target. */
  maxRps?: number;
  /** The page size list reads ask for (CONTRACT_PAGE_SIZE, CONTRACT_PAGE_SIZE_PARAMETER); undefined: none sent. */
  pageSize?: PageSize;
}

/** What the environment says; `baseUrl` undefined → the embedded simulator is started. */
export interface Settings extends SharedSettings {
  baseUrl?: string;
  authUrl?: string;
  client?: Credentials;
  screeningProvider?: string;
  seed?: number;
}

/** A page size to ask the lists for, and the query parameter that carries it. */
export interface PageSize {
  size: number;
  parameter: string;
}

/** Resolved once in global setup and provided to every worker. */
export interface ContractConfig extends SharedSettings {
  target: 'simulator' | 'remote';
  baseUrl: string;
  authUrl: string;
  client: Credentials;
  screeningProvider: string;
  seed: number;
  runId: string;
}

/**
 * Where each operation is served, under the base URL: the documentation's paths by default. The
 * vendor's own pages give other paths for some of them (README: "Operation paths"), so each is a
 * setting; `{market}` and `{gedi}` are filled in per request.
 */
export interface OperationPaths {
  /** Operations 1 and 2. */
  sandboxPersons: string;
  /** Operation 3, with {gedi} and optionally {market}. */
  person: string;
  /** Operation 4, optionally with {market}. */
  findPerson: string;
  /** Operations 5 and 6. */
  consumers: string;
  /** Operation 7. */
  subscribedPersons: string;
  /** Operation 8. */
  personScreening: string;
  /** Operation 9 (not documented). */
  companyScreening: string;
}

export interface PathSetting {
  variable: string;
  /** The catalogue's operation ids served at the path. */
  operations: readonly string[];
  default: string;
  /** Placeholders the path must carry. */
  requires: readonly string[];
}

export const PATH_SETTINGS: Readonly<Record<keyof OperationPaths, PathSetting>> = {
  sandboxPersons: {
    variable: 'CONTRACT_SANDBOX_PERSONS_PATH',
    operations: ['op1', 'op2'],
    default: '/consumer-intelligence/sandbox/v1/persons',
    requires: [],
  },
  person: {
    variable: 'CONTRACT_PERSON_PATH',
    operations: ['op3'],
    default: '/consumer-intelligence/v3/markets/{market}/persons/{gedi}',
    requires: ['{gedi}'],
  },
  findPerson: {
    variable: 'CONTRACT_FIND_PERSON_PATH',
    operations: ['op4'],
    default: '/consumer-intelligence/v3/markets/{market}/persons/_find',
    requires: [],
  },
  consumers: {
    variable: 'CONTRACT_CONSUMERS_PATH',
    operations: ['op5', 'op6'],
    default: '/consumer-intelligence/v3/consumers',
    requires: [],
  },
  subscribedPersons: {
    variable: 'CONTRACT_SUBSCRIBED_PERSONS_PATH',
    operations: ['op7'],
    default: '/consumer-intelligence/v3/subscriptions/persons',
    requires: [],
  },
  personScreening: {
    variable: 'CONTRACT_PERSON_SCREENING_PATH',
    operations: ['op8'],
    default: '/aml-real-time-screening/v2/api/aml/kyc/person/screening',
    requires: [],
  },
  companyScreening: {
    variable: 'CONTRACT_COMPANY_SCREENING_PATH',
    operations: ['op9'],
    default: '/aml-real-time-screening/v2/api/aml/kyc/company/screening',
    requires: [],
  },
};

/** Every operation at its default path: the documentation's. */
export const DEFAULT_PATHS = Object.fromEntries(
  Object.entries(PATH_SETTINGS).map(([key, setting]) => [key, setting.default]),
) as unknown as OperationPaths;

const PLACEHOLDERS = ['{market}', '{gedi}'];

/** The setting that says where an operation (catalogue id) is served. */
export function pathSettingOf(operation: string): (PathSetting & { key: keyof OperationPaths }) | undefined {
  const key = (Object.keys(PATH_SETTINGS) as (keyof OperationPaths)[]).find((candidate) =>
    PATH_SETTINGS[candidate].operations.includes(operation),
  );
  return key && { ...PATH_SETTINGS[key], key };
}

/** A configured path with its placeholders filled in, each value escaped for a path segment. */
export function expandPath(template: string, values: { market?: string; gedi?: string }): string {
  return template.replace(/\{(market|gedi)\}/g, (_, name: 'market' | 'gedi') => encodeURIComponent(values[name] ?? ''));
}

/** The variables that configure one client's credentials. */
export interface CredentialVariables {
  id: string;
  secret: string;
}

export const CLIENT_VARIABLES: CredentialVariables = { id: 'CONTRACT_CLIENT_ID', secret: 'CONTRACT_CLIENT_SECRET' };
export const SECOND_CLIENT_VARIABLES: CredentialVariables = {
  id: 'CONTRACT_SECOND_CLIENT_ID',
  secret: 'CONTRACT_SECOND_CLIENT_SECRET',
};

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

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
      'is set but CONTRACT_BASE_URL is not; set CONTRACT_BASE_URL to the API host, or unset CONTRACT_AUTH_URL to ' +
        'run against the embedded simulator',
    );
  }
  const remote = baseUrl !== undefined;
  proxyVariables(env);
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
    screeningScope: scope(vars, 'CONTRACT_SCREENING_SCOPE'),
    paths: operationPaths(vars),
    prodBaseUrl: optionalUrl(vars, 'CONTRACT_PROD_BASE_URL'),
    availabilityTimeoutMs: milliseconds(vars, 'CONTRACT_AVAILABILITY_TIMEOUT_MS') ?? DEFAULT_AVAILABILITY_TIMEOUT_MS,
    requestTimeoutMs: milliseconds(vars, 'CONTRACT_REQUEST_TIMEOUT_MS') ?? DEFAULT_REQUEST_TIMEOUT_MS,
    maxRps: requestsPerSecond(vars, 'CONTRACT_MAX_RPS'),
    pageSize: pageSize(vars),
    seed: seed(vars),
  };
}

/** A printable, secret-free summary of where a run goes: from the settings, or the resolved config. */
export function describeTarget(config: Settings | ContractConfig): string {
  const target = 'target' in config ? config.target : config.baseUrl ? 'remote' : 'simulator';
  const route = config.baseUrl ? routeFor(new URL(config.baseUrl)) : undefined;
  const parts = [
    `${target} target ${config.baseUrl ?? '(embedded simulator, started on a free port)'}`,
    route?.kind === 'proxy' ? `through the proxy ${describeProxy(route.proxy)}` : undefined,
    config.authUrl && config.authUrl !== config.baseUrl ? `auth ${config.authUrl}` : undefined,
    `market ${config.market}`,
    config.client ? `client ${config.client.clientId}` : undefined,
    config.secondClient ? `second client ${config.secondClient.clientId}` : undefined,
    config.screeningProvider ? `screening provider ${config.screeningProvider}` : undefined,
    config.screeningScope ? `screening scope ${config.screeningScope}` : undefined,
    ...(Object.entries(PATH_SETTINGS) as [keyof OperationPaths, PathSetting][])
      .filter(([key, setting]) => config.paths[key] !== setting.default)
      .map(([key, setting]) => `${setting.operations.join('/')} at ${config.paths[key]}`),
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
    throw new ConfigError(
      name,
      `must use http or https, not ${url.protocol}; set it to an address such as https://api.example.com`,
    );
  }
  // Credentials in a URL would end up in every report step; they belong in CONTRACT_CLIENT_*.
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(
      name,
      'must not contain credentials; put them in CONTRACT_CLIENT_ID and CONTRACT_CLIENT_SECRET',
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError(
      name,
      'must not have a query or fragment; set it to the host (and optional path prefix) only',
    );
  }
  return url.toString().replace(/\/+$/, '');
}

/** The proxy variables (read from the environment only, as every Node tool reads them) must be proxy addresses. */
function proxyVariables(env: NodeJS.ProcessEnv): void {
  try {
    readProxySettings(env);
  } catch (error) {
    throw error instanceof ProxySettingError ? new ConfigError(error.variable, error.problem) : error;
  }
}

function credentials(
  vars: Variables,
  { id: idName, secret: secretName }: CredentialVariables,
  required: boolean,
): Credentials | undefined {
  const clientId = text(vars, idName);
  const clientSecret = text(vars, secretName);
  if (clientId !== undefined && clientSecret !== undefined) return { clientId, clientSecret };
  if (clientId === undefined && clientSecret === undefined && !required) return undefined;
  const missing = clientId === undefined ? idName : secretName;
  const reason = required
    ? 'is required when CONTRACT_BASE_URL is set'
    : `is required together with ${missing === idName ? secretName : idName}`;
  throw new ConfigError(missing, `${reason}; set it to the sandbox credentials of the registered organization`);
}

function market(vars: Variables): Market {
  const value = text(vars, 'CONTRACT_MARKET')?.toUpperCase() ?? 'SE';
  if (!(MARKETS as readonly string[]).includes(value)) {
    throw new ConfigError('CONTRACT_MARKET', `must be one of ${MARKETS.join(', ')} (got ${JSON.stringify(value)})`);
  }
  return value as Market;
}

function operationPaths(vars: Variables): OperationPaths {
  const entries = Object.entries(PATH_SETTINGS).map(([key, setting]) => {
    const value = text(vars, setting.variable);
    if (value === undefined) return [key, setting.default];
    if (!value.startsWith('/') || /[?#\s]/.test(value)) {
      throw new ConfigError(
        setting.variable,
        `must be a path starting with "/", without query or spaces, such as ${setting.default}`,
      );
    }
    const unknown = (value.match(/\{[^}]*\}/g) ?? []).filter((placeholder) => !PLACEHOLDERS.includes(placeholder));
    const missing = setting.requires.filter((placeholder) => !value.includes(placeholder));
    if (unknown.length > 0 || missing.length > 0) {
      const problem =
        unknown.length > 0
          ? `has the unknown placeholder ${unknown[0]} (known: ${PLACEHOLDERS.join(', ')})`
          : `must contain ${missing.join(' and ')}`;
      throw new ConfigError(setting.variable, `${problem}; the documented path is ${setting.default}`);
    }
    return [key, value.replace(/\/+$/, '')];
  });
  return Object.fromEntries(entries) as unknown as OperationPaths;
}

function scope(vars: Variables, name: string): string | undefined {
  const value = text(vars, name);
  // RFC 6749 3.3: scope tokens are printable ASCII without space, quote or backslash, separated by spaces.
  if (value !== undefined && !/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/.test(value)) {
    throw new ConfigError(
      name,
      `must be OAuth scope tokens separated by single spaces (got ${JSON.stringify(value)}); set the scope the ` +
        'vendor gave your client for screening',
    );
  }
  return value;
}

function milliseconds(vars: Variables, name: string): number | undefined {
  const value = text(vars, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new ConfigError(
      name,
      `must be a positive whole number of milliseconds, such as 30000 (got ${JSON.stringify(value)})`,
    );
  }
  return Number(value);
}

function requestsPerSecond(vars: Variables, name: string): number | undefined {
  const value = text(vars, name);
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) {
    throw new ConfigError(
      name,
      'must be a positive number of requests a second per client, such as 5 or 0.5 (got ' +
        `${JSON.stringify(value)}); unset it to let the run learn the target's rate`,
    );
  }
  return Number(value);
}

// The documentation shows no list parameter, so none is sent unless set: a list that grows every
// night (consumers cannot be deleted) is read in fewer pages with a larger size.
function pageSize(vars: Variables): PageSize | undefined {
  const value = text(vars, 'CONTRACT_PAGE_SIZE');
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new ConfigError(
      'CONTRACT_PAGE_SIZE',
      `must be a whole number of records a page, such as 100 (got ${JSON.stringify(value)}); unset it to send none`,
    );
  }
  return { size: Number(value), parameter: text(vars, 'CONTRACT_PAGE_SIZE_PARAMETER') ?? 'pageSize' };
}

function seed(vars: Variables): number | undefined {
  const value = text(vars, 'CONTRACT_SEED');
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new ConfigError(
      'CONTRACT_SEED',
      `must be an integer, such as the seed printed by an earlier run (got ${JSON.stringify(value)})`,
    );
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
