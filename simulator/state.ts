import type { SimulatorClock } from './clock.js';
import { ConsumerStore } from './consumers.js';
import type { MutantName } from './mutants.js';
import type { ResolvedSimulatorOptions } from './options.js';
import { PersonRegister, type Delays } from './persons.js';
import { jittered, keyedRandom, seededRandom, seededUuids, type Random } from './random.js';
import { ReadLog } from './read-log.js';
import { RateLimiter } from './rate-limit.js';
import { RequestLog } from './request-log.js';
import { TokenStore } from './tokens.js';

/** Everything the simulator remembers; handlers receive it instead of reaching for globals. */
export class SimulatorState {
  readonly clock: SimulatorClock;
  readonly random: Random;
  private readonly uuids: () => string;
  /** How many times each request (method and URL) has been asked, for `randomFor`. */
  private readonly asked = new Map<string, number>();
  readonly delays: Delays;
  readonly tokens: TokenStore;
  readonly rateLimit: RateLimiter;
  persons!: PersonRegister;
  consumers!: ConsumerStore;
  requests!: RequestLog;
  reads!: ReadLog;

  constructor(
    readonly options: ResolvedSimulatorOptions,
    private readonly seedBackground: (state: SimulatorState) => void,
  ) {
    this.clock = options.clock;
    this.random = seededRandom(options.seed);
    this.delays = { next: () => jittered(options.availabilityDelayMs, options.availabilityJitter, this.random) };
    this.tokens = new TokenStore(this.clock, options.tokenTtlSeconds);
    this.rateLimit = new RateLimiter(options.rateLimitPerSecond);
    // A stream of its own, so that ids do not shift the draws of delays (and one for the state's life: a reset never
    // hands out an id again).
    this.uuids = seededUuids(seededRandom(options.seed ^ 0x9e3779b9));
    this.reset();
  }

  /** Forgets all records and counts but keeps issued tokens, so a reset never logs a client out. */
  reset(): void {
    this.persons = new PersonRegister(this.clock, this.delays, this.uuids);
    this.consumers = new ConsumerStore();
    this.requests = new RequestLog();
    this.reads = new ReadLog();
    this.tokens.issued = 0;
    this.seedBackground(this);
  }

  /** Whether the simulator runs one of these mutants. */
  mutant(...names: MutantName[]): boolean {
    return this.options.mutant !== undefined && names.includes(this.options.mutant);
  }

  now(): number {
    return this.clock.now();
  }

  /** Draws for the request `key` names (method and URL), the same however requests interleave (random.ts). */
  randomFor(key: string): Random {
    const occurrence = this.asked.get(key) ?? 0;
    this.asked.set(key, occurrence + 1);
    return keyedRandom(this.options.seed, key, occurrence);
  }
}
