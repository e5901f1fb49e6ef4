// Owns the route of every request (direct or through the environment's proxy) and the one place undici dispatchers
// are made. Not EnvHttpProxyAgent: it decides privately, and messages must name the variable that sent a request where.
// A run on a simulated clock sends its requests by none of them: the in-process dispatcher below hands each to the
// simulator in the same process, under the suite's own client, so pacing, retries, timeouts and readings run unchanged.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { Agent, Dispatcher, ProxyAgent } from 'undici';
import type { SimulatedClock } from './clock.js';
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

// One keep-alive pool per process and route: every test shares the connections to the target. HTTP/1.1 only, where
// undici would negotiate HTTP/2 over TLS: the simulators speak HTTP/1.1, so no check covers an HTTP/2 path.
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

/** The request's headers as light-my-request takes them, from any of the forms undici accepts. */
function headersOf(headers: Dispatcher.DispatchOptions['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const entries: [string, unknown][] = Array.isArray(headers)
    ? Array.from({ length: headers.length / 2 }, (_, i) => [String(headers[2 * i]), headers[2 * i + 1]])
    : Symbol.iterator in headers
      ? [...(headers as Iterable<[string, unknown]>)]
      : Object.entries(headers);
  for (const [key, value] of entries)
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  return out;
}

class Controller implements Dispatcher.DispatchController {
  aborted = false;
  paused = false;
  reason: Error | null = null;
  constructor(private readonly onAbort: (reason: Error) => void) {}
  abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.onAbort(reason);
  }
  // The whole body is delivered in one chunk, which a paused reader buffers: there is nothing to hold back.
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
  }
}

export class InProcessDispatcher extends Dispatcher {
  constructor(
    private readonly app: FastifyInstance,
    private readonly clock: SimulatedClock,
  ) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    let settled = false;
    // An aborted request (its timeout, or its test's end) fails at once, as a socket's would; the simulator's
    // handling of it may go on, and its answer is dropped.
    const controller = new Controller((reason) => {
      if (settled) return;
      settled = true;
      handler.onResponseError?.(controller, reason);
    });
    handler.onRequestStart?.(controller, {});
    if (controller.aborted) return true;
    const { body } = options;
    if (body !== undefined && body !== null && typeof body !== 'string' && !(body instanceof Uint8Array))
      throw new TypeError('the in-process dispatcher takes a string or bytes as a request body');
    const request: InjectOptions = {
      method: options.method as InjectOptions['method'],
      url: options.path,
      // The host the client addressed, as a socket's request would carry it: next-page links are built from it.
      headers: { host: new URL(String(options.origin)).host, ...headersOf(options.headers) },
      payload: body ?? undefined,
    };
    const done = this.clock.hold();
    this.app.inject(request).then(
      (response) => {
        if (settled) return done();
        settled = true;
        handler.onResponseStart?.(
          controller,
          response.statusCode,
          response.headers as IncomingHttpHeaders,
          response.statusMessage,
        );
        if (!controller.aborted) {
          if (response.rawPayload.length > 0) handler.onResponseData?.(controller, response.rawPayload);
          handler.onResponseEnd?.(controller, {});
        }
        done();
      },
      (error: unknown) => {
        done();
        if (settled) return;
        settled = true;
        handler.onResponseError?.(controller, error instanceof Error ? error : new Error(String(error)));
      },
    );
    return true;
  }
}
