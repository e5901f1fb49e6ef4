/**
 * npm run polling-model [-- runs]: the polling helper (support/readings/eventually.ts) against a
 * model of the suite's waits on a simulated clock, many runs in a few seconds, so schedules can be
 * compared without the noise of one 25-second bench run on a shared machine. Figures are printed;
 * nothing here asserts anything. `npm run bench` measures the real suite; this measures only the
 * schedule, and only against the delays modelled here.
 *
 * One modelled run: 25 waits for creations start together (as the suite's first wave does), 20
 * waits for other transitions start between 2.5 and 4.5 s, and 6 subscriptions between 5 and 7 s;
 * every effect comes after a delay drawn evenly from 1 to 3 s (the realistic profile's 2 s ±50 %),
 * and every read takes 50 ms. Cold: the run knows nothing at its start. Warm: it starts from what
 * a cold run before it learned, as a nightly run starts from the night before's (learned-times.ts).
 * Last, the bound no schedule can beat: the fewest reads at each notice lag, knowing the delays.
 */
import { ConsistencyHistory, eventually, type Clock, type EffectTime, type Transition } from '../support/readings/eventually.js';
import type { ApiResponse } from '../support/transport/http.js';
import { jittered, seededRandom } from '../simulator/random.js';

/** The realistic profile's delay, ±50 % per effect as the simulator draws it; notice lag is reported against `ms`, as the bench does. */
const DELAY = { ms: 2_000, share: 0.5 };
const READ_MS = 50;

/** A clock whose sleeps end in order of their deadlines, one at a time, once every wait has run up to its next sleep. */
class SimulatedClock implements Clock {
  private ms = 0;
  private order = 0;
  private readonly sleeping: { at: number; order: number; wake: () => void }[] = [];

  now = (): number => this.ms;

  sleep = (ms: number): Promise<void> => new Promise((wake) => this.sleeping.push({ at: this.ms + Math.max(0, ms), order: this.order++, wake }));

  /** Runs until every sleep has ended and nothing sleeps again. */
  async run(): Promise<void> {
    for (;;) {
      await new Promise((settled) => setImmediate(settled));
      this.sleeping.sort((a, b) => a.at - b.at || a.order - b.order);
      const next = this.sleeping.shift();
      if (!next) return;
      this.ms = Math.max(this.ms, next.at);
      next.wake();
    }
  }
}

const answer = (status: number): ApiResponse => ({ status, ok: status < 300, headers: {}, body: {}, text: '', url: '', exchanges: [], receivedAt: 0 });

interface WaitFigures {
  reads: number;
  lagMs: number;
  firstWave: boolean;
}

/** One modelled run, starting from what `earlier` learned (a run before it against the same target); its figures and what it learned. */
async function modelledRun(seed: number, earlier?: Record<string, EffectTime[]>): Promise<{ figures: WaitFigures[]; learned: Record<string, EffectTime[]> }> {
  const clock = new SimulatedClock();
  const random = seededRandom(seed);
  const delay = () => jittered(DELAY.ms, DELAY.share, random);
  const history = new ConsistencyHistory();
  if (earlier) history.startFrom(earlier);
  const figures: WaitFigures[] = [];
  const awaitEffect = async (name: Transition, startMs: number) => {
    await clock.sleep(startMs);
    const since = clock.now();
    const visibleAt = since + delay();
    let reads = 0;
    let seenAt = 0;
    const read = async () => {
      await clock.sleep(READ_MS);
      reads += 1;
      // The target looks half way through the read.
      const lookedAt = clock.now() - READ_MS / 2;
      if (lookedAt < visibleAt) return answer(404);
      seenAt = lookedAt;
      return answer(200);
    };
    await eventually(`${name} effect`, read, (response) => response.ok || undefined, { timeoutMs: 60_000, clock, random, history, transition: { name, since } });
    figures.push({ reads, lagMs: seenAt - visibleAt, firstWave: startMs === 0 });
  };
  const others: Transition[] = ['update', 'identification', 'delete', 'merge'];
  const waits = [
    ...Array.from({ length: 25 }, () => awaitEffect('create', 0)),
    ...Array.from({ length: 20 }, (_, index) => awaitEffect(others[index % others.length]!, 2_500 + 2_000 * random())),
    ...Array.from({ length: 6 }, () => awaitEffect('subscription', 5_000 + 2_000 * random())),
  ];
  await clock.run();
  await Promise.all(waits);
  return { figures, learned: history.learned() };
}

const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
const at = (values: number[], share: number): number => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))]!;

function summary(runs: WaitFigures[][], which: (wait: WaitFigures) => boolean): string {
  const reads = runs.map((run) => mean(run.filter(which).map((wait) => wait.reads)));
  const lag = runs.map((run) => mean(run.filter(which).map((wait) => wait.lagMs)) / DELAY.ms);
  return `reads per wait ${mean(reads).toFixed(2)} (runs p10 ${at(reads, 0.1).toFixed(2)}, p90 ${at(reads, 0.9).toFixed(2)}); notice lag ${(100 * mean(lag)).toFixed(1)} % of the delay (p90 ${(100 * at(lag, 0.9)).toFixed(1)} %)`;
}

/**
 * The fewest reads a wait could average at a mean notice lag of `lagShare` of the delay, knowing the
 * delays exactly (evenly from 1 to 3 s, reads taking no time): the best schedule of reads after the
 * write, by dynamic programming over 10 ms steps, for the price of lag in reads that spends the
 * whole allowance. A read at step j after a miss at step i costs one read for every effect still to
 * come, and the lag of those that came between. No learned schedule can do better than this.
 */
function fewestReads(lagShare: number): number {
  const [from, to, step] = [DELAY.ms * (1 - DELAY.share), DELAY.ms * (1 + DELAY.share), 10];
  const steps = (to - from) / step;
  const comeBy = (index: number) => index / steps;
  const lagOf = (i: number, j: number) => ((j - i) * step) ** 2 / 2 / (to - from);
  const plan = (price: number) => {
    const cost = new Array<number>(steps + 1).fill(0);
    const next = new Array<number>(steps + 1).fill(steps);
    for (let i = steps - 1; i >= 0; i--) {
      cost[i] = Infinity;
      for (let j = i + 1; j <= steps; j++) {
        const total = 1 - comeBy(i) + price * lagOf(i, j) + cost[j]!;
        if (total < cost[i]!) [cost[i], next[i]] = [total, j];
      }
    }
    let [reads, lagMs] = [0, 0];
    for (let i = 0; i < steps; i = next[i]!) [reads, lagMs] = [reads + 1 - comeBy(i), lagMs + lagOf(i, next[i]!)];
    return { reads, lagMs };
  };
  let [cheap, dear] = [1e-7, 1];
  for (let round = 0; round < 50; round++) {
    const middle = Math.sqrt(cheap * dear);
    if (plan(middle).lagMs > lagShare * DELAY.ms) cheap = middle;
    else dear = middle;
  }
  return plan(dear).reads;
}

const runs = Number(process.argv[2] ?? 100);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`polling-model: runs must be a whole number, 1 or more (got ${JSON.stringify(process.argv[2])}): npm run polling-model -- 100`);
  process.exit(2);
}
console.log(`polling-model: ${runs} modelled runs of 51 waits each; delays evenly 1 to 3 s, reads of ${READ_MS} ms`);
const [cold, warm]: WaitFigures[][][] = [[], []];
for (let seed = 1; seed <= runs; seed++) {
  const first = await modelledRun(seed);
  cold.push(first.figures);
  warm.push((await modelledRun(seed + runs, first.learned)).figures);
}
for (const [name, results] of [['cold', cold], ['warm', warm]] as const) {
  console.log(`${name}: every wait: ${summary(results, () => true)}`);
  console.log(`      first wave: ${summary(results, (wait) => wait.firstWave)}; later: ${summary(results, (wait) => !wait.firstWave)}`);
}
const bounds = [0.1, 0.15, 0.2, 0.25].map((share) => `${fewestReads(share).toFixed(2)} at ${100 * share} %`);
console.log(`the fewest reads per wait any schedule could average, knowing these delays exactly, at a notice lag of: ${bounds.join(', ')}`);
