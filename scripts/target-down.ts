/**
 * npm run target-down: proves that a run against a target that is down ends in setup with one
 * "target unavailable" message naming the host and the cause, filed under "Target unavailable"
 * (not "Contract broken"), and a non-zero exit. Two ways to be down: nothing listening on the port,
 * and a simulator answering every request 429/503 (SIMULATOR_FAULT_RATE=1). The elapsed time is
 * printed, not asserted: on a loaded machine a bound would only make the check flaky.
 */
import { createServer } from 'node:net';
import { stripVTControlCharacters } from 'node:util';
import { runContract } from './vitest-run.js';

interface Case {
  name: string;
  env: NodeJS.ProcessEnv;
  /** The one line a person reads: host and cause. */
  message: RegExp;
}

/** A loopback port that nothing listens on: bound by the system, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('target-down: no TCP port was bound');
  return address.port;
}

/** A category's count in the console summary printed by scripts/report.ts (`  Target unavailable  1`). */
function categoryCount(output: string, category: string): number | undefined {
  const match = new RegExp(`^\\s*${category}\\s+(\\d+)\\s*$`, 'm').exec(output);
  return match ? Number(match[1]) : undefined;
}

async function check({ name, env, message }: Case): Promise<boolean> {
  const started = performance.now();
  const { code, output: raw } = await runContract([], { ...process.env, ...env }, { quiet: true });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const output = stripVTControlCharacters(raw);
  const line = message.exec(output)?.[0];
  const counts = {
    unavailable: categoryCount(output, 'Target unavailable'),
    broken: categoryCount(output, 'Contract broken'),
    configuration: categoryCount(output, 'Configuration error'),
  };
  const problems = [
    code === 0 && 'the run exited 0',
    !line && `no message matching ${message}`,
    counts.unavailable !== 1 && `the summary counts ${counts.unavailable ?? 'no'} "Target unavailable" result(s), not 1`,
    counts.broken !== 0 && `the summary counts ${counts.broken ?? 'no'} "Contract broken" result(s), not 0`,
    counts.configuration !== 0 && `the summary counts ${counts.configuration ?? 'no'} "Configuration error" result(s), not 0`,
  ].filter((problem): problem is string => typeof problem === 'string');
  console.log(`target-down: ${name}: exit ${code} after ${seconds} s; Target unavailable ${counts.unavailable ?? '-'}, Contract broken ${counts.broken ?? '-'}, Configuration error ${counts.configuration ?? '-'}`);
  if (line) console.log(`  ${line}`);
  if (problems.length === 0) return true;
  console.log(`${output}\ntarget-down: FAIL (${name}): ${problems.join('; ')}`);
  return false;
}

const port = await closedPort();
// Empty values override a .env file, so only what is set here decides the target.
const cases: Case[] = [
  {
    name: `nothing listening on 127.0.0.1:${port}`,
    env: {
      CONTRACT_BASE_URL: `http://127.0.0.1:${port}`,
      CONTRACT_AUTH_URL: '',
      CONTRACT_CLIENT_ID: 'target-down-client',
      CONTRACT_CLIENT_SECRET: 'target-down-secret',
      CONTRACT_SECOND_CLIENT_ID: '',
      CONTRACT_SECOND_CLIENT_SECRET: '',
      CONTRACT_SCREENING_PROVIDER: 'SANDBOX-AML',
    },
    message: new RegExp(`Token service unreachable \\(target unavailable\\): 127\\.0\\.0\\.1:${port} did not answer \\(refused\\)[^\\n]*`),
  },
  {
    name: 'every request answered 429/503 (embedded simulator, SIMULATOR_FAULT_RATE=1)',
    env: { CONTRACT_BASE_URL: '', SIMULATOR_FAULT_RATE: '1' },
    message: /Token service unreachable \(target unavailable\): 127\.0\.0\.1:\d+ still answered (429|503)[^\n]*/,
  },
];

const results: boolean[] = [];
for (const item of cases) results.push(await check(item));
const passed = results.filter(Boolean).length;
console.log(`target-down: ${passed} of ${cases.length} case(s) ended in setup as "Target unavailable"`);
process.exitCode = passed === cases.length ? 0 : 1;
