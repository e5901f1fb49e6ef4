/**
 * npm test: the project's own checks, in the order a failure is cheapest to read — types, lint,
 * unit and simulator tests, the contract run against the simulator in both of its layouts and
 * through transient faults, a target that is down, the secret canary, the leak check and the
 * mutant matrix. Ends with one summary line "N passed, N failed" counted over every vitest test.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runNode, runVitest, vitestCounts } from './vitest-run.js';

const require = createRequire(import.meta.url);
// eslint's package exports do not list its bin; package.json is exported and the bin sits beside it.
const eslintBin = join(dirname(require.resolve('eslint/package.json')), 'bin', 'eslint.js');

interface Outcome {
  name: string;
  code: number;
  passed: number;
  failed: number;
}

interface Step {
  name: string;
  run: () => Promise<Outcome>;
}

/** A Node program that passes or fails as a whole: the type check, the lint, one of the project's check scripts. */
function nodeStep(name: string, args: string[]): Step {
  return { name, run: async () => ({ name, code: (await runNode(args)).code, passed: 0, failed: 0 }) };
}

/** A vitest run, whose tests count towards the closing line. */
function vitestStep(name: string, args: string[], env: NodeJS.ProcessEnv = process.env): Step {
  return {
    name,
    run: async () => {
      const { code, output } = await runVitest(args, env);
      return { name, code, ...vitestCounts(output) };
    },
  };
}

/** The contract specs against a fresh embedded simulator configured by `simulatorEnv`. */
function contractRun(name: string, simulatorEnv: Record<string, string>): Step {
  return vitestStep(name, ['--project', 'contract'], { ...process.env, CONTRACT_BASE_URL: '', ...simulatorEnv });
}

/** One of the project's own check scripts; it prints its figures and exits non-zero when its check fails. */
function scriptStep(name: string, script: string): Step {
  return nodeStep(name, [require.resolve('tsx/cli'), script]);
}

const steps: Step[] = [
  nodeStep('typecheck', [require.resolve('typescript/bin/tsc'), '--noEmit']),
  nodeStep('lint', [eslintBin, '.']),
  vitestStep('unit and simulator tests', ['--project', 'unit']),
  contractRun('contract run against the simulator (standard layout)', { SIMULATOR_LAYOUT: 'standard' }),
  contractRun('contract run against the simulator (alternate layout)', { SIMULATOR_LAYOUT: 'alternate' }),
  contractRun('contract run through 10% transient faults (429/503 with Retry-After)', { SIMULATOR_FAULT_RATE: '0.1' }),
  scriptStep('target down: ends in setup as "Target unavailable" (nothing listening; every request 429/503)', 'scripts/target-down.ts'),
  scriptStep('secret canary: no secret or access token in reports/ or the output of a run with its report', 'scripts/canary.ts'),
  scriptStep('leak check: zero persons left after a complete run, and after a sweep of a killed run', 'scripts/leak-check.ts'),
  scriptStep('mutant matrix (fast mode)', 'scripts/mutants.ts'),
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
