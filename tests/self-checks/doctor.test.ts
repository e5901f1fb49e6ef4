// Real processes: the doctor probes a target over the network, its TLS and proxy lines included.
// `npm run doctor` as a new user runs it, in a child process: it passes on the plain simulator, and
// names each seeded fault on a line of its own with the setting that fixes it — a wrong path, a
// 403 (a market the client has no permission for), a screening scope the bci token lacks, a
// target that throttles every probe, an untrusted certificate, an expired one, one
// for another host name, a TLS version the client refuses — and passes over https through a
// proxy with the private CA given. Its request count is printed and bounded (no person created).
// Without a sandbox configured it says there is nothing to check, and claims no check.
import { existsSync, readdirSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, test, type TestContext } from 'vitest';
import { startSimulator } from '../../simulator/listen.js';
import type { SimulatorOptions } from '../../simulator/options.js';
import { simulatorAsRemoteTarget } from '../../support/run/child-runs.js';
import { runScript } from './commands.js';
import { createPrivateCa, EXPIRED, type PrivateCa } from '../network/private-ca.js';
import { startForwardProxy } from '../network/forward-proxy.js';
import { ApiClient } from '../../support/transport/http.js';
import { ownReports } from './own-reports.js';
import { joinedPattern } from '../patterns.js';

let ca: PrivateCa;
beforeAll(async () => {
  ca = await createPrivateCa('Doctor Test Root CA');
});
afterAll(() => ca.remove());

const NO_PROXY_VARIABLES = {
  HTTPS_PROXY: '',
  https_proxy: '',
  HTTP_PROXY: '',
  http_proxy: '',
  NO_PROXY: '',
  no_proxy: '',
};

/**
 * Runs the doctor against a simulator started with `options` (closed when the test ends), with `env` over the target's
 * variables.
 */
async function doctor(
  context: TestContext,
  options: SimulatorOptions,
  env: NodeJS.ProcessEnv = {},
  args: string[] = [],
) {
  const simulator = await startSimulator(options);
  context.onTestFinished(() => simulator.close());
  const run = await runScript('doctor', args, {
    ...process.env,
    ...simulatorAsRemoteTarget(simulator),
    ...NO_PROXY_VARIABLES,
    NODE_EXTRA_CA_CERTS: '',
    ...env,
  });
  const output = stripVTControlCharacters(run.output);
  const lines = output.split('\n');
  const failures = lines.filter((line) => line.startsWith('FAIL'));
  const summary = lines.find((line) => line.startsWith('doctor: ')) ?? '(no summary line)';
  const requests = Number(/(\d+) request\(s\)/.exec(summary)?.[1]);
  console.log(`doctor, ${context.task.name}: exit ${run.code}; ${summary}\n${failures.join('\n')}`);
  return { ...run, output, lines, failures, requests, simulator };
}

// One after another: each case is a process of its own, and a burst of them would crowd the timing
// checks that run beside this file in npm test.
describe('npm run doctor', () => {
  test('says there is nothing to check, and exits 0, without CONTRACT_BASE_URL', async () => {
    const run = await runScript('doctor', [], { ...process.env, CONTRACT_BASE_URL: '', CONTRACT_AUTH_URL: '' });
    const output = stripVTControlCharacters(run.output).trim();
    expect(run.code, output).toBe(0);
    expect(output).toMatch(/^doctor: nothing to check: CONTRACT_BASE_URL is not set, .* set CONTRACT_BASE_URL, /);
    expect(output).not.toMatch(/works|request\(s\)/);
  });

  test.for(['standard', 'vendor'] as const)(
    'passes on the plain simulator (%s layout): every check ok, in a handful of requests',
    async (layout, context) => {
      const run = await doctor(context, { layout });
      expect(run.code, run.output).toBe(0);
      expect(run.failures).toEqual([]);
      for (const check of [
        'configuration',
        'DNS 127.0.0.1',
        'proxy 127.0.0.1',
        'token contract-client',
        'token second-client',
        'op1 PUT',
        'op9 POST',
        'screening',
        'rate limit',
      ]) {
        expect(
          run.lines.some((line) => line.startsWith('ok') && line.includes(check)),
          `an ok line for ${check}`,
        ).toBe(true);
      }
      expect(run.requests).toBeLessThanOrEqual(15);
      expect(run.lines.find((line) => line.startsWith('doctor: '))).toMatch(/no person created/);
      expect(run.output).not.toMatch(/contract-secret|second-secret/);
    },
  );

  test(
    'creates one person only when asked, ' + 'reads it back by gedi and deletes it, leaving nothing to sweep',
    async (context) => {
      const reports = ownReports(context);
      const run = await doctor(context, { control: true }, reports.env, ['--create-person']);
      expect(run.code, run.output).toBe(0);
      expect(run.lines.find((line) => /^\w+\s+person\s/.test(line))).toMatch(
        /^ok\s+person\s+created \(gedi [^)]+\), returned by operation 3 after [\d.]+ s, deleted again$/,
      );
      const { counts } = (await new ApiClient({ baseUrl: run.simulator.baseUrl }).request('GET', '/__control/requests'))
        .body as { counts: Record<string, number> };
      const persons = (method: string) => counts[`${method} /consumer-intelligence/sandbox/v1/persons`] ?? 0;
      // One refused probe each, plus the person's creation and its deletion.
      expect([persons('PUT'), persons('DELETE')]).toEqual([2, 2]);
      expect(
        existsSync(reports.paths.ledger) ? readdirSync(reports.paths.ledger) : [],
        'ledgers left for the sweep',
      ).toEqual([]);
    },
  );

  test('names a wrong path on its own line, with CONTRACT_COMPANY_SCREENING_PATH', async (context) => {
    // The vendor's current collection calls this path; the simulator serves the older form.
    const run = await doctor(context, {}, { CONTRACT_COMPANY_SCREENING_PATH: '/aml/v2/company/screening' });
    expect(run.code).toBe(1);
    expect(run.failures).toHaveLength(1);
    expect(run.failures[0]).toMatch(
      joinedPattern(
        /^FAIL\s+op9 POST\s+\/aml\/v2\/company\/screening: 404 .*nothing answers at this path.* → fix: /,
        /CONTRACT_COMPANY_SCREENING_PATH$/,
      ),
    );
  });

  test(
    'names a 403 (no permission for the market) on the line of the operation, ' + 'with CONTRACT_MARKET',
    async (context) => {
      const run = await doctor(context, { forbiddenOperations: ['op4'] });
      expect(run.code).toBe(1);
      expect(run.failures).toHaveLength(1);
      expect(run.failures[0]).toMatch(/^FAIL\s+op4 POST\s+.*: 403 .*not permitted.* → fix: CONTRACT_MARKET$/);
    },
  );

  test(
    'names a target that throttles its probes once, on the rate limit line, with CONTRACT_MAX_RPS, and blames no ' +
      'path',
    async (context) => {
      // Each client's token request goes through; every later request waits past its deadline (a request per 50 s).
      const run = await doctor(context, { rateLimitPerSecond: 0.02 });
      expect(run.code).toBe(1);
      expect(run.failures).toHaveLength(1);
      expect(run.failures[0]).toMatch(
        joinedPattern(
          /^FAIL\s+rate limit\s+\d+ of \d+ answers throttled \(429 Retry-After \d+\); 9 probe\(s\) throttled to /,
          /their deadline, .*Target throttled: .* → fix: CONTRACT_MAX_RPS$/,
        ),
      );
      expect(run.lines.filter((line) => /^skip\s+op\d/.test(line))).toHaveLength(9);
      expect(run.output).not.toMatch(/fix: CONTRACT_\w+_PATH/);
    },
  );

  test(
    'names a screening scope the bci token lacks on the screening lines, with CONTRACT_SCREENING_SCOPE, and passes ' +
      'once it is set',
    async (context) => {
      const without = await doctor(context, { screeningScope: 'aml-screening' });
      expect(without.code).toBe(1);
      expect(without.failures.map((line) => /^FAIL\s+(\S+)/.exec(line)?.[1])).toEqual(['op8', 'op9', 'screening']);
      for (const line of without.failures) expect(line).toMatch(/ → fix: CONTRACT_SCREENING_SCOPE$/);
      const withScope = await doctor(
        context,
        { screeningScope: 'aml-screening' },
        { CONTRACT_SCREENING_SCOPE: 'aml-screening' },
      );
      expect(withScope.code, withScope.output).toBe(0);
      expect(
        withScope.lines.some((line) =>
          joinedPattern(
            /^ok\s+token contract-client for screening\s+issued to CONTRACT_CLIENT_ID, asked for scope /,
            /aml-screening/,
          ).test(line),
        ),
      ).toBe(true);
    },
  );

  test(
    'names an untrusted certificate on the TLS line, ' + 'with NODE_EXTRA_CA_CERTS, and checks nothing behind it',
    async (context) => {
      const run = await doctor(context, { tls: await ca.issue() });
      expect(run.code).toBe(1);
      expect(run.failures).toHaveLength(1);
      expect(run.failures[0]).toMatch(
        joinedPattern(
          /^FAIL\s+TLS 127\.0\.0\.1:\d+\s+TLS: the certificate of 127\.0\.0\.1:\d+ is signed by a certificate /,
          /authority this machine does not trust.* → fix: NODE_EXTRA_CA_CERTS$/,
        ),
      );
      expect(run.output).not.toMatch(/unreachable/i);
      expect(run.requests).toBe(1);
    },
  );

  test.for([
    {
      fault: 'an expired certificate',
      certificate: EXPIRED,
      tls: {},
      line: joinedPattern(
        /^FAIL\s+TLS 127\.0\.0\.1:\d+\s+TLS: the certificate of .* is outside its validity period /,
        /\(CERT_HAS_EXPIRED.* → fix: CONTRACT_BASE_URL$/,
      ),
    },
    {
      fault: 'a certificate for another host name',
      certificate: { dnsNames: ['sandbox.example.com'], ips: [] },
      tls: {},
      line: joinedPattern(
        /^FAIL\s+TLS 127\.0\.0\.1:\d+\s+TLS: the certificate of .* does not cover the host name 127\.0\.0\.1 .* /,
        /→ fix: CONTRACT_BASE_URL$/,
      ),
    },
    {
      fault: 'a TLS version the client refuses (1.1 at most)',
      certificate: {},
      tls: { minVersion: 'TLSv1' as const, maxVersion: 'TLSv1.1' as const, ciphers: 'DEFAULT@SECLEVEL=0' },
      line: /^FAIL\s+TLS 127\.0\.0\.1:\d+\s+TLS: .* share no TLS version or cipher .* → fix: CONTRACT_BASE_URL$/,
    },
  ])('names $fault on the TLS line, with the address setting', async ({ certificate, tls, line }, context) => {
    const run = await doctor(
      context,
      { tls: { ...(await ca.issue(certificate)), ...tls } },
      { NODE_EXTRA_CA_CERTS: ca.file },
    );
    expect(run.code).toBe(1);
    expect(run.failures).toHaveLength(1);
    expect(run.failures[0]).toMatch(line);
  });

  test(
    'passes over https through a proxy with the private CA given, ' + 'and says so on the proxy and TLS lines',
    async (context) => {
      const proxy = await startForwardProxy({ credentials: { user: 'doctor', password: 'doctor-proxy-password' } });
      context.onTestFinished(() => proxy.close());
      const run = await doctor(
        context,
        { tls: await ca.issue() },
        { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca.file },
      );
      expect(run.code, run.output).toBe(0);
      expect(run.lines.find((line) => line.includes('proxy 127.0.0.1'))).toMatch(
        joinedPattern(
          /^ok\s+proxy 127\.0\.0\.1:\d+\s+through http:\/\/doctor:\*\*\*@127\.0\.0\.1:\d+ \(HTTPS_PROXY\): tunnel /,
          /to 127\.0\.0\.1:\d+ opened$/,
        ),
      );
      expect(run.lines.find((line) => line.includes('TLS 127.0.0.1'))).toMatch(
        /^ok\s+TLS 127\.0\.0\.1:\d+\s+TLSv1\.3, certificate localhost issued by Doctor Test Root CA, trusted/,
      );
      expect(proxy.tunnels.length).toBeGreaterThan(0);
      expect(run.output).not.toContain('doctor-proxy-password');
    },
  );
});
