import { atomically, type Db, first, lockKey, one, type Writer } from "../db/client";
import { preparedLook } from "../db/prepared";
import { and, desc, eq, gt, inArray, isNull, lt, lte, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { type JobRow, jobs, storedInstant } from "../db/tables";
import { claimed, isDue } from "./due";
import { freeLane, holdLane, type LaneMark, openLanes } from "./lanes";

export interface EnqueueOptions {
  /** Epoch ms; defaults to now. */
  runAt?: number;
  /** One job per key: enqueueing an existing key changes nothing and returns the existing job (unless `replace`). */
  key?: string;
  /** With `key`: the job of that key, whatever its state, is set to run (again) with these options instead. */
  replace?: boolean;
  maxAttempts?: number;
  /** Runs again this long after each run ends (a recurring job is never done). */
  everyMs?: number;
  /** Runs in this lane: one job of a lane at a time, oldest first, throttled by its kind's lane rule (runner.ts). */
  lane?: string;
}

function jobValues(kind: string, payload: unknown, now: number, opts: EnqueueOptions) {
  return {
    kind,
    key: opts.key ?? null,
    payload: JSON.stringify(payload ?? {}),
    runAt: opts.runAt ?? now,
    everyMs: opts.everyMs ?? null,
    maxAttempts: opts.maxAttempts ?? 5,
    lane: opts.lane ?? null,
  };
}

/** Adds a job (or returns the one already holding `key`, or sets that one to run again with `replace`). */
export async function enqueue(
  db: Db,
  kind: string,
  payload: unknown,
  now: number,
  opts: EnqueueOptions = {},
): Promise<JobRow> {
  const values = jobValues(kind, payload, now, opts);
  return await atomically(db, async (tx) => {
    if (opts.lane) await openLanes(tx, [opts.lane]);
    if (opts.key && opts.replace)
      // A run in progress ends without recording its outcome: its lease no longer matches (see complete).
      return await one(
        tx
          .insert(jobs)
          .values(values)
          .onConflictDoUpdate({
            target: jobs.key,
            set: {
              ...values,
              status: "pending",
              attempts: 0,
              leaseUntil: null,
              lastError: null,
              countedAt: null,
              updatedAt: new Date(now),
            },
          })
          .returning(),
      );
    if (opts.key) {
      // Nodes starting together each enqueue the same recurring jobs: one inserts, the others find it.
      await lockKey(tx, `job:${opts.key}`);
      const existing = await first(tx.select().from(jobs).where(eq(jobs.key, opts.key)));
      if (existing) return existing;
    }
    return await one(tx.insert(jobs).values(values).returning());
  });
}

/** One job of `enqueueMany`. */
export interface NewJob {
  payload: unknown;
  key?: string;
  lane?: string;
}

/** How many jobs one insert statement carries (each takes 7 parameters; both engines cap a statement's). */
const INSERT_CHUNK = 500;

/**
 * Adds many jobs of `kind`, due now, in the caller's transaction (their keys must be new): the work a write of
 * the caller's asks for is queued with it, or not at all.
 */
export async function enqueueMany(tx: Writer, kind: string, items: NewJob[], now: number) {
  await openLanes(tx, [...new Set(items.flatMap((item) => (item.lane ? [item.lane] : [])))]);
  for (let i = 0; i < items.length; i += INSERT_CHUNK)
    await tx
      .insert(jobs)
      .values(items.slice(i, i + INSERT_CHUNK).map((item) => jobValues(kind, item.payload, now, item)));
}

/** A due job as the runner's look sees it. */
export interface DueJob {
  id: number;
  kind: string;
}

/**
 * A job that is due, if any: the runner's look every second while idle, a query prepared once (building one
 * through drizzle every second cost an idle server CPU, and the JIT compiling drizzle's builder about 3 MiB).
 * Every job `claimDue` or a lane's head could take is due, so without one there is nothing to claim.
 */
export async function firstDueJob(db: Db, now: number): Promise<DueJob | undefined> {
  return (await dueJobLook(db)({ now }))[0] as DueJob | undefined;
}

const dueJobLook = preparedLook((db) =>
  db
    .select({ id: jobs.id, kind: jobs.kind })
    .from(jobs)
    .where(isDue(sql.placeholder("now")))
    .limit(1)
    .prepare(),
);

/**
 * A due recurring job's turn passes as a run with nothing to do would end (pending again after its interval),
 * without a claim: through a query prepared once, so an idle server's maintenance passes reach no drizzle code
 * (see `preparedLook`). False when the job is not such a job any more (taken, a lane's, one-off): it is claimed
 * and run as usual then.
 */
export async function passTurn(db: Db, id: number, now: number): Promise<boolean> {
  return (await turnPass(db)({ id, now, at: storedInstant(now) })).length > 0;
}

/** Builds `passTurn`'s query now, at start (under the reluctant JIT policy, jit-policy.ts), not at an idle pass. */
export const preparePassTurn = (db: Db) => void turnPass(db);

const turnPass = preparedLook((db) =>
  db
    .update(jobs)
    .set({
      runAt: sql`${sql.placeholder("now")} + ${jobs.everyMs}`,
      attempts: 0,
      lastError: null,
      updatedAt: sql`${sql.placeholder("at")}`,
    })
    .where(
      and(
        eq(jobs.id, sql.placeholder("id")),
        eq(jobs.status, "pending"),
        lte(jobs.runAt, sql.placeholder("now")),
        gt(jobs.everyMs, 0),
        isNull(jobs.lane),
      ),
    )
    .returning({ id: jobs.id })
    .prepare(),
);

/**
 * Leases up to `limit` due jobs of the given kinds that have no lane (lanes.ts claims those) to this runner
 * until `now + leaseMs`. The update checks again that each row is due as it takes it, so two runners never take
 * the same job (on PostgreSQL, the second waits for the first's row lock and then finds the job not due).
 */
export async function claimDue(
  db: Db,
  kinds: string[],
  now: number,
  leaseMs: number,
  limit: number,
): Promise<JobRow[]> {
  if (!kinds.length || limit <= 0) return [];
  const due = (
    await db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.kind, kinds), isNull(jobs.lane), isDue(now)))
      .orderBy(jobs.runAt, jobs.id)
      .limit(limit)
  ).map((r) => r.id);
  if (!due.length) return [];
  return await db
    .update(jobs)
    .set(claimed(now, leaseMs))
    .where(and(inArray(jobs.id, due), isDue(now)))
    .returning();
}

/** Only the lease holder's outcome counts: a job taken again, or replaced, since is not this run's any more. */
const heldBy = (job: JobRow) =>
  and(eq(jobs.id, job.id), eq(jobs.status, "running"), eq(jobs.leaseUntil, job.leaseUntil!));

/** Records a run's outcome on its job and, for a job of a lane, frees the lane (in one transaction). */
async function settleRun(
  db: Db,
  job: JobRow,
  set: SQLiteUpdateSetSource<typeof jobs>,
  lane: (tx: Writer) => Promise<void> = (tx) => freeLane(tx, job),
) {
  const update = (tx: Writer) => tx.update(jobs).set(set).where(heldBy(job));
  if (!job.lane) return void (await update(db));
  await atomically(db, async (tx) => {
    await update(tx);
    await lane(tx);
  });
}

/**
 * A run ended well: done, or (recurring) pending again after its interval. `counted`: the run counts against its
 * lane's daily limit.
 */
export async function complete(db: Db, job: JobRow, now: number, counted = false) {
  const next =
    job.everyMs != null
      ? { status: "pending" as const, runAt: now + job.everyMs, attempts: 0 }
      : { status: "done" as const };
  await settleRun(db, job, {
    ...next,
    leaseUntil: null,
    lastError: null,
    ...(counted ? { countedAt: now } : {}),
    updatedAt: new Date(now),
  });
}

/** A run failed: tried again after `retryInMs`, or failed for good after its last attempt (a recurring job waits for its next turn). */
export async function fail(db: Db, job: JobRow, now: number, error: string, retryInMs: number) {
  const exhausted = job.attempts >= job.maxAttempts;
  const next = !exhausted
    ? { status: "pending" as const, runAt: now + retryInMs }
    : job.everyMs != null
      ? { status: "pending" as const, runAt: now + job.everyMs, attempts: 0 }
      : { status: "failed" as const };
  await settleRun(db, job, { ...next, leaseUntil: null, lastError: error.slice(0, 2000), updatedAt: new Date(now) });
}

/**
 * A run asked to wait `waitMs` (what it needs is not there yet): the job is pending again without using up an
 * attempt. A job of a lane keeps its place and holds its lane, which takes back its mark from before this run;
 * any other job is due again after the wait.
 */
export async function postpone(db: Db, job: JobRow, now: number, waitMs: number, before?: LaneMark) {
  await settleRun(
    db,
    job,
    {
      status: "pending",
      runAt: job.lane ? job.runAt : now + waitMs,
      attempts: sql`${jobs.attempts} - 1`,
      leaseUntil: null,
      updatedAt: new Date(now),
    },
    (tx) => holdLane(tx, job, now + waitMs, before),
  );
}

/** Counts by status, for monitoring. */
export async function countJobs(db: Db): Promise<{ status: string; count: number }[]> {
  return await db.select({ status: jobs.status, count: sql<number>`count(*)` }).from(jobs).groupBy(jobs.status);
}

/** Removes the job holding `key` (a recurring job that was switched off, or work that is not wanted any more). */
export async function cancel(db: Writer, key: string) {
  await db.delete(jobs).where(eq(jobs.key, key));
}

/** Removes the jobs holding `keys` that have not started; one running now ends as it goes. */
export async function cancelPending(db: Writer, keys: string[]) {
  for (let i = 0; i < keys.length; i += INSERT_CHUNK)
    await db.delete(jobs).where(and(inArray(jobs.key, keys.slice(i, i + INSERT_CHUNK)), eq(jobs.status, "pending")));
}

/** Removes one-off jobs that ended before `before` (a lane's daily limit counts the last day's). */
export async function pruneEnded(db: Db, before: number) {
  await db
    .delete(jobs)
    .where(and(inArray(jobs.status, ["done", "failed"]), isNull(jobs.everyMs), lt(jobs.updatedAt, new Date(before))));
}

/** Those of `keys` whose job is still to run, or running. */
export async function activeKeys(db: Pick<Db, "select">, keys: string[]): Promise<Set<string>> {
  const active = new Set<string>();
  for (let i = 0; i < keys.length; i += INSERT_CHUNK)
    for (const { key } of await db
      .select({ key: jobs.key })
      .from(jobs)
      .where(and(inArray(jobs.key, keys.slice(i, i + INSERT_CHUNK)), inArray(jobs.status, ["pending", "running"]))))
      if (key) active.add(key);
  return active;
}

/** The jobs of one kind, newest first, through jobs_kind_idx: the table also holds every delivery of the last week. */
export const jobsOfKind = (db: Db, kind: string) =>
  db.select().from(jobs).where(eq(jobs.kind, kind)).orderBy(desc(jobs.id));
