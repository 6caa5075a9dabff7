import { AppError } from "../../errors";

/** The first guess at a hash's duration, until one has been timed. */
const FIRST_GUESS_MS = 200;

/**
 * Password hashes run a few at a time, with a short line behind them; a hash that finds the line full is refused
 * at once (429 with Retry-After) instead of waiting. Each hash holds a CPU core and tens of MB for a fifth of a
 * second, so an unbounded number of them at once (a flood of logins) would hold every core for minutes, and
 * everything else with them.
 */
export class HashPool {
  private running = 0;
  private readonly line: (() => void)[] = [];
  private typical = FIRST_GUESS_MS;

  constructor(
    readonly concurrency: number,
    readonly lineLength: number,
  ) {}

  /** Runs `work` when a slot is free; throws 429 ERR_TOO_MANY_ATTEMPTS when the line is full. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running++;
    else if (this.line.length < this.lineLength) await new Promise<void>((resume) => this.line.push(resume));
    else throw new AppError("ERR_TOO_MANY_ATTEMPTS", 429, { retryAfter: this.retryAfterSeconds() });
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.typical = 0.8 * this.typical + 0.2 * (performance.now() - started);
      // The slot passes straight to the next in line, so a newcomer cannot overtake it.
      const next = this.line.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** How long one hash takes lately (ms): what an answer that skips hashing waits to look like one. */
  typicalMs(): number {
    return this.typical;
  }

  /** Hashes in progress and waiting. */
  load(): number {
    return this.running + this.line.length;
  }

  private retryAfterSeconds(): number {
    const drainMs = ((this.running + this.line.length) / this.concurrency) * this.typical;
    return Math.max(1, Math.ceil(drainMs / 1000));
  }
}
