import { afterAll, beforeAll } from 'vitest';
import { LegalIdGenerator } from '../../support/data/legal-ids.js';
import { seededRandom } from '../../support/data/factories.js';
import { startSimulator, type RunningSimulator } from '../../simulator/listen.js';
import type { SimulatorOptions } from '../../simulator/options.js';

/** A clock the test moves by hand, so eventual effects arrive, and sleeps end, exactly when the test says. */
export class ManualClock {
  private readonly sleepers: { until: number; wake: () => void }[] = [];
  private readonly asleep = new Set<() => void>();

  constructor(private time = Date.UTC(2030, 0, 1)) {}
  now(): number {
    return this.time;
  }
  sleep(ms: number): Promise<void> {
    return new Promise((wake) => {
      this.sleepers.push({ until: this.time + ms, wake });
      for (const notify of this.asleep) notify();
    });
  }
  /** How many sleeps have not ended yet. */
  get sleeping(): number {
    return this.sleepers.length;
  }
  /** Resolves once someone sleeps on this clock (a request held for its latency). */
  someoneSleeps(): Promise<void> {
    if (this.sleepers.length > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const notify = () => {
        this.asleep.delete(notify);
        resolve();
      };
      this.asleep.add(notify);
    });
  }
  advance(ms: number): void {
    this.time += ms;
    const due = this.sleepers.filter(({ until }) => until <= this.time);
    this.sleepers.splice(0, this.sleepers.length, ...this.sleepers.filter((sleeper) => !due.includes(sleeper)));
    for (const { wake } of due) wake();
  }
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test bodies are inspected freely
}

export interface RequestOptions {
  /** A bearer token; `null` sends none. */
  token?: string | null;
  json?: unknown;
  /** A raw body sent with the given content type. */
  raw?: { contentType: string; body: string };
  headers?: Record<string, string>;
}

/** A started simulator plus what a self-test needs to talk to it over real HTTP. */
/** A simulator's options, and `realTime` to run it on the system clock instead of a manual one. */
export type HarnessOptions = SimulatorOptions & { realTime?: boolean };

export class Harness {
  private readonly legalIds = new LegalIdGenerator('SE', seededRandom(7));
  private sequence = 0;

  private constructor(
    readonly simulator: RunningSimulator,
    readonly clock: ManualClock | undefined,
  ) {}

  /** Port 0, no background records unless asked; a manual clock unless `realTime`. */
  static async start(options: HarnessOptions = {}): Promise<Harness> {
    const { realTime = false, ...rest } = options;
    const clock = realTime ? undefined : new ManualClock();
    const simulator = await startSimulator({
      availabilityDelayMs: 20,
      backgroundRecords: 0,
      seed: 1,
      ...(clock ? { clock } : {}),
      ...rest,
    });
    return new Harness(simulator, clock);
  }

  /**
   * What most describe blocks begin with: a harness started as `start` does, and a token of its first client, handed
   * to `started` before the block's tests and closed after them.
   */
  static forBlock(options: HarnessOptions, started: (harness: { h: Harness; token: string }) => void): void {
    let h: Harness | undefined;
    beforeAll(async () => {
      h = await Harness.start(options);
      started({ h, token: await h.token() });
    });
    afterAll(() => h?.close());
  }

  get baseUrl(): string {
    return this.simulator.baseUrl;
  }

  close(): Promise<void> {
    return this.simulator.close();
  }

  /** Moves the manual clock past every pending delay (jitter is at most 1.5 × the base, twice for chained effects). */
  settle(): void {
    if (!this.clock) throw new Error('settle() needs the manual clock; real-time tests wait with expect.poll');
    this.clock.advance(4 * this.simulator.options.availabilityDelayMs + 1);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    if (options.raw) {
      headers['content-type'] = options.raw.contentType;
      body = options.raw.body;
    }
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
  }

  tokenRequest(
    clientIndex = 0,
    form: Record<string, string> = { grant_type: 'client_credentials', scope: 'bci' },
    secret?: string,
  ): Promise<Answer> {
    const client = this.simulator.options.clients[clientIndex];
    const basic = Buffer.from(`${client.id}:${secret ?? client.secret}`).toString('base64');
    return this.request('POST', '/sandbox/v1/token.oauth2', {
      headers: { authorization: `Basic ${basic}` },
      raw: { contentType: 'application/x-www-form-urlencoded', body: new URLSearchParams(form).toString() },
    });
  }

  async token(clientIndex = 0): Promise<string> {
    const answer = await this.tokenRequest(clientIndex);
    return answer.body?.access_token;
  }

  /** A valid sandbox person with a unique id and legal id. */
  person(overrides: Record<string, unknown> = {}): Record<string, unknown> & { id: string; legalId: string } {
    const { legalId, dateOfBirth, gender } = this.legalIds.next();
    this.sequence += 1;
    return {
      id: `self-test-${this.sequence}`,
      country: 'SE',
      legalId,
      dateOfBirth,
      gender,
      firstNames: ['Test'],
      familyName: `Person${this.sequence}`,
      ...overrides,
    };
  }

  freshLegalId(): string {
    return this.legalIds.next().legalId;
  }
}

export const PERSONS = '/consumer-intelligence/sandbox/v1/persons';
export const CONSUMERS = '/consumer-intelligence/v3/consumers';
export const SUBSCRIPTIONS = '/consumer-intelligence/v3/subscriptions/persons';
export const personPath = (gedi: string, market = 'SE') =>
  `/consumer-intelligence/v3/markets/${market}/persons/${gedi}`;
export const findPath = (market = 'SE') => `/consumer-intelligence/v3/markets/${market}/persons/_find`;
export const screeningPath = (subject: 'person' | 'company', root = false) =>
  `/aml-real-time-screening/${root ? '' : 'v2/'}api/aml/kyc/${subject}/screening`;

/** Runs `use` on a harness started with `options`, and closes the harness whatever `use` does. */
export async function withHarness<T>(options: HarnessOptions, use: (h: Harness) => Promise<T>): Promise<T> {
  const h = await Harness.start(options);
  try {
    return await use(h);
  } finally {
    await h.close();
  }
}
