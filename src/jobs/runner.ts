import type { Db } from "../db/client";
import type { JobRow } from "../db/tables";
import type { Clock } from "../shared/clock";
import type { Logger } from "../log";
import {
  countedSince,
  type DueLane,
  dropLane,
  dueLanes,
  type LaneMark,
  releaseLanes,
  takeLane,
  wakeLane,
} from "./lanes";
import {
  cancel,
  claimDue,
  complete,
  enqueue,
  type EnqueueOptions,
  fail,
  firstDueJob,
  passTurn,
  postpone,
  preparePassTurn,
  pruneEnded,
} from "./store";

/**
 * What a run reports: nothing (done), `counted` (done, and it counts against its lane's daily limit), or
 * `waitMs` (what it needs is not there yet: run it again after that long, without using up an attempt; a job of
 * a lane holds its lane meanwhile).
 */
export type JobOutcome = undefined | { counted: true } | { waitMs: number };

/** Runs one job; throwing means "try again later". A job of a lane also gets the lane's rule as read for this run. */
export type JobHandler<R extends LaneRule = LaneRule> = (
  // biome-ignore lint/suspicious/noExplicitAny: the payload is stored JSON; each job kind's handler declares its own shape
  payload: any,
  job: JobRow,
  rule?: R,
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler with nothing to report returns nothing
) => Promise<JobOutcome | void>;

/** How a lane is throttled, as it is now. */
export interface LaneRule {
  /** The least time between the starts of two runs of the lane. */
  intervalMs: number;
  /** Each run adds a random extra wait before the next, uniform up to `intervalMs`. */
  jitter?: boolean;
  /** At most this many counted runs per trailing 24 h (0 pauses the lane); no limit when absent. */
  perDay?: number;
}

/**
 * Whether a recurring job of the kind has anything to do now, asked before its turn is claimed: without, the
 * turn passes through prepared queries only (an idle server's maintenance passes run no drizzle code, which the
 * JIT would compile then: several MiB). Build its queries when the kind is registered, not at the first call.
 */
export type HasWork = () => Promise<boolean>;

export interface LaneOptions<R extends LaneRule> {
  /** The lane's rule, read each time its next job is due (so a change applies to the wait in progress). */
  rule(lane: string): Promise<R>;
  /** Whether this runner takes the lane's jobs now (e.g. this node runs the lane's connection); always if absent. */
  here?(lane: string): Promise<boolean>;
}

export interface RunnerOptions {
  /** How long a claimed job is this runner's before another may take it (a crash frees it after this). */
  leaseMs?: number;
  /** Jobs run at once. */
  concurrency?: number;
  /** Delay before attempt n+1: base · 2^(n-1), capped. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** The lanes' random extra waits (0 ≤ r < 1); Math.random by default. */
  random?: () => number;
}

/** The trailing window of a lane's `perDay` limit. */
export const LANE_WINDOW_MS = 24 * 3600_000;
/** Ended one-off jobs are kept this long (see `prune`). */
const KEEP_ENDED_MS = 7 * LANE_WINDOW_MS;
const PRUNE_JOB = "jobs.prune";

/**
 * Contract: every timed thing is a job of a kind with a handler. The runner polls the store on `tick` (a timer in
 * production, called directly by tests with an injected clock), runs due jobs with a lease, and records the
 * outcome; `stop` lets the runs in progress finish. Jobs live in the database, so they survive a stop or a crash.
 * A job may name a lane: the runner runs one job of a lane at a time, oldest first, throttled by its kind's
 * `LaneRule` (interval, random extra wait, daily limit); the lanes' state is in the database too, so runners on
 * several nodes keep to it between them.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly lanes = new Map<string, LaneOptions<LaneRule>>();
  private readonly workChecks = new Map<string, HasWork>();
  private readonly workListeners = new Set<() => void>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly random: () => number;

  constructor(
    private readonly deps: { db: Db; clock: Clock; log: Logger },
    opts: RunnerOptions = {},
  ) {
    this.leaseMs = opts.leaseMs ?? 5 * 60_000;
    this.concurrency = opts.concurrency ?? 4;
    this.retryBaseMs = opts.retryBaseMs ?? 30_000;
    this.retryMaxMs = opts.retryMaxMs ?? 60 * 60_000;
    this.random = opts.random ?? Math.random;
    this.handle(PRUNE_JOB, async () => await pruneEnded(deps.db, deps.clock.now() - KEEP_ENDED_MS));
  }

  /**
   * Handles jobs of `kind` with `handler`; those that name a lane keep to `lanes`. A recurring job's turn is
   * run only when `hasWork` (if given) says so; otherwise it passes as a run with nothing to do.
   */
  handle<R extends LaneRule>(
    kind: string,
    handler: JobHandler<R>,
    opts: { lanes?: LaneOptions<R>; hasWork?: HasWork } = {},
  ): this {
    this.handlers.set(kind, handler as JobHandler);
    if (opts.lanes) this.lanes.set(kind, opts.lanes);
    if (opts.hasWork) this.workChecks.set(kind, opts.hasWork);
    return this;
  }

  /** Calls `listener` whenever a tick finds a job to run (not the turns that pass without work). */
  onWork(listener: () => void) {
    this.workListeners.add(listener);
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

  /** Drops ended one-off jobs after a week, once a day (server.ts). */
  async prune() {
    await this.every(PRUNE_JOB, LANE_WINDOW_MS);
  }

  /** A lane that waits (a run asked it to) may go on at once. */
  async wake(lane: string) {
    await wakeLane(this.deps.db, lane);
  }

  /** The lane's subject is gone: its jobs not started yet go with it. */
  async drop(lane: string) {
    await dropLane(this.deps.db, lane);
  }

  /**
   * Runs of `lane` (of every lane, without one) left running by a stop or a crash may start again now. Only for
   * lanes no live runner can be running: at start with no other node, or for a lane only this node runs.
   */
  async release(lane?: string) {
    await releaseLanes(this.deps.db, lane);
  }

  /** Claims what is due and runs it; resolves when those runs end. */
  async tick(): Promise<void> {
    if (this.stopped) return;
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const now = this.deps.clock.now();
    if (!(await this.workDue(now))) return;
    for (const listener of this.workListeners) listener();
    const plain = await claimDue(this.deps.db, [...this.handlers.keys()], now, this.leaseMs, free);
    const laned = await this.claimLanes(now, free - plain.length);
    await Promise.all([
      ...plain.map((job) => this.track(this.run(job))),
      ...laned.map(({ job, rule, before }) => this.track(this.run(job, rule, before))),
    ]);
  }

  /**
   * Ticks now and every `intervalMs` until stopped. The first look, which builds the runner's prepared query,
   * runs while the server is still starting (under the reluctant JIT policy, jit-policy.ts), not in an idle second; so
   * is the query that passes an idle turn built.
   */
  start(intervalMs = 1000) {
    this.stopped = false;
    if (this.timer) return;
    preparePassTurn(this.deps.db);
    this.timer = setInterval(() => void this.tick(), intervalMs);
    void this.tick();
  }

  /** Stops taking jobs and waits for the runs in progress. */
  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all([...this.inFlight]);
  }

  /**
   * Whether a due job needs a run. The due turns of recurring jobs whose kind has nothing to do pass here
   * (each pass takes its job out of the due ones, so the looks end).
   */
  private async workDue(now: number): Promise<boolean> {
    for (;;) {
      const job = await firstDueJob(this.deps.db, now);
      if (!job) return false;
      const hasWork = this.workChecks.get(job.kind);
      if (!hasWork || (await hasWork().catch(() => true))) return true;
      if (!(await passTurn(this.deps.db, job.id, now))) return true;
    }
  }

  /** Takes up to `limit` lanes whose next job is due, whose rule lets them run now, and that run here. */
  private async claimLanes(now: number, limit: number) {
    const taken: { job: JobRow; rule: LaneRule; before: LaneMark }[] = [];
    if (limit <= 0 || !this.lanes.size) return taken;
    for (const due of await dueLanes(this.deps.db, [...this.lanes.keys()], now)) {
      if (taken.length >= limit) break;
      const lanes = this.lanes.get(due.kind)!;
      if (lanes.here && !(await lanes.here(due.lane))) continue;
      const rule = await lanes.rule(due.lane);
      if (!(await this.mayRun(due, rule, now))) continue;
      const jitterMs = Math.floor(this.random() * Math.max(0, rule.intervalMs));
      const job = await takeLane(this.deps.db, due, now, this.leaseMs, jitterMs);
      if (job) taken.push({ job, rule, before: { lastAt: due.lastAt, jitterMs: due.jitterMs } });
    }
    return taken;
  }

  /**
   * The lane's wait since its last run is over: the interval as the rule says now, plus (with `jitter`) the
   * extra drawn at that run, capped by the interval; and its counted runs of the last 24 h are under its limit.
   */
  private async mayRun(due: DueLane, rule: LaneRule, now: number): Promise<boolean> {
    const interval = Math.max(0, rule.intervalMs);
    if (due.lastAt != null && now < due.lastAt + interval + (rule.jitter ? Math.min(due.jitterMs, interval) : 0))
      return false;
    if (rule.perDay === undefined) return true;
    return rule.perDay > 0 && (await countedSince(this.deps.db, due.lane, now - LANE_WINDOW_MS)) < rule.perDay;
  }

  private async run(job: JobRow, rule?: LaneRule, before?: LaneMark) {
    const handler = this.handlers.get(job.kind)!;
    try {
      const outcome = await handler(JSON.parse(job.payload), job, rule);
      if (outcome && "waitMs" in outcome)
        await postpone(this.deps.db, job, this.deps.clock.now(), outcome.waitMs, before);
      else await complete(this.deps.db, job, this.deps.clock.now(), !!outcome?.counted);
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
