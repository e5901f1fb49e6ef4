// Owns `npm run doctor`: the first thing a new user runs against a sandbox. In a few seconds and a
// handful of requests it says, one line per check, what works and what to fix: the configuration,
// DNS, the proxy, TLS, a token for each client, each operation at its configured path, the
// screening provider and scope, and the rate limit its answers showed. Every failing line names the
// setting that fixes it. It creates no person and uploads no consumer: the probes of write
// operations carry bodies the service must refuse (an empty person, an empty consumer list), and
// reads read.
import { lookup } from 'node:dns/promises';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  CLIENT_VARIABLES,
  ConfigError,
  expandPath,
  pathSettingOf,
  readSettings,
  SECOND_CLIENT_VARIABLES,
  type ContractConfig,
  type Credentials,
  type CredentialVariables,
  type OperationPaths,
} from './config.js';
import { assertSandboxTarget, resolveConfig } from './target.js';
import { requestToken, TokenError, TokenProvider, type IssuedToken } from './tokens.js';
import { describeProxy, routeFor } from '../transport/dispatcher.js';
import { ApiClient, TargetThrottledError, TargetUnavailableError, type ApiResponse } from '../transport/http.js';
import { NetworkSetupError } from '../transport/network-errors.js';
import { observeExchanges, type HttpExchange } from '../transport/exchanges.js';
import { permissionNeeded } from '../evidence/refusals.js';
import { RETRY_POLICY, throttledAnswer } from '../transport/retry.js';
import { AmlScreening, TEST_REFERENCES } from '../verbs/screening.js';

export type Verdict = 'ok' | 'FAIL' | 'skip' | 'note';

export interface DoctorLine {
  check: string;
  verdict: Verdict;
  detail: string;
  /** The setting that fixes a failing check. */
  setting?: string;
}

/** One operation as the doctor probes it: where it is, what it sends, and which setting moves it. */
export interface DoctorOperation {
  id: string;
  method: string;
  path: string;
  /** The setting that holds the path (a 404 or 405 names it). */
  pathSetting: string;
  /**
   * The setting a 403 names: the client's for sandbox persons, the market for the consumer data, the screening scope
   * for screening.
   */
  permissionSetting: string;
  /** A body the service must refuse or may answer without any effect. */
  body?: unknown;
  /** What the probe's answer proves, said on its line. */
  probe: string;
  /** An answer that cannot tell a wrong path from a right one (404 for an unknown gedi). */
  ambiguous?: number;
}

const UNKNOWN_GEDI = 'doctor-no-such-gedi';
const BASE = 'CONTRACT_BASE_URL';
const SCREENING_SCOPE = 'CONTRACT_SCREENING_SCOPE';

/**
 * What each operation's probe sends, and which setting a 403 names (the permission it needs:
 * support/evidence/refusals.ts says the same).
 */
const PROBES: Record<
  string,
  { path: keyof OperationPaths; method: string; body?: unknown; probe: string; permission: string; ambiguous?: number }
> = {
  op1: {
    path: 'sandboxPersons',
    method: 'PUT',
    body: {},
    probe: 'an empty person (no person created)',
    permission: CLIENT_VARIABLES.id,
  },
  op2: {
    path: 'sandboxPersons',
    method: 'DELETE',
    body: {},
    probe: 'a body without an id (nothing deleted)',
    permission: CLIENT_VARIABLES.id,
  },
  op3: {
    path: 'person',
    method: 'GET',
    probe: 'a gedi that does not exist',
    permission: 'CONTRACT_MARKET',
    ambiguous: 404,
  },
  op4: {
    path: 'findPerson',
    method: 'POST',
    body: {},
    probe: 'a search without a legal id',
    permission: 'CONTRACT_MARKET',
  },
  op5: {
    path: 'consumers',
    method: 'POST',
    body: [],
    probe: 'an empty consumer list (nothing uploaded)',
    permission: 'CONTRACT_MARKET',
  },
  op6: { path: 'consumers', method: 'GET', probe: 'a read of the consumers', permission: 'CONTRACT_MARKET' },
  op7: {
    path: 'subscribedPersons',
    method: 'GET',
    probe: 'a read of the subscribed persons',
    permission: 'CONTRACT_MARKET',
  },
  op8: {
    path: 'personScreening',
    method: 'POST',
    probe: `the sandbox test case ${TEST_REFERENCES.politician}`,
    permission: SCREENING_SCOPE,
  },
  op9: {
    path: 'companyScreening',
    method: 'POST',
    probe: `the sandbox test case ${TEST_REFERENCES.firstCompany}`,
    permission: SCREENING_SCOPE,
  },
};

/**
 * Every operation the doctor probes, at the path the configuration gives it (CONTRACT_*_PATH, the
 * documentation's by default), with the variable that moves it: the one table of the doctor's
 * operations and their settings.
 */
export function doctorOperations(config: ContractConfig): DoctorOperation[] {
  return Object.entries(PROBES).map(([id, { path, method, body, probe, permission, ambiguous }]) => ({
    id,
    method,
    path: expandPath(config.paths[path], { market: config.market, gedi: UNKNOWN_GEDI }),
    pathSetting: pathSettingOf(id)?.variable ?? BASE,
    permissionSetting: permission,
    body,
    probe,
    ambiguous,
  }));
}

/** What an operation's answer means, as one line. */
export function judgeAnswer(
  operation: DoctorOperation,
  status: number,
): Pick<DoctorLine, 'verdict' | 'detail' | 'setting'> {
  const answered = `${operation.path}: ${status} to ${operation.probe}`;
  if (status === operation.ambiguous) {
    return {
      verdict: 'ok',
      detail: `${answered}, as expected (a wrong path would answer the same: this proves only that the host answers)`,
    };
  }
  if (status === 401) {
    return {
      verdict: 'FAIL',
      detail:
        `${answered}: the token was not accepted here (401). The client may not be entitled to this API, or the ` +
        "token's scope does not cover it",
      setting: operation.permissionSetting === SCREENING_SCOPE ? SCREENING_SCOPE : CLIENT_VARIABLES.id,
    };
  }
  if (status === 403) {
    return {
      verdict: 'FAIL',
      detail:
        `${answered}: authenticated but not permitted (403): ` +
        `${permissionNeeded(operation.id) ?? 'the client lacks the permission for this operation'}`,
      setting: operation.permissionSetting,
    };
  }
  if (status === 404 || status === 405) {
    const why =
      status === 404
        ? 'nothing answers at this path (or, the vendor says, no access to it)'
        : 'the path is there but not for this method';
    return {
      verdict: 'FAIL',
      detail: `${answered}: ${why} (${status})`,
      setting: operation.pathSetting,
    };
  }
  if (status === 429)
    return {
      verdict: 'FAIL',
      detail: `${answered}: rate-limited even after the retries; try again later`,
      setting: MAX_RPS,
    };
  if (status >= 500)
    return {
      verdict: 'FAIL',
      detail: `${answered}: the service failed (${status}); if it persists, the path may be wrong`,
      setting: operation.pathSetting,
    };
  return { verdict: 'ok', detail: `${answered}: the operation is there` };
}

export interface DoctorReport {
  lines: DoctorLine[];
  requests: number;
  failed: number;
  personCreated: boolean;
  /** Why there was no sandbox to check, when there was none: the doctor then claims no check. */
  nothingToCheck?: string;
}

export interface DoctorOptions {
  /** Also create one sandbox person, wait until operation 3 returns it, and delete it (`--create-person`). */
  createPerson?: boolean;
}

const PROBE_TIMEOUT_MS = 5_000;
const MAX_RPS = 'CONTRACT_MAX_RPS';

function failureLine(check: string, error: unknown, fallbackSetting: string): DoctorLine {
  if (error instanceof NetworkSetupError)
    return { check, verdict: 'FAIL', detail: error.message, setting: error.setting };
  if (error instanceof TokenError)
    return { check, verdict: 'FAIL', detail: error.message, setting: error.variables.join(' or ') };
  if (error instanceof TargetUnavailableError)
    return { check, verdict: 'FAIL', detail: `${error.message}`, setting: fallbackSetting };
  // Throttled to its deadline, the probe says nothing about the path or the credentials it used.
  if (error instanceof TargetThrottledError) return { check, verdict: 'FAIL', detail: error.message, setting: MAX_RPS };
  return {
    check,
    verdict: 'FAIL',
    detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    setting: fallbackSetting,
  };
}

/** What the connection to one origin showed: the TLS session, and the proxy tunnel it went through. */
interface Connection {
  tls?: { protocol: string | null; subject?: string; issuer?: string; validTo?: string };
  tunnel?: string;
}

/**
 * Watches undici's own diagnostics while `work` runs: the sockets it connected to `host`, and the tunnels a proxy
 * opened.
 */
async function watchConnection<T>(
  host: string,
  work: () => Promise<T>,
): Promise<{ result: T; connection: Connection }> {
  const connection: Connection = {};
  const connected = (message: unknown) => {
    const { connectParams, socket } = message as {
      connectParams: { hostname: string; protocol: string };
      socket: TLSSocket;
    };
    if (
      connectParams.hostname !== host ||
      connectParams.protocol !== 'https:' ||
      typeof socket.getPeerCertificate !== 'function'
    )
      return;
    const certificate = socket.getPeerCertificate();
    const name = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);
    connection.tls = {
      protocol: socket.getProtocol(),
      subject: name(certificate.subject?.CN),
      issuer: name(certificate.issuer?.CN),
      validTo: certificate.valid_to,
    };
  };
  const tunnelled = (message: unknown) => {
    const { connectParams } = message as { connectParams: { path: string } };
    connection.tunnel = connectParams.path;
  };
  subscribe('undici:client:connected', connected);
  subscribe('undici:proxy:connected', tunnelled);
  try {
    return { result: await work(), connection };
  } finally {
    unsubscribe('undici:client:connected', connected);
    unsubscribe('undici:proxy:connected', tunnelled);
  }
}

async function dnsLine(url: URL, setting: string): Promise<DoctorLine> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const check = `DNS ${host}`;
  if (isIP(host)) return { check, verdict: 'ok', detail: 'an address: nothing to look up' };
  const route = routeFor(url);
  try {
    const addresses = await Promise.race([
      lookup(host, { all: true }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS).unref(),
      ),
    ]);
    return { check, verdict: 'ok', detail: `resolves to ${addresses.map(({ address }) => address).join(', ')}` };
  } catch (error) {
    if (route.kind === 'proxy') {
      return {
        check,
        verdict: 'ok',
        detail:
          'does not resolve here, which is fine: requests to it go through the proxy ' +
          `${describeProxy(route.proxy)}, which resolves it`,
      };
    }
    return {
      check,
      verdict: 'FAIL',
      detail:
        `does not resolve (${error instanceof Error ? error.message : String(error)}): the host name is wrong, or ` +
        'this network reaches the internet only through a proxy (then set HTTPS_PROXY)',
      setting,
    };
  }
}

function proxyLine(url: URL, connection: Connection | undefined): DoctorLine {
  const check = `proxy ${url.host}`;
  const route = routeFor(url);
  if (route.kind === 'direct') {
    return {
      check,
      verdict: 'ok',
      detail: route.exemptedBy
        ? `direct: ${route.exemptedBy} exempts it from the proxy`
        : 'direct: no proxy variable (HTTPS_PROXY, HTTP_PROXY) is set',
    };
  }
  const tunnel = connection?.tunnel ? `: tunnel to ${connection.tunnel} opened` : '';
  return { check, verdict: 'ok', detail: `through ${describeProxy(route.proxy)}${tunnel}` };
}

function tlsLine(url: URL, connection: Connection | undefined): DoctorLine {
  const check = `TLS ${url.host}`;
  if (url.protocol !== 'https:')
    return { check, verdict: 'note', detail: 'plain http: no TLS (the documentation samples use https)' };
  const tls = connection?.tls;
  if (!tls) return { check, verdict: 'ok', detail: 'certificate trusted' };
  return {
    check,
    verdict: 'ok',
    detail:
      `${tls.protocol ?? 'TLS'}, certificate ${tls.subject ?? '(no CN)'} issued by ${tls.issuer ?? '(no CN)'}, ` +
      `trusted, valid until ${tls.validTo ?? '?'}`,
  };
}

/** The lines of the connection to one origin (DNS, proxy, TLS), from one request that needs no token. */
async function connectionLines(url: URL, setting: string): Promise<{ lines: DoctorLine[]; reachable: boolean }> {
  const dns = await dnsLine(url, setting);
  if (dns.verdict === 'FAIL') return { lines: [dns], reachable: false };
  const probe = new ApiClient({
    baseUrl: url.origin,
    addressSetting: setting,
    requestTimeoutMs: PROBE_TIMEOUT_MS,
    policy: { ...RETRY_POLICY, maxAttempts: 1 },
  });
  try {
    const { connection } = await watchConnection(url.hostname, () =>
      probe.request('GET', '/', { purpose: 'doctor: connection' }),
    );
    return { lines: [dns, proxyLine(url, connection), tlsLine(url, connection)], reachable: true };
  } catch (error) {
    const reason = error instanceof NetworkSetupError ? error.reason : undefined;
    const failed = failureLine(
      reason?.startsWith('proxy') ? `proxy ${url.host}` : reason ? `TLS ${url.host}` : `connection ${url.host}`,
      error,
      setting,
    );
    const lines = [dns, ...(reason?.startsWith('proxy') ? [] : [proxyLine(url, undefined)]), failed];
    return { lines, reachable: false };
  }
}

async function tokenLine(
  config: ContractConfig,
  credentials: Credentials,
  variables: CredentialVariables,
  scope?: string,
) {
  const check = `token ${credentials.clientId}${scope === undefined ? '' : ` for screening`}`;
  try {
    const { token, response } = await requestToken(config.authUrl, credentials, {
      credentialVariables: variables,
      purpose: 'doctor: token',
      requestTimeoutMs: PROBE_TIMEOUT_MS,
      scope,
    });
    const body = (response.body ?? {}) as Record<string, unknown>;
    const lifetime =
      token.expiresAt === undefined
        ? 'no lifetime given'
        : `expires in ${Math.round((token.expiresAt - token.issuedAt) / 1000)} s`;
    const asked = scope === undefined ? '' : `, asked for scope ${scope} (${SCREENING_SCOPE})`;
    const line: DoctorLine = {
      check,
      verdict: 'ok',
      detail:
        `issued to ${variables.id}${asked} (${token.tokenType ?? 'no token_type'}, ${lifetime}, scope ` +
        `${typeof body.scope === 'string' ? body.scope : 'not said'})`,
    };
    return { line, token };
  } catch (error) {
    return { line: failureLine(check, error, 'CONTRACT_AUTH_URL'), token: undefined };
  }
}

/**
 * Operations 1 to 7 with the client's token, screening with the screening token when
 * CONTRACT_SCREENING_SCOPE asks for one: each operation's line, and the probes the target throttled
 * to their deadline (`throttled`: the rate limit line says so, once).
 */
async function operationLines(
  config: ContractConfig,
  token: IssuedToken,
  screeningToken: IssuedToken | undefined,
): Promise<{ lines: DoctorLine[]; throttled: TargetThrottledError[] }> {
  const bearer = (issued: IssuedToken) =>
    new ApiClient({
      baseUrl: config.baseUrl,
      addressSetting: BASE,
      requestTimeoutMs: PROBE_TIMEOUT_MS,
      auth: { kind: 'raw', authorization: `Bearer ${issued.accessToken}` },
    });
  const api = bearer(token);
  const screening = screeningToken && new AmlScreening(screeningToken === token ? api : bearer(screeningToken), config);
  const name = { firstName: 'Doctor', lastName: 'Probe' };
  const send = (operation: DoctorOperation): Promise<ApiResponse> => {
    if (operation.id === 'op8')
      return screening!.screenPerson(screening!.personRequest(TEST_REFERENCES.politician, name));
    if (operation.id === 'op9')
      return screening!.screenCompany(screening!.companyRequest(TEST_REFERENCES.firstCompany));
    if (operation.id === 'op1' || operation.id === 'op2') assertSandboxTarget(config, operation.id);
    return api.request(operation.method, operation.path, {
      json: operation.body,
      operation: operation.id,
      purpose: `doctor: ${operation.id}`,
    });
  };
  // Without the screening token (its line says why) screening is not probed: a bci token's refusal would blame the
  // wrong setting.
  const operations = doctorOperations(config).filter(
    (operation) => screening || !['op8', 'op9'].includes(operation.id),
  );
  const answers = await Promise.all(
    operations.map((operation) =>
      send(operation).then(
        (response) => ({ response }),
        (error: unknown) => ({ error }),
      ),
    ),
  );
  const lines = operations.map((operation, index): DoctorLine => {
    const check = `${operation.id} ${operation.method}`;
    const answer = answers[index]!;
    if ('error' in answer) {
      if (answer.error instanceof TargetThrottledError)
        return { check, verdict: 'skip', detail: 'not checked: throttled to its deadline (see rate limit)' };
      return failureLine(check, answer.error, operation.pathSetting);
    }
    return { check, ...judgeAnswer(operation, answer.response.status) };
  });
  const throttled = answers.flatMap((answer) =>
    'error' in answer && answer.error instanceof TargetThrottledError ? [answer.error] : [],
  );
  const person = answers[operations.findIndex((operation) => operation.id === 'op8')];
  if (!person)
    return {
      lines: [...lines, { check: 'screening', verdict: 'skip', detail: 'not checked: no screening token (see above)' }],
      throttled,
    };
  const status = 'response' in person ? person.response.status : undefined;
  const provider = `provider ${config.screeningProvider}`;
  let screeningLine: DoctorLine;
  if (status !== undefined && status >= 200 && status < 300) {
    const scope = config.screeningScope === undefined ? 'the bci token' : `the token of scope ${config.screeningScope}`;
    screeningLine = {
      check: 'screening',
      verdict: 'ok',
      detail: `${provider} and ${scope} accepted (${TEST_REFERENCES.politician} answered ${status})`,
    };
  } else if (status === 400 || status === 422) {
    screeningLine = {
      check: 'screening',
      verdict: 'FAIL',
      detail: `${TEST_REFERENCES.politician} with ${provider} answered ${status}: the provider code is likely wrong`,
      setting: 'CONTRACT_SCREENING_PROVIDER',
    };
  } else if (status === 401 || status === 403) {
    const scope = config.screeningScope === undefined ? 'the bci token' : `the token of scope ${config.screeningScope}`;
    screeningLine = {
      check: 'screening',
      verdict: 'FAIL',
      detail:
        `${TEST_REFERENCES.politician} answered ${status}: ${scope} is not accepted for screening; the vendor's ` +
        'screening scopes are separate from bci: set the one it gave this client',
      setting: SCREENING_SCOPE,
    };
  } else {
    screeningLine = {
      check: 'screening',
      verdict: 'skip',
      detail:
        `${provider}: not judged (person screening ${status === undefined ? 'failed' : `answered ${status}`}, see ` +
        'its line)',
    };
  }
  return { lines: [...lines, screeningLine], throttled };
}

/**
 * Asked for: one sandbox person created, read back by gedi once it is available (rule 2), and
 * deleted; written to the ledger first, as a run's persons are, so `npm run sweep` finds it if the
 * doctor is interrupted. The one check that proves operation 3's path, where a made-up gedi cannot.
 */
async function personLine(config: ContractConfig, token: IssuedToken): Promise<DoctorLine> {
  const check = 'person';
  const api = new ApiClient({
    baseUrl: config.baseUrl,
    addressSetting: BASE,
    requestTimeoutMs: config.requestTimeoutMs,
    auth: { kind: 'bearer', tokens: new TokenProvider(config.authUrl, config.client, token) },
  });
  // Loaded only when asked: the person verbs bring the report, polling and data factories (about 0.6 CPU-seconds).
  const [{ SandboxPersons }, { createDataFactory }, { pruneLedgers }] = await Promise.all([
    import('../verbs/persons.js'),
    import('../data/factories.js'),
    import('../data/ledger.js'),
  ]);
  const persons = new SandboxPersons(
    api,
    config,
    createDataFactory({ seed: config.seed, runId: config.runId, market: config.market, scope: 'doctor' }),
  );
  const started = Date.now();
  try {
    const stored = await persons.createAvailable();
    return {
      check,
      verdict: 'ok',
      detail:
        `created (gedi ${stored.gedi}), returned by operation 3 after ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s, deleted again`,
    };
  } catch (error) {
    return failureLine(check, error, BASE);
  } finally {
    await persons.cleanUp();
    pruneLedgers();
  }
}

/**
 * What the doctor's own answers showed of the target's rate limit: how many were throttled (429, or
 * 503 with Retry-After), and what a run makes of them (the pace, support/transport/pace.ts). Probes throttled to their
 * deadline fail here, once, with the setting to lower: their own lines are skipped, for the throttle says nothing about
 * their paths.
 */
export function rateLimitLine(
  answers: readonly Pick<HttpExchange, 'status' | 'responseHeaders'>[],
  throttledProbes: readonly TargetThrottledError[] = [],
  nowMs = Date.now(),
): DoctorLine {
  const check = 'rate limit';
  const throttled = answers.filter(({ status, responseHeaders }) => throttledAnswer(status, responseHeaders, nowMs));
  const kinds = new Set(
    throttled.map(({ status, responseHeaders }) =>
      responseHeaders['retry-after'] === undefined
        ? `${status}`
        : `${status} Retry-After ${responseHeaders['retry-after']}`,
    ),
  );
  const refused =
    throttled.length === 0
      ? `none of ${answers.length} answers throttled`
      : `${throttled.length} of ${answers.length} answers throttled (${[...kinds].join(', ')})`;
  if (throttledProbes.length > 0) {
    return {
      check,
      verdict: 'FAIL',
      detail:
        `${refused}; ${throttledProbes.length} probe(s) throttled to their deadline, the first: ` +
        `${throttledProbes[0]!.message}`,
      setting: MAX_RPS,
    };
  }
  const pace =
    `a run pauses each client for a Retry-After and slows it after a burst of refusals (${MAX_RPS} caps it from ` +
    'the start)';
  return { check, verdict: throttled.length === 0 ? 'ok' : 'note', detail: `${refused}: ${pace}` };
}

/** Runs every check against the configured target; stops early only where nothing further can be checked. */
export async function runDoctor(
  env: NodeJS.ProcessEnv = process.env,
  options: DoctorOptions = {},
): Promise<DoctorReport> {
  const lines: DoctorLine[] = [];
  // Every attempt the client makes is published once: counted there, retries and renewals included.
  let requests = 0;
  const answers: Pick<HttpExchange, 'status' | 'responseHeaders'>[] = [];
  const throttledProbes: TargetThrottledError[] = [];
  const stopCounting = observeExchanges(({ status, responseHeaders }) => {
    requests += 1;
    if (status !== null) answers.push({ status, responseHeaders });
  });
  const report = () => {
    stopCounting();
    if (answers.length > 0) lines.push(rateLimitLine(answers, throttledProbes));
    return {
      lines,
      requests,
      failed: lines.filter((line) => line.verdict === 'FAIL').length,
      personCreated: options.createPerson === true,
    };
  };
  let config: ContractConfig;
  try {
    const settings = readSettings(env);
    if (!settings.baseUrl) {
      return {
        ...report(),
        nothingToCheck:
          'CONTRACT_BASE_URL is not set, so runs use the embedded simulator. To check a sandbox, set ' +
          'CONTRACT_BASE_URL, CONTRACT_CLIENT_ID, CONTRACT_CLIENT_SECRET and CONTRACT_SCREENING_PROVIDER (README: ' +
          '"Running against the sandbox")',
      };
    }
    const seed = settings.seed ?? Math.floor(Math.random() * 2 ** 31);
    config = resolveConfig(settings, undefined, `doctor${Date.now().toString(36)}`, seed);
  } catch (error) {
    lines.push({
      check: 'configuration',
      verdict: 'FAIL',
      detail: error instanceof Error ? error.message : String(error),
      setting: error instanceof ConfigError ? error.variable : undefined,
    });
    return report();
  }
  const clients = [config.client, config.secondClient].filter((client): client is Credentials => client !== undefined);
  lines.push({
    check: 'configuration',
    verdict: 'ok',
    detail:
      `API ${config.baseUrl}, tokens ` +
      `${config.authUrl}${config.authUrl === config.baseUrl ? ' (the base URL)' : ''}, market ${config.market}, ` +
      `${clients.length} client(s), screening provider ${config.screeningProvider}`,
  });

  const origins = [
    ...new Map([
      [new URL(config.authUrl).origin, 'CONTRACT_AUTH_URL'],
      [new URL(config.baseUrl).origin, BASE],
    ]),
  ].map(([origin, setting]) => ({ url: new URL(origin), setting }));
  // The token host is checked under CONTRACT_BASE_URL when it is the base URL.
  if (origins.length === 1) origins[0]!.setting = config.authUrl === config.baseUrl ? BASE : 'CONTRACT_AUTH_URL';
  const reachable = new Map<string, boolean>();
  for (const { url, setting } of origins) {
    const connection = await connectionLines(url, setting);
    lines.push(...connection.lines);
    reachable.set(url.origin, connection.reachable);
  }

  const authReachable = reachable.get(new URL(config.authUrl).origin) ?? false;
  const asked = (
    [
      [config.client, CLIENT_VARIABLES],
      [config.secondClient, SECOND_CLIENT_VARIABLES],
    ] as const
  ).flatMap(([credentials, variables]) => (credentials ? [{ credentials, variables }] : []));
  // Every client at once: a token service that throttles holds each request until its deadline.
  const tokens = await Promise.all(
    asked.map(({ credentials, variables }) =>
      authReachable
        ? tokenLine(config, credentials, variables)
        : {
            line: {
              check: `token ${credentials.clientId}`,
              verdict: 'skip' as const,
              detail: 'not checked: the connection to the token service failed (see above)',
            },
            token: undefined,
          },
    ),
  );
  lines.push(...tokens.map(({ line }) => line));
  const primary = tokens[0]?.token;
  if (!reachable.get(new URL(config.baseUrl).origin) || !primary) {
    lines.push({
      check: 'operations',
      verdict: 'skip',
      detail: primary
        ? 'not checked: the connection to the API host failed (see above)'
        : 'not checked: no token for the first client (see above)',
    });
    return report();
  }
  let screeningToken: IssuedToken | undefined = primary;
  if (config.screeningScope !== undefined) {
    const screening = await tokenLine(config, config.client, CLIENT_VARIABLES, config.screeningScope);
    lines.push(screening.line);
    screeningToken = screening.token;
  }
  const operations = await operationLines(config, primary, screeningToken);
  lines.push(...operations.lines);
  throttledProbes.push(...operations.throttled);
  if (options.createPerson) lines.push(await personLine(config, primary));
  return report();
}

/** One line per check: the verdict, the check, what it found, and for a failure the setting to change. */
export function formatDoctor(
  { lines, requests, failed, personCreated, nothingToCheck }: DoctorReport,
  seconds: number,
): string {
  if (nothingToCheck !== undefined) return `doctor: nothing to check: ${nothingToCheck}`;
  const width = Math.max(...lines.map((line) => line.check.length));
  const body = lines.map(
    ({ verdict, check, detail, setting }) =>
      `${verdict.padEnd(4)}  ${check.padEnd(width)}  ` +
      `${detail}${verdict === 'FAIL' && setting ? ` → fix: ${setting}` : ''}`,
  );
  const summary = failed === 0 ? 'everything checked works' : `${failed} check(s) to fix`;
  const persons = personCreated
    ? 'one person created and deleted'
    : 'no person created (--create-person creates and deletes one)';
  return [...body, `doctor: ${summary}; ${requests} request(s) in ${seconds.toFixed(1)} s, ${persons}`].join('\n');
}
