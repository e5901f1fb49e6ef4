// Owns the suite's time: what the HTTP client, the pace, token renewal and waits read and sleep on, injectable so that
// a unit test runs a schedule of seconds in milliseconds.

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
