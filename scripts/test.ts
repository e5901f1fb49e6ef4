/**
 * npm test: the project's own checks, in the order a failure is cheapest to read — types, lint,
 * unit and simulator tests, the contract run against the simulator in both of its layouts, and the
 * mutant matrix. Ends with one summary line "N passed, N failed" counted over every vitest test.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { stripVTControlCharacters } from 'node:util';
import { runVitest } from './vitest-run.js';

const require = createRequire(import.meta.url);

interface Outcome {
  name: string;
  code: number;
  passed: number;
  failed: number;
}

function vitestCounts(output: string): { passed: number; failed: number } {
  // Vitest's closing "Tests  2 failed | 40 passed | 1 skipped (43)".
  const plain = stripVTControlCharacters(output);
  const line = plain.split('\n').reverse().find((candidate) => /^\s*Tests\s+/.test(candidate)) ?? '';
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0);
  return { passed: count('passed'), failed: count('failed') };
}

function runNode(script: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** The contract specs against a fresh embedded simulator configured by `simulatorEnv`. */
function contractRun(name: string, simulatorEnv: Record<string, string>): { name: string; run: () => Promise<Outcome> } {
  return {
    name,
    run: async () => {
      const { code, output } = await runVitest(['--project', 'contract'], { ...process.env, CONTRACT_BASE_URL: '', ...simulatorEnv });
      return { name, code, ...vitestCounts(output) };
    },
  };
}

const steps: Array<{ name: string; run: () => Promise<Outcome> }> = [
  { name: 'typecheck', run: async () => ({ name: 'typecheck', code: await runNode(require.resolve('typescript/bin/tsc'), ['--noEmit']), passed: 0, failed: 0 }) },
  { name: 'lint', run: async () => ({ name: 'lint', code: await runNode(require.resolve('eslint/bin/eslint.js'), ['.']), passed: 0, failed: 0 }) },
  {
    name: 'unit and simulator tests',
    run: async () => {
      const { code, output } = await runVitest(['--project', 'unit']);
      return { name: 'unit and simulator tests', code, ...vitestCounts(output) };
    },
  },
  contractRun('contract run against the simulator (standard layout)', { SIMULATOR_LAYOUT: 'standard' }),
  contractRun('contract run against the simulator (alternate layout)', { SIMULATOR_LAYOUT: 'alternate' }),
  contractRun('contract run through 10% transient faults (429/503 with Retry-After)', { SIMULATOR_FAULT_RATE: '0.1' }),
  { name: 'mutant matrix (fast mode)', run: async () => ({ name: 'mutant matrix (fast mode)', code: await runNode(require.resolve('tsx/cli'), ['scripts/mutants.ts']), passed: 0, failed: 0 }) },
];

const outcomes: Outcome[] = [];
for (const step of steps) {
  console.log(`\n== test: ${step.name}`);
  outcomes.push(await step.run());
}
console.log('\n== test: summary');
for (const outcome of outcomes) console.log(`${outcome.code === 0 ? 'ok  ' : 'FAIL'} ${outcome.name}${outcome.passed + outcome.failed ? ` (${outcome.passed} passed, ${outcome.failed} failed)` : ''}`);
const passed = outcomes.reduce((sum, outcome) => sum + outcome.passed, 0);
const failed = outcomes.reduce((sum, outcome) => sum + outcome.failed, 0) + outcomes.filter((o) => o.code !== 0 && o.passed + o.failed === 0).length;
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = outcomes.every((outcome) => outcome.code === 0) ? 0 : 1;
