// The project's commands as a user runs them, in a child process: exit code and output as a terminal shows them.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runNode, type RunOptions } from '../../support/run/child-runs.js';

const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

/** `npm run <script>` without npm in between: a command of scripts/ under tsx. */
export function runScript(script: string, args: string[], env = process.env, options: RunOptions = {}) {
  const path = fileURLToPath(new URL(`../../scripts/${script}.ts`, import.meta.url));
  return runNode([tsxCli, path, ...args], env, options);
}

/** `npm run contract -- args`, report and console summary, outside the report history. */
export function runContract(args: string[], env = process.env, options: RunOptions = {}) {
  return runScript('contract', args, { CONTRACT_REPORT_HISTORY: 'off', ...env }, options);
}
