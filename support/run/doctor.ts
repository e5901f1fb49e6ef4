// Owns `npm run doctor`: in a handful of requests, one line per check of the configured sandbox, each failing line
// naming the setting that fixes it. It creates nothing: its writes carry bodies the service must refuse.
import { lookup } from 'node:dns/promises';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { isIP } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TLSSocket } from 'node:tls';
import {
  assertSandboxTarget,
  CLIENT_VARIABLES,
  ConfigError,
  expandPath,
  pathSettingOf,
  readSettings,
  resolveConfig,
  SECOND_CLIENT_VARIABLES,
  type ContractConfig,
} from './config.js';
import { requestToken, SCOPE_VARIABLE, TokenError, TokenProvider, type IssuedToken } from './tokens.js';
import { messageOf, NetworkSetupError } from '../transport/network-failures.js';
import { describeProxy, routeFor, type Route } from '../transport/proxy-routes.js';
import { ApiClient, seconds, TargetThrottledError, TargetUnavailableError } from '../transport/http.js';
import { observeExchanges, type HttpExchange } from '../transport/exchanges.js';
import { PERMISSIONS } from '../evidence/failures.js';
import { RETRY_POLICY, throttledAnswer } from '../transport/retry.js';
import { AmlScreening, TEST_REFERENCES } from '../verbs/screening.js';

const BASE = 'CONTRACT_BASE_URL';
const AUTH = 'CONTRACT_AUTH_URL';
const MARKET = 'CONTRACT_MARKET';
const MAX_RPS = 'CONTRACT_MAX_RPS';
const PROBE_TIMEOUT_MS = 5_000;
const PROBE_NAME = { firstName: 'Doctor', lastName: 'Probe' };

/** A check's verdict and what it found; `setting` is the one that fixes a failing check. */
type DoctorLine = { check: string; verdict: 'ok' | 'FAIL' | 'skip' | 'note'; detail: string; setting?: string };
const line =
  (verdict: DoctorLine['verdict']) =>
  (check: string, detail: string, setting?: string): DoctorLine => ({ check, verdict, detail, setting });
const [ok, fail, skip, note] = (['ok', 'FAIL', 'skip', 'note'] as const).map(line);

/** A check that threw, as a failing line naming the setting its error names, else `fallbackSetting`. */
function failureLine(check: string, error: unknown, fallbackSetting: string): DoctorLine {
  if (error instanceof NetworkSetupError) return fail(check, error.message, error.setting);
  if (error instanceof TokenError) return fail(check, error.message, error.variables.join(' or '));
  // Throttled to its deadline, the probe says nothing about the path or the credentials it used.
  if (error instanceof TargetThrottledError) return fail(check, error.message, MAX_RPS);
  if (error instanceof TargetUnavailableError) return fail(check, error.message, fallbackSetting);
  return fail(check, error instanceof Error ? `${error.name}: ${error.message}` : String(error), fallbackSetting);
}

/** Each operation's probe as its line says it, and the setting a 403 names (the permission, as in failures.ts). */
const PROBES: Record<string, [method: string, probe: string, permissionSetting: string, body?: unknown]> = {
  op1: ['PUT', 'an empty person (no person created)', CLIENT_VARIABLES.id, {}],
  op2: ['DELETE', 'a body without an id (nothing deleted)', CLIENT_VARIABLES.id, {}],
  op3: ['GET', 'a gedi that does not exist', MARKET],
  op4: ['POST', 'a search without a legal id', MARKET, {}],
  op5: ['POST', 'an empty consumer list (nothing uploaded)', MARKET, []],
  op6: ['GET', 'a read of the consumers', MARKET],
  op7: ['GET', 'a read of the subscribed persons', MARKET],
  op8: ['POST', `the sandbox test case ${TEST_REFERENCES.politician}`, SCOPE_VARIABLE],
  op9: ['POST', `the sandbox test case ${TEST_REFERENCES.firstCompany}`, SCOPE_VARIABLE],
};

/** Every operation the doctor probes, at its configured path, with the variable that moves it. */
export function doctorOperations(config: ContractConfig) {
  return Object.entries(PROBES).map(([id, [method, probe, permissionSetting, body]]) => {
    const { key, variable: pathSetting } = pathSettingOf(id)!;
    const path = expandPath(config.paths[key], { market: config.market, gedi: 'doctor-no-such-gedi' });
    // A made-up gedi's 404 cannot tell a wrong path from a right one.
    const ambiguous = id === 'op3' ? 404 : undefined;
    return { id, method, check: `${id} ${method}`, path, pathSetting, permissionSetting, body, probe, ambiguous };
  });
}
type DoctorOperation = ReturnType<typeof doctorOperations>[number];

/** What an operation's answer means, as one line. */
export function judgeAnswer(operation: DoctorOperation, status: number): DoctorLine {
  const { check, permissionSetting, pathSetting } = operation;
  const answered = `${operation.path}: ${status} to ${operation.probe}`;
  const failed = (why: string, setting: string) => fail(check, `${answered}: ${why}`, setting);
  if (status === operation.ambiguous) {
    const proves = 'a wrong path would answer the same: this proves only that the host answers';
    return ok(check, `${answered}, as expected (${proves})`);
  }
  if (status === 401) {
    const why = "The client may not be entitled to this API, or the token's scope does not cover it";
    const setting = permissionSetting === SCOPE_VARIABLE ? SCOPE_VARIABLE : CLIENT_VARIABLES.id;
    return failed(`the token was not accepted here (401). ${why}`, setting);
  }
  if (status === 403) {
    const needed = PERMISSIONS[operation.id] ?? 'the client lacks the permission for this operation';
    return failed(`authenticated but not permitted (403): ${needed}`, permissionSetting);
  }
  if (status === 404)
    return failed('nothing answers at this path (or, the vendor says, no access to it) (404)', pathSetting);
  if (status === 405) return failed('the path is there but not for this method (405)', pathSetting);
  if (status === 429) return failed('rate-limited even after the retries; try again later', MAX_RPS);
  if (status >= 500)
    return failed(`the service failed (${status}); if it persists, the path may be wrong`, pathSetting);
  return ok(check, `${answered}: the operation is there`);
}

const client = (options: ConstructorParameters<typeof ApiClient>[0]) =>
  new ApiClient({ requestTimeoutMs: PROBE_TIMEOUT_MS, ...options });

/** What one request to `host` showed through undici's diagnostics: its TLS session, and the proxy tunnel it took. */
async function watchConnection(host: string, work: () => Promise<unknown>) {
  const seen: { tls?: string; tunnel?: string } = {};
  const connected = (message: unknown) => {
    const { connectParams, socket } = message as { connectParams: URL; socket: TLSSocket };
    if (connectParams.hostname !== host || connectParams.protocol !== 'https:' || !socket.getPeerCertificate) return;
    const { subject, issuer, valid_to: validTo } = socket.getPeerCertificate();
    const name = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);
    seen.tls =
      `${socket.getProtocol() ?? 'TLS'}, certificate ${name(subject?.CN) ?? '(no CN)'} issued by ` +
      `${name(issuer?.CN) ?? '(no CN)'}, trusted, valid until ${validTo ?? '?'}`;
  };
  const tunnelled = (message: unknown) => {
    seen.tunnel = (message as { connectParams: { path: string } }).connectParams.path;
  };
  subscribe('undici:client:connected', connected);
  subscribe('undici:proxy:connected', tunnelled);
  try {
    await work();
    return seen;
  } finally {
    unsubscribe('undici:client:connected', connected);
    unsubscribe('undici:proxy:connected', tunnelled);
  }
}

async function dnsLine(url: URL, setting: string, route: Route): Promise<DoctorLine> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const check = `DNS ${host}`;
  if (isIP(host)) return ok(check, 'an address: nothing to look up');
  const timeout = sleep(PROBE_TIMEOUT_MS, undefined, { ref: false }).then(() => {
    throw new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`);
  });
  try {
    const addresses = await Promise.race([lookup(host, { all: true }), timeout]);
    return ok(check, `resolves to ${addresses.map(({ address }) => address).join(', ')}`);
  } catch (error) {
    if (route.kind === 'proxy') {
      const through = `requests to it go through the proxy ${describeProxy(route.proxy)}, which resolves it`;
      return ok(check, `does not resolve here, which is fine: ${through}`);
    }
    const why = 'the host name is wrong, or this network reaches the internet only through a proxy';
    return fail(check, `does not resolve (${messageOf(error)}): ${why} (then set HTTPS_PROXY)`, setting);
  }
}

/** The lines of the connection to one origin (DNS, proxy, TLS), from one request that needs no token. */
async function connectionLines(url: URL, setting: string): Promise<DoctorLine[]> {
  const route = routeFor(url);
  const dns = await dnsLine(url, setting, route);
  if (dns.verdict === 'FAIL') return [dns];
  const via =
    route.kind === 'proxy'
      ? `through ${describeProxy(route.proxy)}`
      : route.exemptedBy
        ? `direct: ${route.exemptedBy} exempts it from the proxy`
        : 'direct: no proxy variable (HTTPS_PROXY, HTTP_PROXY) is set';
  const proxy = (tunnel?: string) => ok(`proxy ${url.host}`, `${via}${tunnel ? `: tunnel to ${tunnel} opened` : ''}`);
  const probe = client({ baseUrl: url.origin, addressSetting: setting, policy: { ...RETRY_POLICY, maxAttempts: 1 } });
  try {
    const purpose = 'doctor: connection';
    const { tls, tunnel } = await watchConnection(url.hostname, () => probe.request('GET', '/', { purpose }));
    const tlsLine =
      url.protocol === 'https:'
        ? ok(`TLS ${url.host}`, tls ?? 'certificate trusted')
        : note(`TLS ${url.host}`, 'plain http: no TLS (the documentation samples use https)');
    return [dns, proxy(tunnel), tlsLine];
  } catch (error) {
    const reason = error instanceof NetworkSetupError ? error.reason : undefined;
    if (reason?.startsWith('proxy')) return [dns, failureLine(`proxy ${url.host}`, error, setting)];
    return [dns, proxy(), failureLine(`${reason ? 'TLS' : 'connection'} ${url.host}`, error, setting)];
  }
}

/** A token for one client (for screening when a scope is given): its line, and the token if one came. */
async function tokenLine(
  config: ContractConfig,
  { credentials, variables }: { credentials: ContractConfig['client']; variables: typeof CLIENT_VARIABLES },
  authDown: boolean,
  scope?: string,
) {
  const check = `token ${credentials.clientId}${scope === undefined ? '' : ' for screening'}`;
  if (authDown) return { line: skip(check, 'not checked: the connection to the token service failed (see above)') };
  try {
    const { token, response } = await requestToken(config.authUrl, credentials, {
      credentialVariables: variables,
      purpose: 'doctor: token',
      requestTimeoutMs: PROBE_TIMEOUT_MS,
      scope,
    });
    const granted = (response.body as { scope?: unknown }).scope;
    const { expiresAt, issuedAt, tokenType = 'no token_type' } = token;
    const lifetime = expiresAt ? `expires in ${Math.round((expiresAt - issuedAt) / 1000)} s` : 'no lifetime given';
    const asked = scope === undefined ? '' : `, asked for scope ${scope} (${SCOPE_VARIABLE})`;
    const said = typeof granted === 'string' ? granted : 'not said';
    return { line: ok(check, `issued to ${variables.id}${asked} (${tokenType}, ${lifetime}, scope ${said})`), token };
  } catch (error) {
    return { line: failureLine(check, error, AUTH) };
  }
}

/** A line for each operation and for screening; probes throttled to their deadline go to `throttled`. */
async function operationLines(
  config: ContractConfig,
  token: IssuedToken,
  screeningToken: IssuedToken | undefined,
  throttled: TargetThrottledError[],
): Promise<DoctorLine[]> {
  const auth = ({ accessToken }: IssuedToken) => ({ kind: 'raw' as const, authorization: `Bearer ${accessToken}` });
  const bearer = (token: IssuedToken) => client({ baseUrl: config.baseUrl, addressSetting: BASE, auth: auth(token) });
  const api = bearer(token);
  const screening = screeningToken && new AmlScreening(screeningToken === token ? api : bearer(screeningToken), config);
  const send = ({ id, method, path, body }: DoctorOperation) => {
    if (id === 'op8') return screening!.screenPerson(screening!.personRequest(TEST_REFERENCES.politician, PROBE_NAME));
    if (id === 'op9') return screening!.screenCompany(screening!.companyRequest(TEST_REFERENCES.firstCompany));
    if (id === 'op1' || id === 'op2') assertSandboxTarget(config, id);
    return api.request(method, path, { json: body, operation: id, purpose: `doctor: ${id}` });
  };
  // Without the screening token screening is not probed: a bci token's refusal would blame the wrong setting.
  const operations = doctorOperations(config).filter(({ id }) => screening || !['op8', 'op9'].includes(id));
  const answers = await Promise.allSettled(operations.map(send));
  const lines = operations.map((operation, index) => {
    const answer = answers[index]!;
    if (answer.status === 'fulfilled') return judgeAnswer(operation, answer.value.status);
    if (!(answer.reason instanceof TargetThrottledError))
      return failureLine(operation.check, answer.reason, operation.pathSetting);
    throttled.push(answer.reason);
    return skip(operation.check, 'not checked: throttled to its deadline (see rate limit)');
  });
  const person = answers[operations.findIndex(({ id }) => id === 'op8')];
  if (!person) lines.push(skip('screening', 'not checked: no screening token (see above)'));
  else lines.push(screeningLine(config, person.status === 'fulfilled' ? person.value.status : undefined));
  return lines;
}

/** What the person screening probe's answer says of the screening provider and token. */
function screeningLine(config: ContractConfig, status: number | undefined): DoctorLine {
  const provider = `provider ${config.screeningProvider}`;
  const scope = config.screeningScope === undefined ? 'the bci token' : `the token of scope ${config.screeningScope}`;
  const testCase = TEST_REFERENCES.politician;
  if (status !== undefined && status >= 200 && status < 300)
    return ok('screening', `${provider} and ${scope} accepted (${testCase} answered ${status})`);
  if (status === 400 || status === 422) {
    const detail = `${testCase} with ${provider} answered ${status}: the provider code is likely wrong`;
    return fail('screening', detail, 'CONTRACT_SCREENING_PROVIDER');
  }
  if (status === 401 || status === 403) {
    const separate = "the vendor's screening scopes are separate from bci: set the one it gave this client";
    const detail = `${testCase} answered ${status}: ${scope} is not accepted for screening; ${separate}`;
    return fail('screening', detail, SCOPE_VARIABLE);
  }
  const answered = status === undefined ? 'failed' : `answered ${status}`;
  return skip('screening', `${provider}: not judged (person screening ${answered}, see its line)`);
}

/** Asked for: a sandbox person created (in the ledger first), read back by gedi and deleted, proving op3's path. */
async function personLine(config: ContractConfig, token: IssuedToken): Promise<DoctorLine> {
  const { baseUrl, requestTimeoutMs, seed, runId, market } = config;
  const tokens = new TokenProvider(config.authUrl, config.client, token);
  const api = new ApiClient({ baseUrl, addressSetting: BASE, requestTimeoutMs, auth: { kind: 'bearer', tokens } });
  // Loaded only when asked: the person verbs bring the report, polling and data factories (about 0.6 CPU-seconds).
  const { SandboxPersons } = await import('../verbs/persons.js');
  const { createDataFactory } = await import('../data/factories.js');
  const { pruneLedgers } = await import('../data/ledger.js');
  const persons = new SandboxPersons(api, config, createDataFactory({ seed, runId, market, scope: 'doctor' }));
  const started = Date.now();
  try {
    const { gedi } = await persons.createAvailable();
    const after = `returned by operation 3 after ${seconds(Date.now() - started)}`;
    return ok('person', `created (gedi ${gedi}), ${after}, deleted again`);
  } catch (error) {
    return failureLine('person', error, BASE);
  } finally {
    await persons.cleanUp();
    pruneLedgers();
  }
}

/** How many answers were throttled; probes throttled to their deadline fail here, once, naming the rate to lower. */
export function rateLimitLine(
  exchanges: readonly Pick<HttpExchange, 'status' | 'responseHeaders'>[],
  throttledProbes: readonly TargetThrottledError[] = [],
): DoctorLine {
  const now = Date.now();
  const answers = exchanges.filter(({ status }) => status !== null);
  const throttled = answers.filter(({ status, responseHeaders }) => throttledAnswer(status, responseHeaders, now));
  const kinds = new Set(
    throttled.map(({ status, responseHeaders: { 'retry-after': after } }) =>
      after === undefined ? `${status}` : `${status} Retry-After ${after}`,
    ),
  );
  const refused =
    throttled.length === 0
      ? `none of ${answers.length} answers throttled`
      : `${throttled.length} of ${answers.length} answers throttled (${[...kinds].join(', ')})`;
  const [first] = throttledProbes;
  if (first) {
    const probes = `${throttledProbes.length} probe(s) throttled to their deadline, the first: ${first.message}`;
    return fail('rate limit', `${refused}; ${probes}`, MAX_RPS);
  }
  const pace = `a run pauses each client for a Retry-After and slows it after a burst of refusals (${MAX_RPS} caps it`;
  return (throttled.length === 0 ? ok : note)('rate limit', `${refused}: ${pace} from the start)`);
}

/** Runs every check against the configured target, stopping early only where nothing further can be checked. */
export async function runDoctor(env: NodeJS.ProcessEnv, createPerson: boolean) {
  const started = performance.now();
  const lines: DoctorLine[] = [];
  const throttledProbes: TargetThrottledError[] = [];
  // Every attempt of a client is published once: counted there, retries and renewals included.
  const exchanges: HttpExchange[] = [];
  const stopCounting = observeExchanges((exchange) => exchanges.push(exchange));
  // What `npm run doctor` prints: one line per check, each failure ending with its setting, then a summary.
  const report = (nothingToCheck?: string) => {
    stopCounting();
    if (nothingToCheck !== undefined) return { output: `doctor: nothing to check: ${nothingToCheck}`, failed: false };
    if (exchanges.some(({ status }) => status !== null)) lines.push(rateLimitLine(exchanges, throttledProbes));
    const width = Math.max(...lines.map(({ check }) => check.length));
    const fix = ({ verdict, setting }: DoctorLine) => (verdict === 'FAIL' && setting ? ` → fix: ${setting}` : '');
    const row = (line: DoctorLine) =>
      `${line.verdict.padEnd(4)}  ${line.check.padEnd(width)}  ${line.detail}${fix(line)}`;
    const failed = lines.filter(({ verdict }) => verdict === 'FAIL').length;
    const summary = failed === 0 ? 'everything checked works' : `${failed} check(s) to fix`;
    const persons = createPerson
      ? 'one person created and deleted'
      : 'no person created (--create-person creates and deletes one)';
    const took = `${exchanges.length} request(s) in ${seconds(performance.now() - started)}`;
    return { output: [...lines.map(row), `doctor: ${summary}; ${took}, ${persons}`].join('\n'), failed: failed > 0 };
  };
  let config: ContractConfig;
  try {
    const settings = readSettings(env);
    if (!settings.baseUrl) {
      return report(
        'CONTRACT_BASE_URL is not set, so runs use the embedded simulator. To check a sandbox, set ' +
          'CONTRACT_BASE_URL, CONTRACT_CLIENT_ID, CONTRACT_CLIENT_SECRET and CONTRACT_SCREENING_PROVIDER (README: ' +
          '"Running against the sandbox")',
      );
    }
    config = resolveConfig(settings, undefined, `doctor${Date.now().toString(36)}`);
  } catch (error) {
    lines.push(fail('configuration', messageOf(error), error instanceof ConfigError ? error.variable : undefined));
    return report();
  }
  const clients = [{ credentials: config.client, variables: CLIENT_VARIABLES }];
  if (config.secondClient) clients.push({ credentials: config.secondClient, variables: SECOND_CLIENT_VARIABLES });
  const { baseUrl, authUrl } = config;
  const tokensAt = `${authUrl}${authUrl === baseUrl ? ' (the base URL)' : ''}`;
  const clientCount = `${clients.length} client(s), screening provider ${config.screeningProvider}`;
  lines.push(ok('configuration', `API ${baseUrl}, tokens ${tokensAt}, market ${config.market}, ${clientCount}`));

  // Each origin once; the token host is checked under CONTRACT_BASE_URL when it is the base URL.
  const sameOrigin = new URL(authUrl).origin === new URL(baseUrl).origin;
  const tokenHost = await connectionLines(new URL(authUrl), authUrl === baseUrl ? BASE : AUTH);
  const apiHost = sameOrigin ? tokenHost : await connectionLines(new URL(baseUrl), BASE);
  lines.push(...tokenHost, ...(sameOrigin ? [] : apiHost));
  const down = (connection: DoctorLine[]) => connection.some(({ verdict }) => verdict === 'FAIL');

  // Every client at once: a token service that throttles holds each request until its deadline.
  const tokens = await Promise.all(clients.map((client) => tokenLine(config, client, down(tokenHost))));
  lines.push(...tokens.map(({ line }) => line));
  const primary = tokens[0]?.token;
  if (down(apiHost) || !primary) {
    const failed = primary ? 'the connection to the API host failed' : 'no token for the first client';
    lines.push(skip('operations', `not checked: ${failed} (see above)`));
    return report();
  }
  const { screeningScope } = config;
  const screening =
    screeningScope === undefined ? { token: primary } : await tokenLine(config, clients[0]!, false, screeningScope);
  if ('line' in screening) lines.push(screening.line);
  lines.push(...(await operationLines(config, primary, screening.token, throttledProbes)));
  if (createPerson) lines.push(await personLine(config, primary));
  return report();
}
