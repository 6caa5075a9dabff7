/** Where the time comes from: the system clock in production, a clock the test moves by hand in tests. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
