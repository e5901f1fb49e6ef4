// Clients that always have requests waiting, each through a pace of its own, against one token bucket
// (simulator/rate-limit.ts), on a discrete-event clock: minutes of sending run in milliseconds and repeat from a seed.
import { RateLimiter } from '../../simulator/rate-limit.js';
import { seededRandom } from '../../simulator/random.js';
import type { Clock } from '../../support/transport/clock.js';
import { PACING, Pace } from '../../support/transport/pace.js';

/** A clock whose `sleep` waits for the driver: it runs the pending work, then moves to the earliest sleeper. */
export class EventClock implements Clock {
  private at = 0;
  private sleepers: { at: number; wake: () => void }[] = [];

  now(): number {
    return this.at;
  }

  sleep(ms: number): Promise<void> {
    return new Promise((wake) => this.sleepers.push({ at: this.at + Math.max(0, ms), wake }));
  }

  /** Runs every sleeper due by `untilMs`, in the order of their times, then sets the time to `untilMs`. */
  async runUntil(untilMs: number): Promise<void> {
    for (;;) {
      await new Promise((settled) => setImmediate(settled));
      let earliest = 0;
      for (let index = 1; index < this.sleepers.length; index++)
        if (this.sleepers[index]!.at < this.sleepers[earliest]!.at) earliest = index;
      const next = this.sleepers[earliest];
      if (!next || next.at > untilMs) break;
      this.sleepers.splice(earliest, 1);
      this.at = next.at;
      next.wake();
    }
    this.at = untilMs;
  }
}

export interface Sending {
  /** The limit the clients share, requests a second (a bucket of a second's worth). */
  limitRps: number;
  clients: number;
  seconds: number;
  /** Share of admitted requests answered 429 with `Retry-After: 1` instead, at random. */
  faultRate?: number;
  seed?: number;
}

/** Per client, the times of its accepted answers, of those the limit refused, and of the random faults. */
export interface Answers {
  accepted: number[];
  refused: number[];
  faulted: number[];
}

/** Accepted answers a second between `fromS` and `toS`. */
export const acceptedRps = (answers: Answers, fromS: number, toS: number): number =>
  answers.accepted.filter((at) => at >= fromS * 1000 && at < toS * 1000).length / (toS - fromS);

/** Share of the clients' answers the limit refused: the random faults come whatever the pace does. */
export const refusedShare = (...clients: Answers[]): number => {
  const count = (kind: keyof Answers) => clients.reduce((sum, answers) => sum + answers[kind].length, 0);
  return count('refused') / (count('accepted') + count('refused') + count('faulted'));
};

/** One client's requests against the shared bucket, each retried after its Retry-After, first, as http.ts does. */
function requester(clock: EventClock, bucket: RateLimiter, random: () => number, faultRate: number) {
  return async (pace: Pace, own: Answers, until = Infinity): Promise<void> => {
    for (let retry = false; clock.now() < until;) {
      await pace.acquire(Infinity, retry ? 'retry' : 'new');
      const sentAt = clock.now();
      // It arrives 10 to 40 ms later and is answered 50 to 100 ms after it was sent.
      const arriveMs = 10 + 30 * random();
      await clock.sleep(arriveMs);
      const admission = bucket.admit('shared client', clock.now());
      const fault = admission.admitted && random() < faultRate;
      await clock.sleep(50 + 50 * random() - arriveMs);
      const retryAfterMs = admission.admitted ? (fault ? 1_000 : undefined) : admission.retryAfterS * 1000;
      const throttled = retryAfterMs !== undefined;
      (fault ? own.faulted : throttled ? own.refused : own.accepted).push(clock.now());
      pace.finished({ sentAt, throttled, retryAfterMs });
      if (retryAfterMs === undefined) return;
      retry = true;
      await clock.sleep(retryAfterMs);
    }
  };
}

const noAnswers = (): Answers => ({ accepted: [], refused: [], faulted: [] });

/** Sends for `seconds` of simulated time, each client with more requests waiting than it has in flight. */
export async function send({ limitRps, clients, seconds, faultRate = 0, seed = 7 }: Sending): Promise<Answers[]> {
  const clock = new EventClock();
  const request = requester(clock, new RateLimiter(limitRps), seededRandom(seed), faultRate);
  const endMs = seconds * 1000;
  const answers = Array.from({ length: clients }, noAnswers);
  const sender = async (pace: Pace, own: Answers): Promise<void> => {
    while (clock.now() < endMs) await request(pace, own, endMs);
  };
  for (const own of answers) {
    const pace = new Pace(clock);
    for (let index = 0; index < 2 * PACING.maxInFlight; index++) void sender(pace, own);
  }
  await clock.runUntil(endMs);
  return answers;
}

/** Thirty tests of 2 to 8 steps each, drawn from `seed`: a run's tests as `runChains` takes them. */
export const runOfTests = (seed: number): number[] =>
  Array.from({ length: 30 }, (_, index) => 2 + Math.floor(seededRandom(seed * 31 + index)() * 7));

/**
 * Tests as a run has them: chains of steps, each three requests at once and then an effect's delay of 1.5 to 3 s,
 * all started together. `shards`: each a client of its own, on the tests given it, sharing one bucket. Says when each
 * shard ended, in seconds.
 */
export async function runChains(
  shards: number[][],
  { limitRps, faultRate = 0, seed = 7 }: Omit<Sending, 'clients' | 'seconds'>,
): Promise<{ endedS: number[]; answers: Answers[] }> {
  const clock = new EventClock();
  const random = seededRandom(seed);
  const request = requester(clock, new RateLimiter(limitRps), random, faultRate);
  const answers = shards.map(noAnswers);
  const endedS: number[] = [];
  const shard = async (steps: number[], index: number): Promise<void> => {
    const pace = new Pace(clock);
    const own = answers[index]!;
    const chain = async (count: number) => {
      for (let step = 0; step < count; step++) {
        await Promise.all([request(pace, own), request(pace, own), request(pace, own)]);
        await clock.sleep(1_500 + 1_500 * random());
      }
    };
    await Promise.all(steps.map(chain));
    endedS[index] = clock.now() / 1000;
  };
  let ended = false;
  void Promise.all(shards.map(shard)).then(() => (ended = true));
  for (let at = 1_000; !ended; at += 1_000) await clock.runUntil(at);
  return { endedS, answers };
}
