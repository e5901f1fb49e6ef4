/** Time as the simulator sees it; tests inject a fake one to move effects forward without sleeping. */
export interface SimulatorClock {
  now(): number;
}

export const systemClock: SimulatorClock = { now: () => Date.now() };
