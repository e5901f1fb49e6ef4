// The route of a request (proxy or direct) from the environment's variables, and a proxy password never shown.
import { describe, expect, it } from 'vitest';
import { describeProxy, ProxySettingError, readProxySettings, routeFor } from '../../support/transport/proxy-routes.js';
import { redactText } from '../../support/transport/redact.js';

describe('the route of a request', () => {
  const url = (text: string) => new URL(text);

  it('takes the proxy for its scheme, the lower-case variable first, and https falls back on the http proxy', () => {
    const both = readProxySettings({
      HTTPS_PROXY: 'http://upper:1',
      https_proxy: 'http://lower:2',
      HTTP_PROXY: 'http://plain:3',
    });
    expect(routeFor(url('https://api.example.com'), both)).toMatchObject({
      kind: 'proxy',
      proxy: { variable: 'https_proxy' },
    });
    expect(routeFor(url('http://api.example.com'), both)).toMatchObject({
      kind: 'proxy',
      proxy: { variable: 'HTTP_PROXY' },
    });
    const httpOnly = readProxySettings({ HTTP_PROXY: 'proxy.corp:3128' });
    expect(routeFor(url('https://api.example.com'), httpOnly)).toMatchObject({
      kind: 'proxy',
      proxy: { variable: 'HTTP_PROXY', url: new URL('http://proxy.corp:3128') },
    });
    expect(routeFor(url('https://api.example.com'), readProxySettings({}))).toEqual({ kind: 'direct' });
  });

  it('goes direct to the hosts NO_PROXY names: the host, its subdomains, a port, or every host', () => {
    const settings = (noProxy: string) => readProxySettings({ HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: noProxy });
    expect(routeFor(url('https://sandbox.example.com'), settings('example.com'))).toEqual({
      kind: 'direct',
      exemptedBy: 'NO_PROXY (example.com)',
    });
    expect(routeFor(url('https://sandbox.example.com'), settings('.example.com, other'))).toMatchObject({
      kind: 'direct',
    });
    expect(routeFor(url('https://sandbox.example.com'), settings('*.example.com'))).toMatchObject({ kind: 'direct' });
    expect(routeFor(url('https://notexample.com'), settings('example.com'))).toMatchObject({ kind: 'proxy' });
    expect(routeFor(url('https://localhost:8443'), settings('localhost:8443'))).toMatchObject({ kind: 'direct' });
    expect(routeFor(url('https://localhost:9443'), settings('localhost:8443'))).toMatchObject({ kind: 'proxy' });
    expect(routeFor(url('https://localhost'), settings('localhost:443'))).toMatchObject({ kind: 'direct' });
    expect(routeFor(url('https://anything.test'), settings('*'))).toMatchObject({ kind: 'direct' });
    expect(
      routeFor(
        url('https://sandbox.example.com'),
        readProxySettings({ HTTPS_PROXY: 'http://proxy:3128', no_proxy: 'example.com', NO_PROXY: '' }),
      ),
    ).toMatchObject({
      kind: 'direct',
      exemptedBy: 'no_proxy (example.com)',
    });
  });

  it('never shows a proxy password, and blanks it wherever it would leave the process', () => {
    const settings = readProxySettings({ HTTPS_PROXY: 'http://ci-user:s3cr%40t-proxy-pw@proxy.corp:3128' });
    expect(describeProxy(settings.https!)).toBe('http://ci-user:***@proxy.corp:3128 (HTTPS_PROXY)');
    const basic = Buffer.from('ci-user:s3cr@t-proxy-pw').toString('base64');
    expect(redactText(`s3cr@t-proxy-pw s3cr%40t-proxy-pw ${basic}`)).not.toMatch(/s3cr|[A-Za-z0-9+/]{20,}/);
  });

  it('names the variable that holds no proxy address', () => {
    expect(() => readProxySettings({ https_proxy: 'socks5://proxy:1080' })).toThrow(ProxySettingError);
    expect(() => readProxySettings({ https_proxy: 'socks5://proxy:1080' })).toThrow(/^https_proxy: uses socks5:/);
    expect(() => readProxySettings({ HTTP_PROXY: 'http://[bad' })).toThrow(/^HTTP_PROXY: is not a proxy address/);
  });
});
