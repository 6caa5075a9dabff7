import type { Db } from "../db/client";
import type { JobRow } from "../db/tables";
import type { Clock } from "../shared/clock";
import type { Logger } from "../log";
import { cancel, claimDue, complete, enqueue, type EnqueueOptions, fail } from "./store";

/** Runs one job; throwing means "try again later". */
// biome-ignore lint/suspicious/noExplicitAny: the payload is stored JSON; each job kind's handler declares its own shape
export type JobHandler = (payload: any, job: JobRow) => Promise<void>;

export interface RunnerOptions {
  /** How long a claimed job is this runner's before another may take it (a crash frees it after this). */
  leaseMs?: number;
  /** Jobs run at once. */
  concurrency?: number;
  /** Delay before attempt n+1: base · 2^(n-1), capped. */
  retryBaseMs?: number;
  retryMaxMs?: number;
}

/**
 * Contract: every timed thing is a job of a kind with a handler. The runner polls the store on `tick` (a timer in
 * production, called directly by tests with an injected clock), runs due jobs with a lease, and records the
 * outcome; `stop` lets the runs in progress finish. Jobs live in the database, so they survive a stop or a crash.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;

  constructor(
    private readonly deps: { db: Db; clock: Clock; log: Logger },
    opts: RunnerOptions = {},
  ) {
    this.leaseMs = opts.leaseMs ?? 5 * 60_000;
    this.concurrency = opts.concurrency ?? 4;
    this.retryBaseMs = opts.retryBaseMs ?? 30_000;
    this.retryMaxMs = opts.retryMaxMs ?? 60 * 60_000;
  }

  /** Handles jobs of `kind` with `handler`. */
  handle(kind: string, handler: JobHandler): this {
    this.handlers.set(kind, handler);
    return this;
  }

  /** Adds a job now or later (see EnqueueOptions). */
  async enqueue(kind: string, payload: unknown, opts: EnqueueOptions = {}): Promise<JobRow> {
    return await enqueue(this.deps.db, kind, payload, this.deps.clock.now(), opts);
  }

  /** Makes sure one recurring job of `kind` exists, first due after `everyMs`. */
  async every(kind: string, everyMs: number, payload: unknown = {}): Promise<JobRow> {
    return await this.enqueue(kind, payload, { key: `every:${kind}`, everyMs, runAt: this.deps.clock.now() + everyMs });
  }

  /** Removes the recurring job of `kind` (its feature was switched off). */
  async never(kind: string) {
    await cancel(this.deps.db, `every:${kind}`);
  }

  /** Claims what is due and runs it; resolves when those runs end. */
  async tick(): Promise<void> {
    if (this.stopped) return;
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const claimed = await claimDue(this.deps.db, [...this.handlers.keys()], this.deps.clock.now(), this.leaseMs, free);
    await Promise.all(claimed.map((job) => this.track(this.run(job))));
  }

  /** Ticks every `intervalMs` until stopped. */
  start(intervalMs = 1000) {
    this.stopped = false;
    this.timer ??= setInterval(() => void this.tick(), intervalMs);
  }

  /** Stops taking jobs and waits for the runs in progress. */
  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all([...this.inFlight]);
  }

  private async run(job: JobRow) {
    const handler = this.handlers.get(job.kind)!;
    try {
      await handler(JSON.parse(job.payload), job);
      await complete(this.deps.db, job, this.deps.clock.now());
    } catch (error) {
      const retryIn = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** Math.max(0, job.attempts - 1));
      const message = error instanceof Error ? error.message : String(error);
      await fail(this.deps.db, job, this.deps.clock.now(), message, retryIn);
      this.deps.log.warn("job failed", {
        jobId: job.id,
        kind: job.kind,
        attempt: job.attempts,
        of: job.maxAttempts,
        error: message,
      });
    }
  }

  private track(run: Promise<void>): Promise<void> {
    this.inFlight.add(run);
    return run.finally(() => this.inFlight.delete(run));
  }
}
