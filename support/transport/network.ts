// The route of every request (direct or through the environment's proxy) and the one place undici dispatchers are
// made. Not EnvHttpProxyAgent: it decides privately, and messages must name the variable that sent a request where.
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { registerSecret } from './redact.js';

/** A proxy variable that is not a usable proxy address; `variable` names it. */
export class ProxySettingError extends Error {
  override readonly name = 'ProxySettingError';
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`${variable}: ${problem}`);
  }
}

function firstSet(env: NodeJS.ProcessEnv, names: readonly string[]): { variable: string; value: string } | undefined {
  const variable = names.find((name) => env[name]?.trim());
  return variable === undefined ? undefined : { variable, value: env[variable]!.trim() };
}

function proxySetting(env: NodeJS.ProcessEnv, names: readonly string[]) {
  const found = firstSet(env, names);
  if (!found) return undefined;
  // A bare host:port is what many CI runners set; it means an http proxy.
  const address = /^[a-z][a-z0-9+.-]*:\/\//i.test(found.value) ? found.value : `http://${found.value}`;
  const url = URL.parse(address);
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    const problem = url
      ? `uses ${url.protocol}, which this suite cannot tunnel through; use an http:// or https:// proxy`
      : 'is not a proxy address; set it to http://host:port (or http://user:password@host:port)';
    throw new ProxySettingError(found.variable, problem);
  }
  // Proxy credentials are secrets: blanked in every report, log and message, in every form they take.
  if (url.password) {
    const [user, password] = [decodeURIComponent(url.username), decodeURIComponent(url.password)];
    [url.password, password, Buffer.from(`${user}:${password}`).toString('base64')].forEach(registerSecret);
  }
  return { variable: found.variable, url };
}
type ProxySetting = NonNullable<ReturnType<typeof proxySetting>>;

/** Reads the proxy variables as Node tools do: the lower-case form wins, an https URL falls back on the http proxy. */
export function readProxySettings(env: NodeJS.ProcessEnv) {
  const http = proxySetting(env, ['http_proxy', 'HTTP_PROXY']);
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY']);
  return {
    http,
    https: proxySetting(env, ['https_proxy', 'HTTPS_PROXY']) ?? http,
    // NO_PROXY entries: a host name (its subdomains too) with an optional port, or `*` for every host.
    noProxy: noProxy && {
      variable: noProxy.variable,
      entries: (noProxy.value.match(/[^,\s]+/g) ?? []).map((entry) => {
        const [, host = entry, port] = /^(.+):(\d+)$/.exec(entry) ?? [];
        return {
          host: host.replace(/^\*?\./, '').toLowerCase(),
          port: port === undefined ? undefined : Number(port),
        };
      }),
    },
  };
}
type ProxySettings = ReturnType<typeof readProxySettings>;

/** A proxy address fit to print: its password never. */
export function describeProxy(setting: ProxySetting): string {
  const { protocol, username, password, host } = setting.url;
  const user = username ? `${username}${password ? ':***' : ''}@` : '';
  return `${protocol}//${user}${host} (${setting.variable})`;
}

export type Route = { kind: 'direct'; exemptedBy?: string } | { kind: 'proxy'; proxy: ProxySetting };

/** How a message names the route after the host: ` (through the proxy …)`, or nothing when direct. */
export function viaProxy(route: Route): string {
  return route.kind === 'proxy' ? ` (through the proxy ${describeProxy(route.proxy)})` : '';
}

/** How a request to `url` travels: through the proxy for its scheme, unless NO_PROXY names its host. */
export function routeFor(url: URL, settings: ProxySettings = proxySettings()): Route {
  const proxy = url.protocol === 'https:' ? settings.https : settings.http;
  if (!proxy) return { kind: 'direct' };
  const host = url.hostname.toLowerCase();
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const exempt = settings.noProxy?.entries.find(
    (entry) =>
      entry.host === '*' ||
      ((entry.port === undefined || entry.port === port) && (host === entry.host || host.endsWith(`.${entry.host}`))),
  );
  if (!exempt) return { kind: 'proxy', proxy };
  return {
    kind: 'direct',
    exemptedBy: `${settings.noProxy!.variable} (${exempt.host}${exempt.port ? `:${exempt.port}` : ''})`,
  };
}

// One keep-alive pool per process and route: every test shares the connections to the target. HTTP/1.1 only, as
// before undici 8, which negotiates HTTP/2 over TLS: the simulators speak HTTP/1.1, so no check covers an HTTP/2 path.
const POOL = { keepAliveTimeout: 10_000, connections: 64, allowH2: false };

let settings: ProxySettings | undefined;
let direct: Agent | undefined;
const proxies = new Map<string, ProxyAgent>();

/** The proxy settings of this process, read from its environment once. */
export function proxySettings(): ProxySettings {
  return (settings ??= readProxySettings(process.env));
}

/** The dispatcher that carries a request along `route`, created once per route. */
export function dispatcherFor(route: Route): Dispatcher {
  if (route.kind === 'direct') return (direct ??= new Agent(POOL));
  const uri = route.proxy.url.href;
  // ProxyAgent sends the URL's credentials as Proxy-Authorization, and always tunnels (CONNECT), plain http targets
  // included, so the proxy never reads a request (undici 8 tunnels only https targets unless `proxyTunnel` says so).
  if (!proxies.has(uri)) proxies.set(uri, new ProxyAgent({ ...POOL, uri, proxyTunnel: true }));
  return proxies.get(uri)!;
}

// Failed connections a setting, not time, fixes (TLS trust and versions, an http port, a proxy's refusal) are never
// retried nor called "unreachable". Node's (OpenSSL's) verification codes, by what the reader has to do about them.
const CODES = {
  'tls-untrusted': [
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'CERT_UNTRUSTED',
  ],
  'tls-expired': ['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID'],
  'tls-hostname': ['ERR_TLS_CERT_ALTNAME_INVALID'],
  // A server that answers a TLS hello with plain text: an https address on an http port.
  'tls-not-tls': ['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST'],
  'tls-rejected': [
    'CERT_REVOKED',
    'CERT_REJECTED',
    'CERT_SIGNATURE_FAILURE',
    'INVALID_CA',
    'INVALID_PURPOSE',
    'CERT_CHAIN_TOO_LONG',
    'PATH_LENGTH_EXCEEDED',
  ],
};

export type SetupReason = keyof typeof CODES | 'tls-protocol' | 'proxy-auth' | 'proxy-refused';

// undici's ProxyAgent reports a CONNECT answer other than 200 only in its message.
const TUNNEL_REFUSED = /Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/;

/** The error's code, or its cause's (undici wraps Node's socket errors). */
export function codeOf(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | null)?.code;
  const code = typeof own === 'string' ? own : (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The status a proxy answered CONNECT with, when it refused the tunnel. */
export function tunnelStatus(error: unknown): number | undefined {
  const match = TUNNEL_REFUSED.exec(messageOf(error));
  return match ? Number(match[1]) : undefined;
}

/** Why a connection failed when a setting fixes it; undefined for every other failure (refused, reset, ...). */
export function setupReason(error: unknown): SetupReason | undefined {
  const code = codeOf(error);
  if (code !== undefined) {
    for (const [reason, codes] of Object.entries(CODES)) if (codes.includes(code)) return reason as SetupReason;
    // Every other OpenSSL failure during the handshake: no shared protocol version or cipher.
    if (code.startsWith('ERR_SSL_')) return 'tls-protocol';
  }
  const status = tunnelStatus(error);
  // A proxy that cannot reach the target answers 5xx: the target is down, which time may fix.
  if (status === 407) return 'proxy-auth';
  if (status !== undefined && status < 500) return 'proxy-refused';
  return undefined;
}

/** A connection that failed for a reason a setting fixes: one message, and the `setting` that fixes it. */
export class NetworkSetupError extends Error {
  override readonly name = 'NetworkSetupError';
  readonly reason: SetupReason;
  readonly setting: string;

  /** For an `error` that `setupReason` names; `addressSetting` is the variable holding the address. */
  constructor(error: unknown, url: URL, route: Route, addressSetting: string) {
    const reason = setupReason(error)!;
    const where = `${url.host}${viaProxy(route)}`;
    // OpenSSL's own message is a line of internals; Node puts its readable part in `reason`.
    const reasonText = (error as { reason?: unknown } | null)?.reason;
    const readable = typeof reasonText === 'string' ? reasonText : messageOf(error).split('\n')[0];
    const detail = `${codeOf(error) ?? 'error'}: ${readable}`;
    const proxy = route.kind === 'proxy' ? route.proxy : undefined;
    const variable = proxy?.variable ?? 'HTTPS_PROXY';
    const named = proxy ? describeProxy(proxy) : 'the proxy';
    const messages: Record<SetupReason, string> = {
      'tls-untrusted':
        `TLS: the certificate of ${where} is signed by a certificate authority this machine does not trust ` +
        `(${detail}). If the sandbox, or a proxy that re-signs TLS, uses a private certificate authority, give ` +
        'Node its certificate: set NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment the command starts ' +
        'with (Node reads it only at start-up).',
      'tls-hostname':
        `TLS: the certificate of ${where} does not cover the host name ${url.hostname} (${detail}). ` +
        `Use a host name the certificate names in ${addressSetting}.`,
      'tls-expired':
        `TLS: the certificate of ${where} is outside its validity period (${detail}). ` +
        `The server must renew it; check this machine's clock, and that ${addressSetting} names the right host.`,
      'tls-protocol':
        `TLS: ${where} and this machine share no TLS version or cipher (${detail}). ` +
        `Node ${process.versions.node} accepts TLS 1.2 and 1.3 by default; check that ${addressSetting} names ` +
        'the right host (NODE_OPTIONS=--tls-min-v1.0 allows older versions, at your own risk).',
      'tls-not-tls':
        `TLS: ${where} did not answer in TLS (${detail}): it looks like a plain http port. Check the scheme and ` +
        `port in ${addressSetting}.`,
      'tls-rejected':
        `TLS: the certificate of ${where} was rejected (${detail}). ` +
        `Check that ${addressSetting} names the right host.`,
      'proxy-auth':
        `Proxy: ${named} asks for credentials (407) to open a tunnel to ${url.host}. Put them in the proxy ` +
        `address: ${variable}=http://user:password@host:port (they are never printed).`,
      'proxy-refused':
        `Proxy: ${named} refused to open a tunnel to ${url.host} (status ${tunnelStatus(error)}). Ask for ` +
        `${url.hostname} to be allowed, or exempt it with NO_PROXY if it is reachable directly; check ${variable}.`,
    };
    super(messages[reason]);
    this.reason = reason;
    this.setting =
      reason === 'tls-untrusted' ? 'NODE_EXTRA_CA_CERTS' : reason.startsWith('proxy') ? variable : addressSetting;
  }
}
