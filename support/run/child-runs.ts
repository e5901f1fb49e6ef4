// Owns running vitest or Node in a child process: the commands and the self-checks see a run's own exit code
// and output, as a user's terminal would; and pointing a run at a simulator started here.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { requestReport } from '../../simulator/control.js';
import type { RunningSimulator } from '../../simulator/listen.js';
import { simulatorLayoutFile } from '../../simulator/layouts/layout-files.js';
import { SIMULATED_CLOCK_VARIABLE } from './global-setup.js';
import type { JsonTestResults } from 'vitest/node';
import { PROJECT_PLAN_VARIABLE, type PlannedRun, type ProjectPlan } from './project-plan.js';
import type { ProjectResults } from './suite-reporter.js';

// vitest's package exports do not list its bin; it sits at a fixed place in the package.
const vitestBin = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

export interface RunOptions {
  /** Echo the output as it arrives (commands do; self-checks keep it for their assertions). */
  echo?: boolean;
  /** Receives the child as soon as it is spawned (to kill it midway, as the leak check does). */
  onSpawn?: (child: ChildProcess) => void;
  /** Starts the child in its own process group, so `process.kill(-child.pid)` ends it with every worker it forked. */
  processGroup?: boolean;
}

export interface ChildRun {
  code: number;
  output: string;
}

/** Runs Node with `args` in a child process and resolves with its exit code and everything it printed. */
export function runNode(args: string[], env = process.env, options: RunOptions = {}): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.processGroup ?? false,
    });
    options.onSpawn?.(child);
    let output = '';
    const collect = (sink: NodeJS.WriteStream) => (chunk: Buffer) => {
      output += chunk.toString();
      if (options.echo) sink.write(chunk);
    };
    child.stdout.on('data', collect(process.stdout));
    child.stderr.on('data', collect(process.stderr));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

export function runVitest(args: string[], env = process.env, options: RunOptions = {}): Promise<ChildRun> {
  return runNode([vitestBin, 'run', ...args], env, options);
}

/** Runs a child given a file in a scratch folder; `results` is what it wrote there (JSON), if anything. */
export async function withResultsFile<T>(
  run: (file: string) => Promise<ChildRun>,
): Promise<ChildRun & { results?: T }> {
  const scratch = mkdtempSync(join(tmpdir(), 'vitest-results-'));
  const file = join(scratch, 'results.json');
  try {
    const outcome = await run(file);
    return { ...outcome, results: existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * `vitest run ...args` with vitest's json reporter beside the usual one, so counts come from its
 * results file, not its console text; `results` is undefined when the run stopped in global setup.
 */
export function runVitestWithResults(args: string[], env = process.env, options: RunOptions = {}) {
  return withResultsFile<JsonTestResults>((file) =>
    runVitest([...args, '--reporter=default', '--reporter=json', `--outputFile.json=${file}`], env, options),
  );
}

/**
 * Every run of `runs` in one vitest process, a project each, one after another, or each spec file a run of its own,
 * `filesAtOnce` at the same time (support/run/project-plan.ts); `results` holds each project's files by its name, and
 * is undefined when the process stopped before its end.
 */
export function runPlannedProjects(runs: PlannedRun[], env = process.env, filesAtOnce?: number) {
  return withResultsFile<ProjectResults>((resultsFile) => {
    const plan: ProjectPlan = { resultsFile, runs, filesAtOnce };
    return runVitest(
      runs.flatMap(({ name }) => ['--project', name]),
      { ...env, [PROJECT_PLAN_VARIABLE]: JSON.stringify(plan) },
    );
  });
}

/**
 * For runs that a simulator must outlive (to count its requests, list its tokens, sweep after a
 * kill): the suite's embedded simulator ends with its run. Empty values unset whatever a .env says;
 * the simulator's own layout file makes the run strict, as a night with its reviewed file is.
 */
export function simulatorAsRemoteTarget(simulator: RunningSimulator): NodeJS.ProcessEnv {
  const [client, second] = simulator.options.clients;
  if (!client || !second) throw new Error('the simulator must accept two clients: the isolation spec needs the second');
  return {
    CONTRACT_BASE_URL: simulator.baseUrl,
    CONTRACT_AUTH_URL: '',
    CONTRACT_CLIENT_ID: client.id,
    CONTRACT_CLIENT_SECRET: client.secret,
    CONTRACT_SECOND_CLIENT_ID: second.id,
    CONTRACT_SECOND_CLIENT_SECRET: second.secret,
    CONTRACT_SCREENING_PROVIDER: simulator.options.provider,
    CONTRACT_PROD_BASE_URL: '',
    // Its own reviewed layout, as a night against a sandbox reads the one committed for it: a strict run, not learning.
    CONTRACT_LAYOUT: simulatorLayoutFile(simulator.options),
  };
}

/**
 * A contract run against the embedded simulator, built in its worker on the clock the specs run on (global-setup.ts
 * `startSimulatedRun`): for the self-checks that judge the suite's logic, not its sockets. SIMULATOR_REPORT_VARIABLE
 * in a run's variables names a file for what its simulator served (`SimulatorReport`), written as the run ends.
 */
export function onSimulatedClock(): NodeJS.ProcessEnv {
  return { CONTRACT_BASE_URL: '', [SIMULATED_CLOCK_VARIABLE]: '1' };
}

export type SimulatorReport = ReturnType<typeof requestReport>;

/** What the simulator (started with `control: true`) has served, as the bench counts it. */
export async function simulatorRequests(simulator: RunningSimulator): Promise<ReturnType<typeof requestReport>> {
  const response = await fetch(`${simulator.baseUrl}/__control/requests`);
  if (!response.ok) throw new Error(`GET /__control/requests answered ${response.status}`);
  return (await response.json()) as ReturnType<typeof requestReport>;
}
