/**
 * npm run canary: a complete contract run (report included) with distinctive client secrets, then a
 * search of everything under reports/ and everything the run printed for those secrets, their HTTP
 * Basic form, and every access token the simulator issued during the run. Prints the count, which
 * must be zero.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator } from '../simulator/listen.js';
import { ApiClient } from '../support/http.js';
import { RESULTS_DIR } from './report.js';
import { simulatorAsRemoteTarget } from './simulator-target.js';
import { runContract } from './vitest-run.js';

const REPORTS_DIR = 'reports';

interface Needle {
  kind: string;
  value: string;
}

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
  return [text, ...[...text.matchAll(EMBEDDED_DATA)].map(([, payload = '']) => Buffer.from(payload, 'base64').toString('utf8'))];
}

function occurrences(text: string, value: string): number {
  return text.split(value).length - 1;
}

const marker = randomBytes(6).toString('hex');
const client = { id: 'canary-client', secret: `CANARY-${marker}` };
const second = { id: 'canary-second-client', secret: `CANARY-SECOND-${marker}` };
const clients = [client, second];
// The canary owns the simulator, reached as a remote target: the tokens it issued can be listed
// only while it lives, and the secrets then come in through CONTRACT_* variables as on a sandbox.
const simulator = await startSimulator({ control: true, clients });
let run: { code: number; output: string };
let tokens: string[];
try {
  run = await runContract([], { ...process.env, ...simulatorAsRemoteTarget(simulator) }, { quiet: true });
  const listed = (await new ApiClient({ baseUrl: simulator.baseUrl }).request('GET', '/__control/tokens')).body as { tokens: { accessToken: string }[] };
  tokens = listed.tokens.map((token) => token.accessToken);
} finally {
  await simulator.close();
}

const needles: Needle[] = [
  ...clients.map(({ secret }) => ({ kind: 'client secret', value: secret })),
  ...clients.map(({ id, secret }) => ({ kind: 'Basic credential', value: Buffer.from(`${id}:${secret}`).toString('base64') })),
  ...tokens.map((value) => ({ kind: 'access token', value })),
];
const files = filesUnder(REPORTS_DIR);
const sources = [{ name: 'the run output', texts: [run.output] }, ...files.map((file) => ({ name: file, texts: searchableTexts(readFileSync(file)) }))];
const hits: { count: number; kind: string; source: string }[] = [];
for (const { name, texts } of sources) {
  for (const needle of needles) {
    const count = texts.reduce((sum, text) => sum + occurrences(text, needle.value), 0);
    if (count > 0) hits.push({ count, kind: needle.kind, source: name });
  }
}
const total = hits.reduce((sum, hit) => sum + hit.count, 0);
const results = filesUnder(RESULTS_DIR).filter((file) => file.endsWith('-result.json')).length;

console.log(`canary: contract run exit ${run.code}, ${results} test result(s), ${tokens.length} access token(s) issued`);
console.log(
  `canary: searched ${files.length} file(s) under ${REPORTS_DIR}/ and ${Math.round(run.output.length / 1024)} KiB of output ` +
    `for ${clients.length} secret(s), their Basic credentials and ${tokens.length} token(s): ${total} occurrence(s)`,
);
for (const hit of hits) console.log(`  ${hit.count} × ${hit.kind} in ${hit.source}`);
// Without a report and issued tokens the search proves nothing, whatever it counts.
const problems = [total > 0 && 'secrets or tokens were written', results === 0 && 'the run wrote no test result', tokens.length === 0 && 'the simulator issued no token'];
const failed = problems.filter((problem): problem is string => typeof problem === 'string');
console.log(failed.length ? `canary: FAIL: ${failed.join('; ')}` : 'canary: PASS');
process.exitCode = failed.length ? 1 : 0;
