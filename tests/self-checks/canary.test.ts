// Real processes: the run goes through a forward proxy on loopback, whose tunnel and credentials are part of the check.
// The secret canary: a complete contract run (report included) with distinctive client secrets,
// through a forward proxy with a distinctive password in its address (HTTP_PROXY), then a search of
// everything the run wrote under its reports folder (the observed contract included) and everything
// the run printed for those secrets, their HTTP Basic form, the proxy password and its
// Proxy-Authorization form, and every access token the simulator issued during the run.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { startSimulator } from '../../simulator/listen.js';
import { ApiClient } from '../../support/transport/http.js';
import { simulatorAsRemoteTarget } from '../../support/run/child-runs.js';
import { runContract } from './commands.js';
import { ownReports } from './own-reports.js';
import { startForwardProxy } from '../network/forward-proxy.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

// The single-file Allure report embeds every data file base64-encoded (`d("data/…","<base64>")`),
// where a plain search would miss a leaked secret: those payloads are searched decoded as well.
const EMBEDDED_DATA = /d\("[^"]+","([A-Za-z0-9+/=]+)"\)/g;

function searchableTexts(content: Buffer): string[] {
  const text = content.toString('utf8');
  return [
    text,
    ...[...text.matchAll(EMBEDDED_DATA)].map(([, payload = '']) => Buffer.from(payload, 'base64').toString('utf8')),
  ];
}

const occurrences = (text: string, value: string): number => text.split(value).length - 1;

test(
  'no client secret, Basic credential or access token appears in the reports or in the output of a run with its ' +
    'report',
  async (context) => {
    const reports = ownReports(context);
    const marker = randomBytes(6).toString('hex');
    const clients = [
      { id: 'canary-client', secret: `CANARY-${marker}` },
      { id: 'canary-second-client', secret: `CANARY-SECOND-${marker}` },
    ];
    // The canary owns the simulator, reached as a remote target: the tokens it issued can be listed
    // only while it lives, and the secrets then come in through CONTRACT_* variables as on a sandbox.
    // Few records beside the run's own: lists are not what this checks.
    const simulator = await startSimulator({ control: true, clients, backgroundRecords: 40 });
    const proxyCredentials = { user: 'canary-proxy-user', password: `CANARY-PROXY-${marker}` };
    const proxy = await startForwardProxy({ credentials: proxyCredentials });
    let run: { code: number; output: string };
    let tokens: string[];
    try {
      const throughProxy = {
        HTTP_PROXY: proxy.url,
        http_proxy: '',
        HTTPS_PROXY: '',
        https_proxy: '',
        NO_PROXY: '',
        no_proxy: '',
      };
      run = await runContract([], {
        ...process.env,
        ...simulatorAsRemoteTarget(simulator),
        ...throughProxy,
        ...reports.env,
      });
      const listed = (await new ApiClient({ baseUrl: simulator.baseUrl }).request('GET', '/__control/tokens')).body as {
        tokens: { accessToken: string }[];
      };
      tokens = listed.tokens.map((token) => token.accessToken);
    } finally {
      await simulator.close();
      await proxy.close();
    }

    const needles = [
      ...clients.map(({ secret }) => ({ kind: 'client secret', value: secret })),
      ...clients.map(({ id, secret }) => ({
        kind: 'Basic credential',
        value: Buffer.from(`${id}:${secret}`).toString('base64'),
      })),
      ...tokens.map((value) => ({ kind: 'access token', value })),
      { kind: 'proxy password', value: proxyCredentials.password },
      {
        kind: 'Proxy-Authorization credential',
        value: Buffer.from(`${proxyCredentials.user}:${proxyCredentials.password}`).toString('base64'),
      },
    ];
    const files = filesUnder(reports.paths.root);
    const sources = [
      { name: 'the run output', texts: [run.output] },
      ...files.map((file) => ({ name: file, texts: searchableTexts(readFileSync(file)) })),
    ];
    const hits = sources.flatMap(({ name, texts }) =>
      needles.flatMap((needle) => {
        const count = texts.reduce((sum, text) => sum + occurrences(text, needle.value), 0);
        return count > 0 ? [`${count} × ${needle.kind} in ${name}`] : [];
      }),
    );
    const results = filesUnder(reports.paths.allureResults).filter((file) => file.endsWith('-result.json')).length;
    console.log(
      `canary: run exit ${run.code}, ${results} test result(s), ${tokens.length} token(s) issued, ` +
        `${proxy.tunnels.length} proxy tunnel(s); searched ${files.length} file(s) and ` +
        `${Math.round(run.output.length / 1024)} KiB of output: ${hits.length} hit(s)`,
    );

    // Without a report and issued tokens the search proves nothing, whatever it counts.
    expect(results, 'test results written by the run').toBeGreaterThan(0);
    expect(tokens.length, 'access tokens the simulator issued').toBeGreaterThan(0);
    expect(proxy.tunnels.length, 'tunnels the proxy opened for the run').toBeGreaterThan(0);
    expect(files, 'the observed contract, written from every answer the run saw, among the files searched').toEqual(
      expect.arrayContaining(
        ['openapi.json', 'observed-contract.md', 'timings.json'].map((name) => join(reports.paths.observed, name)),
      ),
    );
    expect(files, 'the single-file report, its embedded data searched decoded, among the files searched').toContain(
      join(reports.paths.allureReport, 'single-file', 'index.html'),
    );
    expect(hits, 'secrets or tokens found').toEqual([]);
  },
);
