/**
 * npm run bench [-- profile...]: how close the contract suite's wall time comes to its critical
 * path, and what it costs the sandbox (issue 7); under a rate limit, how close it comes to the
 * pace the limit allows and how often it is refused (issue 20). Figures are printed and written to
 * reports/bench.json; nothing here asserts a time.
 *
 * Per profile the bench starts the simulator itself (control surface on) and points
 * CONTRACT_BASE_URL at it, so every vitest run below talks to one server whose counters it can
 * read and reset. Every time is the wall time of a whole `vitest run` process, start-up and global
 * setup included, so the suite and its critical path pay the same fixed cost:
 *  - suite: every spec file, as `npx vitest run --project contract` runs them;
 *  - critical path: the slowest spec files of that run (by their own duration), each run alone;
 *    the longest of those is the shortest a run containing that file can take;
 *  - one test at a time: every spec with CONTRACT_TESTS_AT_ONCE=1, as collection runners go.
 * Requests, polling attempts and notice lag come from the suite run only. The rate-limited profiles
 * run the suite only: their bound is the limit's pace (requests ÷ limit) or the longest chain of
 * waits, whichever is longer, and their cost the share of requests answered 429. With
 * `--suite-only` every profile runs the suite only (the request and polling figures, quickly).
 * Every run starts knowing nothing of the target's times to consistency, unless `--warm`: then a
 * first suite run, not measured, learns them, and every measured run starts from what the run
 * before it learned (CONTRACT_LEARNED_TIMES), as nightly runs against one sandbox do. `--warm=N`:
 * N such runs first, each adding its times to what the ones before learned, as a nightly some
 * nights in (most transitions have one or two waits a run, so one night teaches them little).
 * `--seeds=7,5,3,11` runs every profile once per seed and adds, per profile, the mean and range of
 * the figures the bars are set on: one run draws its delays once, and a bar read off one draw says
 * more about that draw than about the polling. `--without=subscribed-only,list-uploaded-only` (with
 * `--suite-only`) leaves those spec files out of every run: what the others cost, as when a bar was
 * set on a suite that has grown since.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startSimulator } from '../simulator/listen.js';
import { pruneLedgers } from '../support/data/ledger.js';
import type { WaitAttempts } from '../support/readings/eventually.js';
import { simulatorAsRemoteTarget, simulatorControl, type SimulatorRequests } from '../support/run/simulator-target.js';
import { runContract, runVitest } from '../support/run/child-runs.js';
import { BENCH_DIR, REPORTS_DIR } from '../support/run/paths.js';
import { LEARNED_TIMES_VARIABLE } from '../support/readings/learned-times.js';

interface Profile {
  name: string;
  availabilityDelayMs: number;
  latencyMs: number;
  /** The simulator's limit, requests a second per client (rateLimitPerSecond); such a profile times the suite only. */
  rateLimitPerSecond?: number;
}

const PROFILES: readonly Profile[] = [
  { name: 'realistic', availabilityDelayMs: 2_000, latencyMs: 50 },
  { name: 'heavy', availabilityDelayMs: 5_000, latencyMs: 50 },
  { name: 'limited-10', availabilityDelayMs: 250, latencyMs: 50, rateLimitPerSecond: 10 },
  { name: 'limited-5', availabilityDelayMs: 3_000, latencyMs: 50, rateLimitPerSecond: 5 },
];

/** How many of the slowest files of the suite run are timed alone: the slowest in a busy run need not be the slowest alone. */
const CRITICAL_CANDIDATES = 3;
const OUT_DIR = BENCH_DIR;
/** The simulator's seed when `--seeds` names none. */
const SEED = Number(process.env.BENCH_SEED ?? 7);

interface VitestJson {
  success: boolean;
  testResults: { name: string; startTime: number; endTime: number; status: string; message?: string }[];
}

interface TimedRun {
  wallMs: number;
  /** CPU seconds of the run's processes (user + system), where the platform says (Linux /proc). */
  cpuS: number | null;
  passed: boolean;
  /** Each spec file's own duration inside the run, slowest first. */
  files: { file: string; ms: number }[];
}

interface VisibilityRecord {
  kind: string;
  visibleAt: number;
  firstReadAt: number | null;
}

/** CPU seconds used by this process's finished children (and theirs): fields cutime and cstime of /proc/self/stat. */
function childrenCpuSeconds(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ');
    // After the command and state, field 14 and 15 (cutime, cstime) in clock ticks of 1/100 s.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/** A child run with its wall time and the CPU seconds its processes used. */
async function timed<T>(run: () => Promise<T>): Promise<T & { wallMs: number; cpuS: number | null }> {
  const cpuBefore = childrenCpuSeconds();
  const started = performance.now();
  const result = await run();
  const wallMs = Math.round(performance.now() - started);
  const cpuAfter = childrenCpuSeconds();
  return { ...result, wallMs, cpuS: cpuBefore === null || cpuAfter === null ? null : Math.round((cpuAfter - cpuBefore) * 10) / 10 };
}

async function timedVitest(label: string, args: string[], env: NodeJS.ProcessEnv): Promise<TimedRun> {
  const outputFile = join(OUT_DIR, `${label}.json`);
  const { code, output, wallMs, cpuS } = await timed(() => runVitest(['--project', 'contract', '--reporter=json', `--outputFile=${outputFile}`, ...args], env));
  let result: VitestJson;
  try {
    result = JSON.parse(readFileSync(outputFile, 'utf8')) as VitestJson;
  } catch {
    throw new Error(`bench: vitest (${label}) wrote no results (exit ${code}):\n${output.slice(-3_000)}`);
  }
  const passed = code === 0 && result.success;
  if (!passed) {
    const failures = result.testResults.filter((file) => file.status !== 'passed').map((file) => `  ${relative(process.cwd(), file.name)}: ${file.message ?? 'a test failed'}`);
    console.error(`bench: ${label} failed; its times are not comparable:\n${failures.join('\n')}`);
  }
  const files = result.testResults
    .map((file) => ({ file: relative(process.cwd(), file.name), ms: Math.round(file.endTime - file.startTime) }))
    .sort((a, b) => b.ms - a.ms);
  console.log(`bench: ${label}: ${wallMs} ms${cpuS === null ? '' : `, ${cpuS} CPU s`}${passed ? '' : ' (FAILED)'}`);
  return { wallMs, cpuS, passed, files };
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : Math.round(values.reduce((sum, value) => sum + value, 0) / values.length);
}

/** Nearest-rank percentile. */
function percentile(values: number[], share: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? null;
}

const ratio = (value: number | null, of: number) => (value === null ? null : Math.round((value / of) * 100) / 100);

type LoggedWait = WaitAttempts & { test?: string };

function readWaits(file: string): LoggedWait[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as LoggedWait);
  } catch {
    return [];
  }
}

/** The longest chain of waits one test went through: the sum of its waits, the largest over tests. */
function observedCriticalPath(waits: LoggedWait[]): { test: string; ms: number } | null {
  const byTest = new Map<string, number>();
  for (const wait of waits) if (wait.test) byTest.set(wait.test, (byTest.get(wait.test) ?? 0) + wait.elapsedMs);
  const [longest] = [...byTest].sort((a, b) => b[1] - a[1]);
  return longest ? { test: longest[0], ms: longest[1] } : null;
}

/** `npm run contract` (its script) timed, with the Allure report's own share read from its output. */
async function timedContract(env: NodeJS.ProcessEnv) {
  const command = await timed(() => runContract([], env));
  return {
    wallMs: command.wallMs,
    cpuS: command.cpuS,
    reportMs: Number(/Allure report \((\d+) ms\)/.exec(command.output)?.[1] ?? Number.NaN),
    passed: command.code === 0,
  };
}

/**
 * The same run with every simulator delay at zero: what the suite costs when it never waits. As the
 * vitest run of every spec, and as the whole `npm run contract` command (its report included): once
 * as the first run after an install (vitest's module cache emptied) and once as any later run.
 */
async function fixedCost(seed: number) {
  const simulator = await startSimulator({ availabilityDelayMs: 0, latencyMs: 0, seed });
  try {
    const env = { ...process.env, ...simulatorAsRemoteTarget(simulator), CONTRACT_SEED: String(seed) };
    await runVitest(['--clearCache']);
    const firstAfterInstall = await timedContract(env);
    const run = await timedVitest('fixed-cost', [], env);
    const endToEnd = await timedContract(env);
    for (const [label, figures] of [['first run after install', firstAfterInstall], ['later runs', endToEnd]] as const) {
      console.log(`bench: npm run contract, every delay zero, ${label}: ${figures.wallMs} ms, ${figures.cpuS ?? '?'} CPU s, of which the Allure report ${figures.reportMs} ms${figures.passed ? '' : ' (FAILED)'}`);
    }
    return { wallMs: run.wallMs, cpuS: run.cpuS, passed: run.passed && firstAfterInstall.passed && endToEnd.passed, endToEnd, firstAfterInstall };
  } finally {
    await simulator.close();
    pruneLedgers();
  }
}

const DOUBLED_DIR = 'specs/zz-bench-doubled';

/** The suite with every spec file run twice (a copy under specs/, so its data and ids are fresh). */
async function withSpecsDoubled<T>(work: () => Promise<T>): Promise<T> {
  rmSync(DOUBLED_DIR, { recursive: true, force: true });
  for (const entry of readdirSync('specs', { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.spec.ts') || entry.parentPath.includes('zz-bench-doubled')) continue;
    const area = relative('specs', entry.parentPath);
    mkdirSync(join(DOUBLED_DIR, area), { recursive: true });
    // One level deeper than the original: its relative imports gain one `../`.
    writeFileSync(join(DOUBLED_DIR, area, entry.name), readFileSync(join(entry.parentPath, entry.name), 'utf8').replaceAll("from '../../", "from '../../../"));
  }
  try {
    return await work();
  } finally {
    rmSync(DOUBLED_DIR, { recursive: true, force: true });
  }
}

/** Requests, 429s, polling attempts and notice lag of one suite run, from the simulator's counters and the wait log. */
function suiteCost(profile: Profile, requests: SimulatorRequests, records: VisibilityRecord[], waits: LoggedWait[], clients: number) {
  const attempts = waits.map((wait) => wait.attempts);
  const lags = records.flatMap((record) => (record.firstReadAt === null ? [] : [Math.max(0, record.firstReadAt - record.visibleAt)]));
  const tokenRequests = Object.entries(requests.counts).filter(([route]) => route.includes('token')).reduce((sum, [, n]) => sum + n, 0);
  const total = Object.values(requests.counts).reduce((sum, n) => sum + n, 0);
  return {
    requests: {
      total,
      // The wrong-secret spec sends one deliberately rejected token request: tokensIssued is the budget figure.
      tokenRequests,
      tokensIssued: requests.tokensIssued,
      clients,
      throttled: requests.throttled,
      throttledShare: ratio(requests.throttled, total),
      byRoute: requests.counts,
    },
    waits: {
      count: waits.length,
      byOutcome: Object.fromEntries(['consistent', 'timeout', 'rejected', 'quiet'].map((outcome) => [outcome, waits.filter((wait) => wait.outcome === outcome).length])),
      attemptsMean: waits.length === 0 ? null : Math.round((attempts.reduce((sum, n) => sum + n, 0) / waits.length) * 100) / 100,
      attemptsP95: percentile(attempts, 0.95),
      attemptsMax: attempts.length === 0 ? null : Math.max(...attempts),
    },
    noticeLag: {
      records: lags.length,
      meanMs: mean(lags),
      p95Ms: percentile(lags, 0.95),
      meanShareOfDelay: ratio(mean(lags), profile.availabilityDelayMs),
      p95ShareOfDelay: ratio(percentile(lags, 0.95), profile.availabilityDelayMs),
    },
  };
}

/**
 * Under a rate limit the run cannot be faster than its requests at the limit's pace, nor than its
 * longest chain of waits: the bound is the longer of 1.25 × requests ÷ limit and that chain.
 */
function paceFigures(limit: number, wallMs: number, requests: number, chainMs: number | undefined) {
  const pacedMs = Math.round((requests / limit) * 1000);
  const boundMs = Math.max(1.25 * pacedMs, chainMs ?? 0);
  return { limitPerSecond: limit, pacedMs, wallToPaced: ratio(wallMs, pacedMs), boundMs: Math.round(boundMs), withinBound: wallMs <= boundMs };
}

async function benchProfile(profile: Profile, suiteOnly: boolean, learningRuns: number, seed: number, without: string[]) {
  const limit = profile.rateLimitPerSecond;
  const warm = learningRuns > 0;
  console.log(`bench: profile ${profile.name}, seed ${seed}: availability delay ${profile.availabilityDelayMs} ms (±50 % per effect), latency ${profile.latencyMs} ms${limit ? `, at most ${limit} requests a second per client` : ''}${warm ? `; warm after ${learningRuns} run(s)` : ''}${without.length > 0 ? `; without ${without.join(', ')}` : ''}`);
  const leftOut = without.flatMap((name) => ['--exclude', `**/${name}.spec.ts`]);
  const simulator = await startSimulator({ ...profile, control: true, seed });
  try {
    // Cold unless --warm: then every run starts from what the run before it learned of this simulator.
    const learnedTimes = join(OUT_DIR, `${profile.name}-learned-times.json`);
    rmSync(learnedTimes, { force: true });
    const env: NodeJS.ProcessEnv = { ...process.env, ...simulatorAsRemoteTarget(simulator), CONTRACT_SEED: String(seed), [LEARNED_TIMES_VARIABLE]: warm ? learnedTimes : 'off' };
    const waitLog = join(OUT_DIR, `${profile.name}-waits.jsonl`);
    rmSync(waitLog, { force: true });
    // The runs the measured ones start from, as a nightly run starts from the nights before's:
    // each adds its times to the file, up to the history's size per transition.
    for (let run = 1; run <= learningRuns; run++) {
      const learning = await timedVitest(`${profile.name}-learning`, leftOut, env);
      console.log(`bench: ${profile.name}: learning run ${run} of ${learningRuns}: ${learning.wallMs} ms${learning.passed ? '' : ', FAILED'}`);
    }

    await simulatorControl(simulator, 'POST', 'reset');
    const suite = await timedVitest(`${profile.name}-suite`, leftOut, { ...env, CONTRACT_WAIT_LOG: waitLog });
    const requests = await simulatorControl<SimulatorRequests>(simulator, 'GET', 'requests');
    const { records } = await simulatorControl<{ records: VisibilityRecord[] }>(simulator, 'GET', 'visibility');
    writeFileSync(join(OUT_DIR, `${profile.name}-visibility.json`), `${JSON.stringify(records, null, 1)}\n`);
    const waits = readWaits(waitLog);
    const chain = observedCriticalPath(waits);
    const cost = suiteCost(profile, requests, records, waits, simulator.options.clients.length);
    const figures = {
      profile,
      seed,
      learningRuns,
      without,
      suiteWallMs: suite.wallMs,
      suiteCpuS: suite.cpuS,
      observedChainOfWaits: chain,
      suiteToChainOfWaits: chain === null ? null : ratio(suite.wallMs, chain.ms),
      slowestFilesInSuite: suite.files.slice(0, CRITICAL_CANDIDATES),
      ...cost,
    };
    if (limit) return { ...figures, passed: suite.passed, pace: paceFigures(limit, suite.wallMs, cost.requests.total, chain?.ms) };
    if (suiteOnly) return { ...figures, passed: suite.passed };

    const alone: { file: string; wallMs: number; fileMs: number }[] = [];
    for (const { file } of suite.files.slice(0, CRITICAL_CANDIDATES)) {
      const run = await timedVitest(`${profile.name}-alone-${file.replace(/\W+/g, '_')}`, [file], env);
      alone.push({ file, wallMs: run.wallMs, fileMs: run.files[0]?.ms ?? 0 });
    }
    const critical = alone.reduce((slowest, run) => (run.wallMs > slowest.wallMs ? run : slowest));
    const oneAtATime = await timedVitest(`${profile.name}-one-at-a-time`, [], { ...env, CONTRACT_TESTS_AT_ONCE: '1' });
    await simulatorControl(simulator, 'POST', 'reset');
    const doubled = await withSpecsDoubled(() => timedVitest(`${profile.name}-doubled`, [], env));
    return {
      ...figures,
      passed: suite.passed && oneAtATime.passed && doubled.passed && alone.length > 0,
      criticalPath: { file: critical.file, wallMs: critical.wallMs, candidates: alone },
      suiteToCriticalPath: ratio(suite.wallMs, critical.wallMs),
      doubledSpecsWallMs: doubled.wallMs,
      doubledToSuite: ratio(doubled.wallMs, suite.wallMs),
      oneTestAtATimeWallMs: oneAtATime.wallMs,
    };
  } finally {
    await simulator.close();
    pruneLedgers();
  }
}

type ProfileResult = Awaited<ReturnType<typeof benchProfile>>;

function printSummary(results: ProfileResult[]): void {
  const unlimited = (r: ProfileResult) => ('criticalPath' in r ? r : undefined);
  const paced = (r: ProfileResult) => ('pace' in r ? r.pace : undefined);
  const rows: [string, (r: ProfileResult) => unknown][] = [
    ['suite wall time (ms); CPU s', (r) => `${r.suiteWallMs}; ${r.suiteCpuS ?? '?'}`],
    ['slowest file alone (ms)', (r) => (unlimited(r) ? `${unlimited(r)!.criticalPath.wallMs} (${unlimited(r)!.criticalPath.file})` : '–')],
    ['suite / slowest file alone', (r) => unlimited(r)?.suiteToCriticalPath ?? '–'],
    ['longest chain of waits observed (ms)', (r) => (r.observedChainOfWaits ? `${r.observedChainOfWaits.ms} (${r.observedChainOfWaits.test})` : '?')],
    ['suite / chain of waits', (r) => r.suiteToChainOfWaits],
    ['every spec twice (ms); / suite', (r) => (unlimited(r) ? `${unlimited(r)!.doubledSpecsWallMs}; ${unlimited(r)!.doubledToSuite}` : '–')],
    ['one test at a time (ms)', (r) => unlimited(r)?.oneTestAtATimeWallMs ?? '–'],
    ['requests (token requests, tokens issued)', (r) => `${r.requests.total} (${r.requests.tokenRequests}, ${r.requests.tokensIssued} for ${r.requests.clients} clients)`],
    ['answered 429 by the rate limit (share)', (r) => `${r.requests.throttled} (${r.requests.throttledShare})`],
    ['requests ÷ limit (ms); suite / that', (r) => (paced(r) ? `${paced(r)!.pacedMs}; ${paced(r)!.wallToPaced}` : '–')],
    ['bound: max(1.25 × requests ÷ limit, chain) (ms); met', (r) => (paced(r) ? `${paced(r)!.boundMs}; ${paced(r)!.withinBound ? 'yes' : 'NO'}` : '–')],
    ['waits; reads per wait mean / p95 / max', (r) => `${r.waits.count}; ${r.waits.attemptsMean} / ${r.waits.attemptsP95} / ${r.waits.attemptsMax}`],
    ['notice lag mean / p95 (ms)', (r) => `${r.noticeLag.meanMs} / ${r.noticeLag.p95Ms} over ${r.noticeLag.records} records`],
    ['notice lag mean / p95 (share of delay)', (r) => `${r.noticeLag.meanShareOfDelay} / ${r.noticeLag.p95ShareOfDelay}`],
  ];
  console.log(`\n| figure | ${results.map((r) => `${r.profile.name} (${r.profile.availabilityDelayMs} ms${r.profile.rateLimitPerSecond ? `, ${r.profile.rateLimitPerSecond}/s` : ''}), seed ${r.seed}`).join(' | ')} |`);
  console.log(`|---|${results.map(() => '---|').join('')}`);
  for (const [label, cell] of rows) console.log(`| ${label} | ${results.map((r) => String(cell(r))).join(' | ')} |`);
}

/**
 * One run is one draw of the delays (which wait gets which, and how early the first effect comes):
 * runs of several seeds differ by far more than two versions of the polling do. Per profile run
 * with more than one seed, the mean and the range of the figures a bar is set on.
 */
function printSpread(results: ProfileResult[]): void {
  const byProfile = new Map<string, ProfileResult[]>();
  for (const result of results) byProfile.set(result.profile.name, [...(byProfile.get(result.profile.name) ?? []), result]);
  const spread = (values: (number | null)[], digits = 0) => {
    const known = values.filter((value): value is number => value !== null);
    if (known.length === 0) return '?';
    const round = (value: number) => value.toFixed(digits);
    return `${round(known.reduce((sum, value) => sum + value, 0) / known.length)} (${round(Math.min(...known))} to ${round(Math.max(...known))})`;
  };
  for (const [name, runs] of byProfile) {
    if (runs.length < 2) continue;
    const paced = runs.flatMap((run) => ('pace' in run ? [run.pace] : []));
    const without = runs[0]!.without.length > 0 ? `, without ${runs[0]!.without.join(', ')}` : '';
    console.log(`\n| ${name}: ${runs.length} runs (seeds ${runs.map((run) => run.seed).join(', ')})${without} | mean (range) |`);
    console.log('|---|---|');
    console.log(`| requests | ${spread(runs.map((run) => run.requests.total))} |`);
    console.log(`| reads per wait | ${spread(runs.map((run) => run.waits.attemptsMean), 2)} |`);
    console.log(`| notice lag (share of delay) | ${spread(runs.map((run) => run.noticeLag.meanShareOfDelay), 2)} |`);
    console.log(`| answered 429 (share) | ${spread(runs.map((run) => run.requests.throttledShare), 2)} |`);
    if (paced.length > 0) console.log(`| bound met | ${paced.filter((pace) => pace.withinBound).length} of ${paced.length} |`);
    console.log(`| passed | ${runs.filter((run) => run.passed).length} of ${runs.length} |`);
  }
}

/**
 * `--without=name,...`: spec files (their names without `.spec.ts`) left out of the measured runs;
 * the runs that time files alone, doubled or one test at a time take every file, so `--suite-only`
 * is required. A message naming the fault when a name is no spec file or `--suite-only` is missing.
 */
function specsLeftOut(args: string[], suiteOnly: boolean): string[] | string {
  const arg = args.find((each) => each.startsWith('--without='));
  if (arg === undefined) return [];
  const names = arg.slice('--without='.length).split(',').filter((name) => name !== '');
  const specs = readdirSync('specs', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.spec.ts')).map((file) => file.replace(/^.*\//, '').replace(/\.spec\.ts$/, ''));
  const unknown = names.filter((name) => !specs.includes(name));
  if (names.length === 0 || unknown.length > 0) return `--without takes spec file names without .spec.ts, separated by commas (${unknown.length > 0 ? `no spec file is named ${unknown.join(', ')}` : 'none given'}): --without=subscribed-only,list-uploaded-only`;
  if (!suiteOnly) return '--without measures the suite run only: add --suite-only';
  return names;
}

/** `--seeds=7,5,3,11`: the simulator's seeds, one run of each profile per seed (repeats allowed); BENCH_SEED alone by default. */
function seedsFrom(args: string[]): number[] | undefined {
  const arg = args.find((each) => each.startsWith('--seeds='));
  if (arg === undefined) return [SEED];
  const seeds = arg.slice('--seeds='.length).split(',').map(Number);
  return seeds.length > 0 && seeds.every((seed) => Number.isInteger(seed) && seed >= 0) ? seeds : undefined;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const suiteOnly = args.includes('--suite-only');
  // --warm: one run learns before the measured ones; --warm=N: N runs, a nightly some nights in.
  const warmArg = args.find((arg) => /^--warm(=\d+)?$/.test(arg));
  const learningRuns = warmArg === undefined ? 0 : Number(warmArg.split('=')[1] ?? 1);
  // `fixed` alone: the fixed cost only, the quick figure for a change to what every run loads.
  const fixedOnly = args.includes('fixed');
  const seeds = seedsFrom(args);
  if (seeds === undefined) {
    console.error('bench: --seeds takes whole numbers, 0 or more, separated by commas: --seeds=7,5,3,11');
    return 2;
  }
  const without = specsLeftOut(args, suiteOnly);
  if (typeof without === 'string') {
    console.error(`bench: ${without}`);
    return 2;
  }
  const wanted = args.filter((arg) => !['--suite-only', 'fixed'].includes(arg) && arg !== warmArg && !arg.startsWith('--seeds=') && !arg.startsWith('--without='));
  const unknown = wanted.filter((name) => !PROFILES.some((profile) => profile.name === name));
  if (unknown.length > 0) {
    console.error(`bench: unknown profile(s) ${unknown.join(', ')}; use ${PROFILES.map((profile) => profile.name).join(', ')}, or fixed for the fixed cost alone`);
    return 2;
  }
  mkdirSync(OUT_DIR, { recursive: true });
  const profiles = fixedOnly ? [] : PROFILES.filter((p) => wanted.length === 0 || wanted.includes(p.name));
  // The fixed cost is what the unlimited profiles are compared with; the rate-limited ones have their pace.
  const fixed = fixedOnly || (!suiteOnly && profiles.some((profile) => !profile.rateLimitPerSecond)) ? await fixedCost(seeds[0]!) : undefined;
  if (fixed) console.log(`bench: fixed cost (every delay zero): ${fixed.wallMs} ms wall, ${fixed.cpuS ?? '?'} CPU s`);
  const results: ProfileResult[] = [];
  for (const profile of profiles) for (const seed of seeds) results.push(await benchProfile(profile, suiteOnly, learningRuns, seed, without));
  if (results.length > 0) printSummary(results);
  printSpread(results);
  if (fixed) {
    console.log(`| fixed cost, all delays zero (ms; CPU s) | ${fixed.wallMs}; ${fixed.cpuS ?? '?'} |`);
    console.log(`| npm run contract, all delays zero (ms; CPU s; Allure report ms) | ${fixed.endToEnd.wallMs}; ${fixed.endToEnd.cpuS ?? '?'}; ${fixed.endToEnd.reportMs} |`);
    console.log(`| the same, first run after install (ms; CPU s; Allure report ms) | ${fixed.firstAfterInstall.wallMs}; ${fixed.firstAfterInstall.cpuS ?? '?'}; ${fixed.firstAfterInstall.reportMs} |`);
    for (const result of results) console.log(`bench: ${result.profile.name}: suite / fixed cost ${ratio(result.suiteWallMs, fixed.wallMs)}`);
  }
  writeFileSync(`${REPORTS_DIR}/bench.json`, `${JSON.stringify({ at: new Date().toISOString(), fixedCost: fixed, profiles: results }, null, 2)}\n`);
  console.log(`\nbench: written to ${REPORTS_DIR}/bench.json`);
  return (fixed?.passed ?? true) && results.every((result) => result.passed) ? 0 : 1;
}

process.exitCode = await main();
