import { atomically, type Db, first, lockKey, one } from "../db/client";
import { and, eq, inArray, lte, or, sql } from "drizzle-orm";
import { type JobRow, jobs } from "../db/tables";

export interface EnqueueOptions {
  /** Epoch ms; defaults to now. */
  runAt?: number;
  /** One job per key: enqueueing an existing key changes nothing and returns the existing job. */
  key?: string;
  maxAttempts?: number;
  /** Runs again this long after each run ends (a recurring job is never done). */
  everyMs?: number;
}

/** Adds a job (or returns the one already holding `key`). */
export async function enqueue(
  db: Db,
  kind: string,
  payload: unknown,
  now: number,
  opts: EnqueueOptions = {},
): Promise<JobRow> {
  return await atomically(db, async (tx) => {
    if (opts.key) {
      // Nodes starting together each enqueue the same recurring jobs: one inserts, the others find it.
      await lockKey(tx, `job:${opts.key}`);
      const existing = await first(tx.select().from(jobs).where(eq(jobs.key, opts.key)));
      if (existing) return existing;
    }
    return await one(
      tx
        .insert(jobs)
        .values({
          kind,
          key: opts.key ?? null,
          payload: JSON.stringify(payload ?? {}),
          runAt: opts.runAt ?? now,
          everyMs: opts.everyMs ?? null,
          maxAttempts: opts.maxAttempts ?? 5,
        })
        .returning(),
    );
  });
}

/**
 * Leases up to `limit` due jobs of the given kinds to this runner until `now + leaseMs`: pending ones whose time
 * has come, and running ones whose lease ran out (their runner died). In one transaction, so two runners never
 * take the same job.
 */
export async function claimDue(
  db: Db,
  kinds: string[],
  now: number,
  leaseMs: number,
  limit: number,
): Promise<JobRow[]> {
  if (!kinds.length) return [];
  const isDue = or(
    and(eq(jobs.status, "pending"), lte(jobs.runAt, now)),
    and(eq(jobs.status, "running"), lte(jobs.leaseUntil, now)),
  );
  return await atomically(db, async (tx) => {
    const due = (
      await tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(inArray(jobs.kind, kinds), isDue))
        .orderBy(jobs.runAt, jobs.id)
        .limit(limit)
    ).map((r) => r.id);
    if (!due.length) return [];
    return await tx
      .update(jobs)
      .set({
        status: "running",
        leaseUntil: now + leaseMs,
        attempts: sql`${jobs.attempts} + 1`,
        updatedAt: new Date(now),
      })
      // Checked again as each row is taken: a node that claimed it meanwhile has made it not due any more.
      .where(and(inArray(jobs.id, due), isDue))
      .returning();
  });
}

/** A run ended well: done, or (recurring) pending again after its interval. Only the lease holder's run counts. */
export async function complete(db: Db, job: JobRow, now: number) {
  const next =
    job.everyMs != null
      ? { status: "pending" as const, runAt: now + job.everyMs, attempts: 0 }
      : { status: "done" as const };
  await db
    .update(jobs)
    .set({ ...next, leaseUntil: null, lastError: null, updatedAt: new Date(now) })
    .where(and(eq(jobs.id, job.id), eq(jobs.status, "running"), eq(jobs.leaseUntil, job.leaseUntil!)));
}

/** A run failed: tried again after `retryInMs`, or failed for good after its last attempt (a recurring job waits for its next turn). */
export async function fail(db: Db, job: JobRow, now: number, error: string, retryInMs: number) {
  const exhausted = job.attempts >= job.maxAttempts;
  const next = !exhausted
    ? { status: "pending" as const, runAt: now + retryInMs }
    : job.everyMs != null
      ? { status: "pending" as const, runAt: now + job.everyMs, attempts: 0 }
      : { status: "failed" as const };
  await db
    .update(jobs)
    .set({ ...next, leaseUntil: null, lastError: error.slice(0, 2000), updatedAt: new Date(now) })
    .where(and(eq(jobs.id, job.id), eq(jobs.status, "running"), eq(jobs.leaseUntil, job.leaseUntil!)));
}

/** Counts by status, for monitoring. */
export async function countJobs(db: Db): Promise<{ status: string; count: number }[]> {
  return await db.select({ status: jobs.status, count: sql<number>`count(*)` }).from(jobs).groupBy(jobs.status);
}

/** Removes the job holding `key` (a recurring job that was switched off). */
export async function cancel(db: Db, key: string) {
  await db.delete(jobs).where(eq(jobs.key, key));
}

/** The payloads of the jobs of `kind` that are still to run or running, oldest first. */
export async function activePayloads(db: Pick<Db, "select">, kind: string): Promise<unknown[]> {
  return (
    await db
      .select({ payload: jobs.payload })
      .from(jobs)
      .where(and(eq(jobs.kind, kind), inArray(jobs.status, ["pending", "running"])))
      .orderBy(jobs.id)
  ).map((r) => JSON.parse(r.payload) as unknown);
}
