// Owns the configuration: CONTRACT_* settings read once from the environment and .env, resolved to where a run goes,
// and the refusal of sandbox-only operations on production. Every problem stops the run before any test, as one
// message naming the variable and the fix; no secret value is ever part of it.
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '../transport/http.js';
import { LAYOUT_PROPOSAL_FILE } from './paths.js';
import { describeProxy, ProxySettingError, readProxySettings, routeFor } from '../transport/proxy-routes.js';

export const MARKETS = ['SE', 'NO', 'DK', 'FI'] as const;
export type Market = (typeof MARKETS)[number];

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** What the environment says (readSettings); without `baseUrl` a run starts the embedded simulator. */
export type Settings = ReturnType<typeof readSettings>;

/** Resolved once in global setup and provided to every worker. */
export interface ContractConfig extends Settings {
  baseUrl: string;
  authUrl: string;
  client: Credentials;
  screeningProvider: string;
  seed: number;
  runId: string;
}

/** Set by `npm run contract`: the run id it names in the report's environment. */
export const RUN_ID_VARIABLE = 'CONTRACT_RUN_ID';

// `r`, the seconds since 2024 in base 36 (six characters until 2093) and three random ones for runs started in the same
// second; whole inside every person and consumer id (factories.ts), which the vendor's sandbox caps at 15 characters.
export function newRunId(now = Date.now(), suffix = randomInt(36 ** 3)): string {
  const seconds = Math.floor((now - Date.UTC(2024, 0, 1)) / 1000).toString(36);
  const random = (suffix % 36 ** 3).toString(36);
  return `r${seconds.padStart(6, '0')}${random.padStart(3, '0')}`;
}

/** A path setting: its variable, the catalogue's operation ids served at the path, and the documented path. */
const setting = (variable: string, operations: readonly string[], path: string) => ({
  variable,
  operations,
  default: path,
});
const CI = '/consumer-intelligence';
const AML = '/aml-real-time-screening/v2/api/aml/kyc';

/** Where each operation is served under the base URL: the documented path unless set (README: "Operation paths"). */
export const PATH_SETTINGS = {
  sandboxPersons: setting('CONTRACT_SANDBOX_PERSONS_PATH', ['op1', 'op2'], `${CI}/sandbox/v1/persons`),
  person: setting('CONTRACT_PERSON_PATH', ['op3'], `${CI}/v3/markets/{market}/persons/{gedi}`),
  findPerson: setting('CONTRACT_FIND_PERSON_PATH', ['op4'], `${CI}/v3/markets/{market}/persons/_find`),
  consumers: setting('CONTRACT_CONSUMERS_PATH', ['op5', 'op6'], `${CI}/v3/consumers`),
  subscribedPersons: setting('CONTRACT_SUBSCRIBED_PERSONS_PATH', ['op7'], `${CI}/v3/subscriptions/persons`),
  personScreening: setting('CONTRACT_PERSON_SCREENING_PATH', ['op8'], `${AML}/person/screening`),
  // Operation 9 is not documented.
  companyScreening: setting('CONTRACT_COMPANY_SCREENING_PATH', ['op9'], `${AML}/company/screening`),
};

export type OperationPaths = Record<keyof typeof PATH_SETTINGS, string>;
const PATH_KEYS = Object.keys(PATH_SETTINGS) as (keyof OperationPaths)[];

/** The setting that says where an operation (catalogue id) is served. */
export function pathSettingOf(operation: string) {
  const key = PATH_KEYS.find((candidate) => PATH_SETTINGS[candidate].operations.includes(operation));
  return key && { ...PATH_SETTINGS[key], key };
}

/** A configured path with its placeholders filled in, each value escaped for a path segment. */
export function expandPath(template: string, values: { market?: string; gedi?: string }): string {
  return template.replace(/\{(market|gedi)\}/g, (_, name: 'market' | 'gedi') => encodeURIComponent(values[name] ?? ''));
}

export const CLIENT_VARIABLES = { id: 'CONTRACT_CLIENT_ID', secret: 'CONTRACT_CLIENT_SECRET' };
export type CredentialVariables = typeof CLIENT_VARIABLES;
export const SECOND_CLIENT_VARIABLES = { id: 'CONTRACT_SECOND_CLIENT_ID', secret: 'CONTRACT_SECOND_CLIENT_SECRET' };

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

type Read = (name: string) => string | undefined;

/** What a value must look like, said in a ConfigError when it does not: `must be ${must} (got …)${fix}`. */
interface Form {
  valid: (value: string) => boolean;
  must: string;
  fix?: string;
}

const MILLISECONDS: Form = {
  valid: (value) => /^\d+$/.test(value) && Number(value) > 0 && Number.isSafeInteger(Number(value)),
  must: 'a positive whole number of milliseconds, such as 30000',
};

const LEARN_MODES = ['auto', 'always', 'never'] as const;
type LearnMode = (typeof LEARN_MODES)[number];

const FORMS = {
  CONTRACT_MARKET: { valid: (value) => MARKETS.includes(value as Market), must: `one of ${MARKETS.join(', ')}` },
  CONTRACT_SCREENING_SCOPE: {
    // RFC 6749 3.3: scope tokens are printable ASCII without space, quote or backslash, separated by single spaces.
    valid: (value) => /^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/.test(value),
    must: 'OAuth scope tokens separated by single spaces',
    fix: '; set the scope the vendor gave your client for screening',
  },
  CONTRACT_AVAILABILITY_TIMEOUT_MS: MILLISECONDS,
  CONTRACT_REQUEST_TIMEOUT_MS: MILLISECONDS,
  CONTRACT_MAX_RPS: {
    valid: (value) => /^\d+(\.\d+)?$/.test(value) && Number(value) > 0,
    must: 'a positive number of requests a second per client, such as 5 or 0.5',
    fix: "; unset it to let the run learn the target's rate",
  },
  // Undocumented, so sent only when set: a list that grows every night is read in fewer pages with a larger size.
  CONTRACT_PAGE_SIZE: {
    valid: (value) => /^\d+$/.test(value) && Number(value) >= 1,
    must: 'a whole number of records a page, such as 100',
    fix: '; unset it to send none',
  },
  CONTRACT_SEED: {
    valid: (value) => /^-?\d+$/.test(value) && Number.isSafeInteger(Number(value)),
    must: 'an integer, such as the seed printed by an earlier run',
  },
  CONTRACT_LEARN: {
    valid: (value) => LEARN_MODES.includes(value as LearnMode),
    must: `one of ${LEARN_MODES.join(', ')}`,
    fix: '; the release gate sets never, npm run learn always',
  },
} satisfies Record<string, Form>;

/** Two records a page: the fewest that still show a page holding more than one entry. */
const LEARNING_PAGE_SIZE = 2;

/** Where a run reads the target's facts, or learns them into (docs/DESIGN.md, "Learning"). */
export type LayoutPlan =
  | { kind: 'read'; path: string }
  /**
   * `smallPage`: where CONTRACT_PAGE_SIZE sets none, how learning asks a list that ended on one page for a second page,
   * so that its continuation is learned (support/verbs/consumers.ts).
   */
  | { kind: 'learn'; into: string; smallPage?: { size: number; parameter: string } }
  /** The embedded simulator's own file for its options (simulator/layouts/layout-files.ts). */
  | { kind: 'simulator' };

/**
 * A layout file that exists is read. A run without one learns (into the file CONTRACT_LAYOUT names, or the reports'
 * proposal), except on the embedded simulator, which has its own; `always` learns even so, `never` (the release gate)
 * is a configuration error instead.
 */
function layoutPlan(path: string | undefined, mode: LearnMode, remote: boolean): LayoutPlan {
  const exists = path !== undefined && existsSync(path);
  if (mode === 'always') return { kind: 'learn', into: path ?? LAYOUT_PROPOSAL_FILE };
  if (exists) return { kind: 'read', path };
  if (!remote && path === undefined) return { kind: 'simulator' };
  if (mode === 'never')
    throw new ConfigError(
      'CONTRACT_LAYOUT',
      `${path ? `names ${path}, which does not exist` : 'is not set'}: the release gate reads a reviewed layout ` +
        'file and never learns; make one with npm run learn, review and commit it (README "A new target")',
    );
  return { kind: 'learn', into: path ?? LAYOUT_PROPOSAL_FILE };
}

/** Reads and validates the CONTRACT_* settings; variables in `env` win over the .env file. */
export function readSettings(env: NodeJS.ProcessEnv = process.env, dotenvPath = '.env') {
  const dotenv = readDotenv(dotenvPath);
  // Empty counts as unset: the project's own checks force the simulator with CONTRACT_BASE_URL='' over any .env.
  const read: Read = (name) => (env[name] ?? dotenv[name])?.trim() || undefined;
  const checked = (name: keyof typeof FORMS, value = read(name)): string | undefined => {
    const { valid, must, fix = '' }: Form = FORMS[name];
    if (value !== undefined && !valid(value))
      throw new ConfigError(name, `must be ${must} (got ${JSON.stringify(value)})${fix}`);
    return value;
  };
  const number = (name: keyof typeof FORMS) => (read(name) === undefined ? undefined : Number(checked(name)));
  const baseUrl = url(read, 'CONTRACT_BASE_URL');
  const authUrl = url(read, 'CONTRACT_AUTH_URL');
  if (authUrl !== undefined && baseUrl === undefined) {
    throw new ConfigError(
      'CONTRACT_AUTH_URL',
      'is set but CONTRACT_BASE_URL is not; set CONTRACT_BASE_URL to the API host, or unset CONTRACT_AUTH_URL to ' +
        'run against the embedded simulator',
    );
  }
  // The proxy variables are read from the environment only, as every Node tool reads them.
  try {
    readProxySettings(env);
  } catch (error) {
    throw error instanceof ProxySettingError ? new ConfigError(error.variable, error.problem) : error;
  }
  const client = credentials(read, CLIENT_VARIABLES, baseUrl !== undefined);
  const screeningProvider = read('CONTRACT_SCREENING_PROVIDER');
  if (baseUrl !== undefined && screeningProvider === undefined) {
    throw new ConfigError(
      'CONTRACT_SCREENING_PROVIDER',
      "is required when CONTRACT_BASE_URL is set; set it to the code of the service's own screening provider",
    );
  }
  const parameter = read('CONTRACT_PAGE_SIZE_PARAMETER') ?? 'pageSize';
  const size = number('CONTRACT_PAGE_SIZE');
  const layout = layoutPlan(read('CONTRACT_LAYOUT'), (checked('CONTRACT_LEARN') ?? 'auto') as LearnMode, !!baseUrl);
  return {
    baseUrl,
    authUrl: authUrl ?? baseUrl,
    client,
    secondClient: credentials(read, SECOND_CLIENT_VARIABLES, false),
    market: (checked('CONTRACT_MARKET', read('CONTRACT_MARKET')?.toUpperCase()) ?? 'SE') as Market,
    screeningProvider,
    screeningScope: checked('CONTRACT_SCREENING_SCOPE'),
    paths: operationPaths(read),
    prodBaseUrl: url(read, 'CONTRACT_PROD_BASE_URL'),
    availabilityTimeoutMs: number('CONTRACT_AVAILABILITY_TIMEOUT_MS') ?? 30_000,
    requestTimeoutMs: number('CONTRACT_REQUEST_TIMEOUT_MS') ?? DEFAULT_REQUEST_TIMEOUT_MS,
    maxRps: number('CONTRACT_MAX_RPS'),
    pageSize: size === undefined ? undefined : { size, parameter },
    seed: number('CONTRACT_SEED'),
    /** The target's reviewed layout file (support/layout/layout-file.ts), or where this run learns one. */
    layout:
      layout.kind === 'learn' && size === undefined
        ? { ...layout, smallPage: { size: LEARNING_PAGE_SIZE, parameter } }
        : layout,
  };
}

/** A printable, secret-free summary of where a run goes. */
export function describeTarget(settings: Settings): string {
  const { baseUrl, authUrl, client, secondClient, screeningScope, paths, prodBaseUrl, seed } = settings;
  if (!baseUrl) return 'the embedded simulator (CONTRACT_BASE_URL is not set)';
  const route = routeFor(new URL(baseUrl));
  const parts = [
    `remote target ${baseUrl}`,
    route.kind === 'proxy' ? `through the proxy ${describeProxy(route.proxy)}` : undefined,
    authUrl !== baseUrl ? `auth ${authUrl}` : undefined,
    `market ${settings.market}`,
    client && `client ${client.clientId}`,
    secondClient && `second client ${secondClient.clientId}`,
    settings.screeningProvider && `screening provider ${settings.screeningProvider}`,
    screeningScope && `screening scope ${screeningScope}`,
    ...PATH_KEYS.filter((key) => paths[key] !== PATH_SETTINGS[key].default).map(
      (key) => `${PATH_SETTINGS[key].operations.join('/')} at ${paths[key]}`,
    ),
    prodBaseUrl && `production ${prodBaseUrl} (sandbox-only operations refused there)`,
    seed !== undefined ? `seed ${seed}` : undefined,
  ];
  return parts.filter((part) => part !== undefined).join(', ');
}

/** The one config every worker receives; without a base URL, the embedded simulator's (what it says it serves). */
export function resolveConfig(
  settings: Settings,
  simulator: { baseUrl: string; options: { clients: { id: string; secret: string }[]; provider: string } } | undefined,
  runId: string,
  seed = settings.seed ?? Math.floor(Math.random() * 2 ** 31),
): ContractConfig {
  if (simulator) {
    // SIMULATOR_CLIENTS, when set, names at least one client (simulator/options.ts).
    const { baseUrl, options } = simulator;
    const [client, secondClient] = options.clients.map(({ id, secret }) => ({ clientId: id, clientSecret: secret }));
    const screeningProvider = options.provider;
    return { ...settings, baseUrl, authUrl: baseUrl, client: client!, secondClient, screeningProvider, seed, runId };
  }
  const { baseUrl, authUrl, client, screeningProvider } = settings;
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

function readDotenv(dotenvPath: string): Record<string, string | undefined> {
  try {
    return existsSync(dotenvPath) ? parseEnv(readFileSync(dotenvPath, 'utf8')) : {};
  } catch (error) {
    throw new ConfigError(dotenvPath, `cannot be read (${(error as Error).message}); fix or remove the file`);
  }
}

function url(read: Read, name: string): string | undefined {
  const value = read(name);
  if (value === undefined) return undefined;
  const example = 'such as https://api.example.com';
  const url = URL.parse(value);
  if (!url) throw new ConfigError(name, `is not a URL; set it to an http(s) address ${example}`);
  // Credentials in a URL would end up in every report step.
  const problem =
    url.protocol !== 'http:' && url.protocol !== 'https:'
      ? `must use http or https, not ${url.protocol}; set it to an address ${example}`
      : url.username !== '' || url.password !== ''
        ? 'must not contain credentials; put them in CONTRACT_CLIENT_ID and CONTRACT_CLIENT_SECRET'
        : url.search !== '' || url.hash !== ''
          ? 'must not have a query or fragment; set it to the host (and optional path prefix) only'
          : undefined;
  if (problem) throw new ConfigError(name, problem);
  return url.toString().replace(/\/+$/, '');
}

function credentials(read: Read, { id, secret }: CredentialVariables, required: boolean): Credentials | undefined {
  const clientId = read(id);
  const clientSecret = read(secret);
  if (clientId !== undefined && clientSecret !== undefined) return { clientId, clientSecret };
  if (clientId === undefined && clientSecret === undefined && !required) return undefined;
  const [missing, other] = clientId === undefined ? [id, secret] : [secret, id];
  const reason = required ? 'is required when CONTRACT_BASE_URL is set' : `is required together with ${other}`;
  throw new ConfigError(missing, `${reason}; set it to the sandbox credentials of the registered organization`);
}

function operationPaths(read: Read): OperationPaths {
  const paths = PATH_KEYS.map((key) => {
    const { variable, default: documented } = PATH_SETTINGS[key];
    const value = read(variable);
    if (value === undefined) return [key, documented];
    if (!value.startsWith('/') || /[?#\s]/.test(value)) {
      const problem = `must be a path starting with "/", without query or spaces, such as ${documented}`;
      throw new ConfigError(variable, problem);
    }
    const unknown = value.match(/\{[^}]*\}/g)?.find((placeholder) => !['{market}', '{gedi}'].includes(placeholder));
    // A path whose documented form names the gedi must carry it; the market is optional.
    const problem = unknown
      ? `has the unknown placeholder ${unknown} (known: {market}, {gedi})`
      : documented.includes('{gedi}') && !value.includes('{gedi}')
        ? 'must contain {gedi}'
        : undefined;
    if (problem) throw new ConfigError(variable, `${problem}; the documented path is ${documented}`);
    return [key, value.replace(/\/+$/, '')];
  });
  return Object.fromEntries(paths) as OperationPaths;
}

/** The settings for a command, or undefined after printing the one message naming the variable and the fix. */
export function settingsFor(command: string, env: NodeJS.ProcessEnv = process.env): Settings | undefined {
  try {
    return readSettings(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`${command}: configuration error: ${error.message}`);
    return undefined;
  }
}
