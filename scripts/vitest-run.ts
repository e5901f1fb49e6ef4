import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

// vitest's package exports do not list its bin; it sits at a fixed place in the package.
const vitestBin = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
const contractScript = fileURLToPath(new URL('./contract.ts', import.meta.url));

export interface RunOptions {
  /** Collect the output without echoing it. */
  quiet?: boolean;
  /** Receives the child as soon as it is spawned (to kill it midway, as the leak check does). */
  onSpawn?: (child: ChildProcess) => void;
  /** Starts the child in its own process group, so `process.kill(-child.pid)` ends it with every worker it forked. */
  processGroup?: boolean;
}

/** Runs Node with `args` in a child process and resolves with its exit code and everything it printed. */
export function runNode(args: string[], env: NodeJS.ProcessEnv = process.env, options: RunOptions = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.processGroup ?? false });
    options.onSpawn?.(child);
    let output = '';
    const collect = (sink: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk.toString();
      if (!options.quiet) sink.write(chunk);
    };
    child.stdout.on('data', collect(process.stdout));
    child.stderr.on('data', collect(process.stderr));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Runs vitest in a child process (its own exit code, its own output) and resolves with the code. */
export function runVitest(args: string[], env: NodeJS.ProcessEnv = process.env, options: RunOptions = {}): Promise<{ code: number; output: string }> {
  return runNode([vitestBin, 'run', ...args], env, options);
}

/** `npm run contract -- args` for the self-checks: the whole command, report and console summary, outside the report history. */
export function runContract(args: string[], env: NodeJS.ProcessEnv = process.env, options: RunOptions = {}): Promise<{ code: number; output: string }> {
  return runNode([tsxCli, contractScript, ...args], { CONTRACT_REPORT_HISTORY: 'off', ...env }, options);
}

/** Passed and failed tests from vitest's closing "Tests  2 failed | 40 passed | 1 skipped (43)". */
export function vitestCounts(output: string): { passed: number; failed: number } {
  const plain = stripVTControlCharacters(output);
  const line = plain.split('\n').reverse().find((candidate) => /^\s*Tests\s+/.test(candidate)) ?? '';
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(line)?.[1] ?? 0);
  return { passed: count('passed'), failed: count('failed') };
}
