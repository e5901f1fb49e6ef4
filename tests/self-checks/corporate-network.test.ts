// Real processes: a forward proxy and TLS with a private CA are sockets, and what this checks.
// A company network, for real: the simulator served over https with a certificate from a private
// CA this test makes, reached through a forward proxy that counts what it carried (CONNECT tunnels;
// tests/network/). With the CA given (NODE_EXTRA_CA_CERTS, which Node reads only at start-up, so the
// run's processes get it in their environment) the run is green, every API request travelled
// through the proxy and the host NO_PROXY names was reached directly. Without the CA, setup stops
// with one message naming the certificate and NODE_EXTRA_CA_CERTS; with wrong proxy credentials,
// one naming HTTPS_PROXY. Whence each request came is read at the simulator's own socket: the
// proxy's connections to it have ports the proxy knows. Elapsed times are printed, not asserted.
import type { ChildProcess } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, expect, test, type TestContext } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../simulator/listen.js';
import { simulatorAsRemoteTarget } from '../../support/run/child-runs.js';
import { runContract } from './commands.js';
import { createPrivateCa, type PrivateCa } from '../network/private-ca.js';
import { startForwardProxy, type ForwardProxy } from '../network/forward-proxy.js';
import { ownReports } from './own-reports.js';
import { categoryCount } from './console-summary.js';
import { joinedPattern } from '../patterns.js';

const TOKEN_PATH = '/sandbox/v1/token.oauth2';
const PROXY_USER = 'ci-runner';
const PROXY_PASSWORD = 'proxy-pw-7c1e9a';

let ca: PrivateCa;
beforeAll(async () => {
  ca = await createPrivateCa('Corporate Test Root CA');
});
afterAll(() => ca.remove());

interface Served {
  simulator: RunningSimulator;
  proxy: ForwardProxy;
  /** Every request the simulator answered, with the port it came from. */
  requests: { url: string; fromPort: number }[];
}

/**
 * An https simulator (its certificate names localhost and 127.0.0.1) and a credentialed proxy, closed when the test
 * ends.
 */
async function served(context: TestContext): Promise<Served> {
  // Few records beside the run's own: lists are not what this checks.
  const tls = await ca.issue({ dnsNames: ['localhost'], ips: ['127.0.0.1'] });
  const simulator = await startSimulator({ tls, backgroundRecords: 40 });
  const proxy = await startForwardProxy({ credentials: { user: PROXY_USER, password: PROXY_PASSWORD } });
  context.onTestFinished(async () => {
    await simulator.close();
    await proxy.close();
  });
  const requests: Served['requests'] = [];
  simulator.server.on('request', (request: IncomingMessage) =>
    requests.push({ url: request.url ?? '', fromPort: request.socket.remotePort ?? 0 }),
  );
  return { simulator, proxy, requests };
}

/** The environment of a run behind the proxy: only what is set here decides the route and the trust. */
function behindProxy({ simulator, proxy }: Served, overrides: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...simulatorAsRemoteTarget(simulator),
    HTTPS_PROXY: proxy.url,
    https_proxy: '',
    HTTP_PROXY: '',
    http_proxy: '',
    NO_PROXY: '',
    no_proxy: '',
    NODE_EXTRA_CA_CERTS: ca.file,
    ...overrides,
  };
}

async function timedRun(label: string, env: NodeJS.ProcessEnv, context: TestContext, proxy: ForwardProxy) {
  const started = performance.now();
  // When setup said why it stopped, as the person at the terminal sees it (the report follows).
  let stoppedAt: number | undefined;
  const watch = (child: ChildProcess) =>
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stoppedAt === undefined && chunk.toString().includes('the run stopped in setup'))
        stoppedAt = performance.now();
    });
  const run = await runContract([], { ...env, ...ownReports(context).env }, { onSpawn: watch });
  const ended = performance.now();
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const first = proxy.tunnels[0]?.at ?? proxy.refused[0]?.at;
  const stopped =
    stoppedAt !== undefined && first !== undefined
      ? `; setup's message ${seconds(stoppedAt - started)} after the start, ${seconds(stoppedAt - first)} after ` +
        'its first request'
      : '';
  return {
    ...run,
    output: stripVTControlCharacters(run.output),
    log: (line: string) =>
      console.log(`corporate network, ${label}: exit ${run.code} after ${seconds(ended - started)}${stopped}; ${line}`),
  };
}

test(
  'through a proxy to an https target signed by a private CA: green with the CA given, every API request through ' +
    'the proxy, the NO_PROXY host reached directly',
  async (context) => {
    const target = await served(context);
    const direct = `https://localhost:${new URL(target.simulator.baseUrl).port}`;
    // The API at 127.0.0.1 through the proxy; the token service at localhost, which NO_PROXY exempts.
    const run = await timedRun(
      'with the CA',
      behindProxy(target, { CONTRACT_AUTH_URL: direct, NO_PROXY: 'localhost' }),
      context,
      target.proxy,
    );
    const proxied = target.requests.filter((request) => target.proxy.upstreamPorts.has(request.fromPort));
    const straight = target.requests.filter((request) => !target.proxy.upstreamPorts.has(request.fromPort));
    run.log(
      `${target.requests.length} requests, ${proxied.length} through ${target.proxy.tunnels.length} tunnel(s), ` +
        `${straight.length} direct`,
    );
    expect(run.code, run.output.slice(-3000)).toBe(0);
    expect(proxied.length, 'API requests carried by the proxy').toBeGreaterThan(20);
    expect(
      proxied.filter((request) => request.url.startsWith(TOKEN_PATH)),
      'token requests through the proxy despite NO_PROXY',
    ).toEqual([]);
    expect(
      straight.filter((request) => !request.url.startsWith(TOKEN_PATH)),
      'API requests that bypassed the proxy',
    ).toEqual([]);
    expect(straight.length, 'token requests sent directly, as NO_PROXY says').toBeGreaterThan(0);
    expect(target.proxy.tunnels.every(({ target: host }) => host.startsWith('127.0.0.1:'))).toBe(true);
    expect(run.output, 'the proxy password in the output').not.toContain(PROXY_PASSWORD);
  },
);

test(
  'without the CA, setup stops at once with one message naming the certificate and NODE_EXTRA_CA_CERTS, never ' +
    '"unreachable"',
  async (context) => {
    const target = await served(context);
    const run = await timedRun(
      'without the CA',
      behindProxy(target, { NODE_EXTRA_CA_CERTS: '' }),
      context,
      target.proxy,
    );
    const line = joinedPattern(
      /NetworkSetupError: TLS: the certificate of 127\.0\.0\.1:\d+ \(through the proxy /,
      /http:\/\/ci-runner:\*\*\*@127\.0\.0\.1:\d+ \(HTTPS_PROXY\)\) is signed by a certificate authority this /,
      /machine does not trust[^\n]*NODE_EXTRA_CA_CERTS=[^\n]*/,
    ).exec(run.output)?.[0];
    run.log(line ?? '(no certificate line)');
    expect(run.code).not.toBe(0);
    expect(line, run.output.slice(-3000)).toBeDefined();
    expect(run.output).not.toMatch(/unreachable|did not answer/i);
    expect(target.proxy.tunnels, 'one attempt: the token request, not retried').toHaveLength(1);
    expect(target.requests, 'no request got past the handshake').toEqual([]);
    expect(categoryCount(run.output, 'Configuration error')).toBe(1);
    expect(categoryCount(run.output, 'Target unavailable')).toBe(0);
    expect(run.output).not.toContain(PROXY_PASSWORD);
  },
);

test(
  'a proxy that asks for credentials the run does not have ' + 'stops setup with one message naming HTTPS_PROXY',
  async (context) => {
    const target = await served(context);
    const run = await timedRun(
      'wrong proxy password',
      behindProxy(target, { HTTPS_PROXY: target.proxy.url.replace(PROXY_PASSWORD, 'not-the-password') }),
      context,
      target.proxy,
    );
    const line = joinedPattern(
      /NetworkSetupError: Proxy: http:\/\/ci-runner:\*\*\*@127\.0\.0\.1:\d+ \(HTTPS_PROXY\) asks for credentials /,
      /\(407\)[^\n]*/,
    ).exec(run.output)?.[0];
    run.log(line ?? '(no proxy line)');
    expect(run.code).not.toBe(0);
    expect(line, run.output.slice(-3000)).toBeDefined();
    expect(target.proxy.refused.map(({ status }) => status)).toEqual([407]);
    expect(categoryCount(run.output, 'Configuration error')).toBe(1);
    expect(run.output).not.toContain('not-the-password');
  },
);
