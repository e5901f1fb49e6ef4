/**
 * Time as the simulator sees it; tests inject a fake one to move effects forward, and to end the
 * latency a request is held for, without sleeping.
 */
export interface SimulatorClock {
  now(): number;
  /** Resolves once `ms` have passed on this clock. */
  sleep(ms: number): Promise<void>;
}

export const systemClock: SimulatorClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
