/**
 * npm run bench [-- profile...]: the figures of the README's "Where it stands" table and docs/MEASUREMENTS.md,
 * printed and written into docs/bench.json (support/run/bench-tables.ts renders both); nothing here asserts a time.
 * Per profile, one simulator (control surface on) serves one run of every spec, as `vitest run --project contract`
 * runs them, and its counters give the requests and the 429s; a rate-limited profile also gives its utilisation
 * (accepted ÷ wall × rate) and its floor (accepted ÷ rate, plus the longest test's own time). `BENCH_SEED` picks the
 * seed (default 7); only the kept seed's figures go into docs/bench.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator } from '../simulator/listen.js';
import type { SimulatorOptions } from '../simulator/options.js';
import type { WaitAttempts } from '../support/readings/eventually.js';
import { runVitestWithResults, simulatorAsRemoteTarget, simulatorRequests } from '../support/run/child-runs.js';
import { BENCH_DIR } from '../support/run/paths.js';
import {
  BENCH_JSON,
  MEASUREMENTS,
  readBench,
  readmeWithBench,
  renderMeasurements,
  withRows,
  type BenchRow,
} from '../support/run/bench-tables.js';
import { README } from '../support/run/coverage-map.js';

/** The vendor's shapes, paths, scopes and paging, a sandbox with history, faults and a rate limit. */
const VENDOR_NIGHT: SimulatorOptions = {
  layout: 'vendor',
  paging: 'page-token',
  strictBooleans: true,
  idSpace: 'shared',
  personPathElsewhere: true,
  screeningScope: 'aml',
  backgroundRecords: 300,
  faultRate: 0.03,
  tokenTtlSeconds: 20,
  availabilityDelayMs: 3_000,
  latencyMs: 80,
  rateLimitPerSecond: 5,
};
const VENDOR_ENV = {
  CONTRACT_PERSON_PATH: '/consumer-intelligence/v3/persons/{gedi}',
  CONTRACT_SCREENING_SCOPE: 'aml',
};

interface Profile {
  /** What it models, for the tables. */
  models: string;
  /** The issues' bound for it, if any. */
  bar?: string;
  simulator: SimulatorOptions;
  env?: Record<string, string>;
  /** Processes sending for one client at once, each its `--shard=i/n` (the release gate's shards). */
  shards?: number;
}

// The bars are issue 54's, where it set one; b76e47e is that issue's baseline (its walls as measured beside its code).
const PROFILES: Record<string, Profile> = {
  realistic: {
    models: '2 s delay ±50 %',
    bar: '≤ 300 requests, ≤ 1.3 × chain',
    simulator: { availabilityDelayMs: 2_000, latencyMs: 50 },
  },
  'limited-10': {
    models: '10 a second',
    simulator: { availabilityDelayMs: 250, latencyMs: 50, rateLimitPerSecond: 10 },
  },
  'limited-5': {
    models: '5 a second, 3 s delay',
    simulator: { availabilityDelayMs: 3_000, latencyMs: 50, rateLimitPerSecond: 5 },
  },
  'vendor-night': {
    models: 'vendor shapes, 5 a second, 300 records, 10 a page',
    bar: '≤ 600 requests, ≤ 150 s',
    simulator: VENDOR_NIGHT,
    env: VENDOR_ENV,
  },
  // A year of nightly uploads: ten consumers a night that cannot be deleted, read 100 a page.
  'vendor-year': {
    models: '3,650 records, 100 a page',
    bar: '≤ 160 s',
    simulator: { ...VENDOR_NIGHT, backgroundRecords: 3_650 },
    env: { ...VENDOR_ENV, CONTRACT_PAGE_SIZE: '100' },
  },
  'stingy-3': {
    models: '3 a second, 5 s delay, 5 % faults',
    bar: '≤ b76e47e beside it (79–82 s)',
    simulator: { availabilityDelayMs: 5_000, latencyMs: 50, rateLimitPerSecond: 3, faultRate: 0.05 },
  },
  'stingy-2': {
    models: '2 a second, 50 records',
    bar: '≤ b76e47e beside it (86–109 s)',
    simulator: { availabilityDelayMs: 2_000, latencyMs: 50, rateLimitPerSecond: 2, backgroundRecords: 50 },
  },
  // A slow vendor-shaped sandbox and no setting given: every test queues behind the others for the client's rate.
  'slow-2': {
    models: 'vendor, 2 a second, 50 records',
    bar: '≤ b76e47e beside it (324–327 s)',
    simulator: { ...VENDOR_NIGHT, rateLimitPerSecond: 2, backgroundRecords: 50 },
    env: VENDOR_ENV,
  },
  'slow-1': {
    models: 'vendor, 1 a second, 300 records',
    bar: '≤ 650 s',
    simulator: { ...VENDOR_NIGHT, rateLimitPerSecond: 1 },
    env: VENDOR_ENV,
  },
  // A year of nightly uploads read at the sandbox's own page size.
  'year-unpaged': {
    models: '3,650 records, unpaged',
    bar: '≤ b76e47e beside it (2,446 s)',
    simulator: { ...VENDOR_NIGHT, backgroundRecords: 3_650 },
    env: VENDOR_ENV,
  },
  // The release gate's shards against one client's limit, and the same run in one process, to compare in one bench.
  'shards-1': {
    models: 'vendor, 5 a second, 50 records',
    simulator: { ...VENDOR_NIGHT, backgroundRecords: 50 },
    env: VENDOR_ENV,
  },
  'shards-3': {
    models: 'the same in 3 shards at once',
    bar: '≤ 1.3 × `shards-1`',
    simulator: { ...VENDOR_NIGHT, backgroundRecords: 50 },
    env: VENDOR_ENV,
    shards: 3,
  },
};

/** The commit measured; code that differs from it (documents aside, which the bench itself writes) is said. */
function measuredCommit(): string {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  const changed = git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!docs', ':!README.md');
  return `${git('rev-parse', '--short', 'HEAD')}${changed === '' ? '' : '+uncommitted'}`;
}

const total = (report: { counts: Record<string, number> }): number =>
  Object.values(report.counts).reduce((sum, count) => sum + count, 0);
const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** The longest chain of waits one test went through: the sum of its waits, the largest over tests. */
function longestChainMs(waits: (WaitAttempts & { test?: string })[]): number {
  const byTest = new Map<string, number>();
  for (const wait of waits) if (wait.test) byTest.set(wait.test, (byTest.get(wait.test) ?? 0) + wait.elapsedMs);
  return Math.max(0, ...byTest.values());
}

async function bench(name: string, profile: Profile, seed: number, commit: string): Promise<BenchRow> {
  const simulator = await startSimulator({ ...profile.simulator, control: true, seed });
  const waitLog = join(BENCH_DIR, `${name}-waits.jsonl`);
  rmSync(waitLog, { force: true });
  try {
    const env = {
      ...process.env,
      ...simulatorAsRemoteTarget(simulator),
      ...profile.env,
      CONTRACT_SEED: String(seed),
      CONTRACT_WAIT_LOG: waitLog,
    };
    const started = Date.now();
    const shards = profile.shards ?? 1;
    const runs = await Promise.all(
      Array.from({ length: shards }, (_, index) =>
        runVitestWithResults(['--project', 'contract', ...(shards > 1 ? [`--shard=${index + 1}/${shards}`] : [])], env),
      ),
    );
    const wallMs = Date.now() - started;
    const counts = await simulatorRequests(simulator);
    const waits = readFileSync(waitLog, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as WaitAttempts & { test?: string; ownMs?: number });
    const ownTimes = waits.flatMap((line) => (line.ownMs === undefined ? [] : [line.ownMs]));
    const polled = waits.filter((wait) => wait.outcome === 'consistent' || wait.outcome === 'timeout');
    const results = runs.flatMap((run) => run.results?.testResults.flatMap((file) => file.assertionResults) ?? []);
    for (const test of results.filter((each) => each.status !== 'passed')) {
      console.log(`bench: ${name}: failed: ${test.title}: ${(test.failureMessages ?? [''])[0]!.split('\n')[0]}`);
    }
    const requests = total(counts);
    const accepted = requests - counts.throttled;
    const limit = profile.simulator.rateLimitPerSecond;
    const chainMs = longestChainMs(waits);
    return {
      profile: name,
      models: profile.models,
      bar: profile.bar,
      commit,
      passed: `${results.filter((test) => test.status === 'passed').length} of ${results.length}`,
      throttledTests: results.filter((test) =>
        (test.failureMessages ?? []).some((message) => /Target throttled/.test(message)),
      ).length,
      requests,
      answered429: counts.throttled,
      share429: round(counts.throttled / requests),
      readsPerWait: round(polled.reduce((sum, wait) => sum + wait.attempts, 0) / Math.max(1, polled.length)),
      wallS: round(wallMs / 1000, 1),
      // How close the run came to its rate: what the target accepted over what the wall allowed it to.
      utilisation: limit ? round(accepted / ((wallMs / 1000) * limit)) : undefined,
      // The least a run of these requests can take: the accepted at the rate, plus the longest chain of waits, as a
      // test's own time counts it (its turns at the pace and lists' later pages left out, which the rate already has).
      floorS: limit ? round(accepted / limit + Math.max(0, ...ownTimes) / 1000, 1) : undefined,
      longestChainS: round(chainMs / 1000, 1),
      longestTestS: round(Math.max(0, ...results.map((test) => test.duration ?? 0)) / 1000, 1),
      longestOwnS: ownTimes.length > 0 ? round(Math.max(...ownTimes) / 1000, 1) : undefined,
      wallOverChain: round(wallMs / Math.max(1, chainMs)),
    };
  } finally {
    await simulator.close();
  }
}

const names = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = names.filter((name) => !(name in PROFILES));
if (unknown.length > 0)
  throw new Error(`bench: no profile ${unknown.join(', ')}; the profiles are ${Object.keys(PROFILES).join(', ')}`);
const seed = Number(process.env.BENCH_SEED ?? 7);
const commit = measuredCommit();
mkdirSync(BENCH_DIR, { recursive: true });
const rows: BenchRow[] = [];
for (const name of names.length > 0 ? names : ['realistic', 'limited-10', 'limited-5', 'vendor-night']) {
  const row = await bench(name, PROFILES[name]!, seed, commit);
  console.log(`bench: ${JSON.stringify(row)}`);
  rows.push(row);
}
// Another seed's figures are not the kept ones: they stay in the reports folder.
const before = readBench();
if (seed === before.seed) {
  const kept = withRows(before, rows);
  writeFileSync(BENCH_JSON, `${JSON.stringify(kept, null, 2)}\n`);
  writeFileSync(MEASUREMENTS, renderMeasurements(kept));
  writeFileSync(README, readmeWithBench(readFileSync(README, 'utf8'), kept));
  console.log(`bench: docs/bench.json, docs/MEASUREMENTS.md and README.md updated (${commit})`);
}
writeFileSync(join(BENCH_DIR, 'bench.json'), `${JSON.stringify({ seed, rows }, null, 2)}\n`);
