// The failures a setting fixes, named from the errors Node and undici really raise: every TLS and proxy case here is
// a real handshake or tunnel on loopback, with a CA, certificates and a proxy the test makes.
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, ProxyAgent, request, type Dispatcher } from 'undici';
import { NetworkSetupError, setupReason } from '../../support/transport/network-failures.js';
import { readProxySettings, routeFor } from '../../support/transport/proxy-routes.js';
import { ApiClient } from '../../support/transport/http.js';
import { redactText } from '../../support/transport/redact.js';
import { classifyFailure, RETRY_POLICY, retryDecision } from '../../support/transport/retry.js';
import { observeExchanges, type HttpExchange } from '../../support/transport/exchanges.js';
import { createPrivateCa, EXPIRED, type PrivateCa } from '../network/private-ca.js';
import { startForwardProxy } from '../network/forward-proxy.js';
import { startServer } from './local-server.js';
import { joinedPattern } from '../patterns.js';

describe('failures a setting fixes', () => {
  let ca: PrivateCa;
  let trusting: Agent;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    ca = await createPrivateCa();
    // The test trusts its CA through undici's own option; a run trusts it through NODE_EXTRA_CA_CERTS.
    trusting = new Agent({ connect: { ca: ca.cert } });
  });
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
    await trusting.close();
    ca.remove();
  });

  async function httpsServer(options: ServerOptions): Promise<string> {
    const server = createHttpsServer(options, (_request, response) => response.end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async function failure(url: string, dispatcher: Dispatcher): Promise<unknown> {
    try {
      await (await request(url, { dispatcher })).body.text();
    } catch (error) {
      return error;
    }
    throw new Error(`${url} answered`);
  }

  it(
    'an untrusted certificate: one attempt, no retry, one message naming the certificate and NODE_EXTRA_CA_CERTS, ' +
      'never "unreachable"',
    async () => {
      const base = await httpsServer(await ca.issue());
      const published: HttpExchange[] = [];
      const stop = observeExchanges((exchange) => published.push(exchange));
      const error = await new ApiClient({ baseUrl: base, addressSetting: 'CONTRACT_BASE_URL' })
        .request('GET', '/anything')
        .catch((caught: unknown) => caught);
      stop();
      expect(error).toBeInstanceOf(NetworkSetupError);
      expect(error).toMatchObject({ reason: 'tls-untrusted', setting: 'NODE_EXTRA_CA_CERTS' });
      expect((error as Error).message).toMatch(
        joinedPattern(
          /^TLS: the certificate of 127\.0\.0\.1:\d+ is signed by a certificate authority this machine does not /,
          /trust \(UNABLE_TO_VERIFY_LEAF_SIGNATURE/,
        ),
      );
      expect((error as Error).message).toMatch(/NODE_EXTRA_CA_CERTS=/);
      expect((error as Error).message).not.toMatch(/unreachable|did not answer/);
      expect(published.filter((exchange) => exchange.url.startsWith(base))).toHaveLength(1);
    },
  );

  it('a certificate that does not cover the host name names the address setting', async () => {
    const base = await httpsServer(await ca.issue({ dnsNames: ['sandbox.example.com'], ips: [] }));
    const error = await failure(base, trusting);
    expect(setupReason(error)).toBe('tls-hostname');
    const named = new NetworkSetupError(error, new URL(base), { kind: 'direct' }, 'CONTRACT_BASE_URL');
    expect(named.message).toMatch(
      joinedPattern(
        /^TLS: the certificate of 127\.0\.0\.1:\d+ does not cover the host name 127\.0\.0\.1 /,
        /\(ERR_TLS_CERT_ALTNAME_INVALID.*\)\. Use a host name the certificate names in CONTRACT_BASE_URL\.$/,
      ),
    );
  });

  it('an expired certificate', async () => {
    const error = await failure(await httpsServer(await ca.issue(EXPIRED)), trusting);
    expect(setupReason(error)).toBe('tls-expired');
    expect(classifyFailure(error)).toBe('setup');
  });

  it('no shared TLS version, and no shared cipher', async () => {
    const certificate = await ca.issue();
    const oldVersion = await httpsServer({
      ...certificate,
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1.1',
      ciphers: 'DEFAULT@SECLEVEL=0',
    });
    expect(setupReason(await failure(oldVersion, trusting))).toBe('tls-protocol');
    const noCipher = await httpsServer({
      ...certificate,
      maxVersion: 'TLSv1.2',
      ciphers: 'ECDHE-ECDSA-NULL-SHA:@SECLEVEL=0',
    });
    expect(setupReason(await failure(noCipher, trusting))).toBe('tls-protocol');
  });

  it('an https address on a plain http port', async () => {
    const plain = await startServer((_request, response) => response.end('{}'));
    closers.push(() => plain.close());
    const error = await failure(plain.url.replace('http:', 'https:'), trusting);
    expect(setupReason(error)).toBe('tls-not-tls');
  });

  it(
    'a proxy that wants credentials (407) or refuses the tunnel (403) names the proxy variable, never its ' +
      'password; one that cannot reach the target (502) is transient',
    async () => {
      const proxy = await startForwardProxy({ credentials: { user: 'ci', password: 'right-proxy-password' } });
      closers.push(() => proxy.close());
      const target = await httpsServer(await ca.issue());
      const wrong = proxy.url.replace('right-proxy-password', 'wrong-proxy-password');
      const settings = readProxySettings({ HTTPS_PROXY: wrong });
      const asked = await failure(target, new ProxyAgent({ uri: wrong, requestTls: { ca: ca.cert } }));
      expect(setupReason(asked)).toBe('proxy-auth');
      expect(classifyFailure(asked)).toBe('setup');
      const named = new NetworkSetupError(
        asked,
        new URL(target),
        routeFor(new URL(target), settings),
        'CONTRACT_BASE_URL',
      );
      expect(named.setting).toBe('HTTPS_PROXY');
      expect(named.message).toMatch(
        /^Proxy: http:\/\/ci:\*\*\*@127\.0\.0\.1:\d+ \(HTTPS_PROXY\) asks for credentials \(407\)/,
      );
      expect(redactText(named.message)).not.toContain('proxy-password');

      const right = new ProxyAgent({ uri: proxy.url, requestTls: { ca: ca.cert } });
      expect(setupReason(await failure('https://api.example.com/', right))).toBe('proxy-refused');
      expect(proxy.refused.map(({ status }) => status)).toEqual([407, 403]);
      const closed = await failure('https://127.0.0.1:1/', right);
      expect(setupReason(closed)).toBeUndefined();
      expect(classifyFailure(closed)).toBe('refused');
      await right.close();
    },
  );

  it('is never retried', () => {
    expect(retryDecision(RETRY_POLICY, { method: 'GET', attempt: 1, elapsedMs: 0, error: 'setup' })).toEqual({
      retry: false,
      reason: 'setup is not transient',
    });
  });
});
