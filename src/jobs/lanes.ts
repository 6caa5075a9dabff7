import { atomically, type Db, first, type Writer } from "../db/client";
import { and, count, eq, gte, inArray, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import { type JobRow, jobLanes, jobs } from "../db/tables";
import { claimed, isDue } from "./due";

/** A lane's mark of its last run: when it started (epoch ms) and the random extra wait drawn then. */
export interface LaneMark {
  lastAt: number | null;
  jitterMs: number;
}

/** A lane free to run its next job, with that job. */
export interface DueLane extends LaneMark {
  lane: string;
  jobId: number;
  kind: string;
}

/** Makes sure the lanes have their row (called with the jobs that use them). */
export async function openLanes(tx: Writer, lanes: string[]) {
  if (lanes.length)
    await tx
      .insert(jobLanes)
      .values(lanes.map((lane) => ({ lane })))
      .onConflictDoNothing();
}

/** No run of the lane in progress (or its lease ran out), and no run asked it to wait until later. */
const isFree = (now: number) =>
  and(
    or(isNull(jobLanes.busyUntil), lte(jobLanes.busyUntil, now)),
    or(isNull(jobLanes.heldUntil), lte(jobLanes.heldUntil, now)),
  );

/** The lane's next job of `kinds`: one whose run was cut off (its lease ran out) first, else its oldest due job. */
function headOf(kinds: string[], now: number): SQL {
  const oldest = (state: SQL | undefined) =>
    sql`(select ${jobs.id} from ${jobs} where ${jobs.lane} = ${jobLanes.lane} and ${inArray(jobs.kind, kinds)} and ${state} order by ${jobs.id} limit 1)`;
  return sql`coalesce(${oldest(and(eq(jobs.status, "running"), lte(jobs.leaseUntil, now)))}, ${oldest(
    and(eq(jobs.status, "pending"), lte(jobs.runAt, now)),
  )})`;
}

/** The free lanes that have a job of `kinds` due, each with that job. */
export async function dueLanes(db: Db, kinds: string[], now: number): Promise<DueLane[]> {
  if (!kinds.length) return [];
  return await db
    .select({
      lane: jobLanes.lane,
      lastAt: jobLanes.lastAt,
      jitterMs: jobLanes.jitterMs,
      jobId: jobs.id,
      kind: jobs.kind,
    })
    .from(jobLanes)
    .innerJoin(jobs, eq(jobs.id, headOf(kinds, now)))
    .where(isFree(now));
}

/** How many runs of the lane its handler counted since `since` (epoch ms). */
export async function countedSince(db: Db, lane: string, since: number): Promise<number> {
  return (
    (
      await first(
        db
          .select({ n: count() })
          .from(jobs)
          .where(and(eq(jobs.lane, lane), gte(jobs.countedAt, since))),
      )
    )?.n ?? 0
  );
}

class LaneTakenMeanwhile extends Error {}

/**
 * Takes the lane for its next job and leases that job, in one transaction: the lane's row is only taken if it is
 * still free with the mark that was read (on PostgreSQL a runner that took it meanwhile holds the row, and the
 * update then finds it changed), so two runners never run one lane at once nor both run after one wait.
 */
export async function takeLane(
  db: Db,
  due: DueLane,
  now: number,
  leaseMs: number,
  jitterMs: number,
): Promise<JobRow | undefined> {
  try {
    return await atomically(db, async (tx) => {
      const taken = await first(
        tx
          .update(jobLanes)
          .set({ busyUntil: now + leaseMs, lastAt: now, jitterMs })
          .where(
            and(eq(jobLanes.lane, due.lane), isFree(now), sql`coalesce(${jobLanes.lastAt}, -1) = ${due.lastAt ?? -1}`),
          )
          .returning({ lane: jobLanes.lane }),
      );
      if (!taken) return undefined;
      const job = await first(
        tx
          .update(jobs)
          .set(claimed(now, leaseMs))
          .where(and(eq(jobs.id, due.jobId), eq(jobs.lane, due.lane), isDue(now)))
          .returning(),
      );
      // The job was cancelled meanwhile: the lane keeps the mark it had.
      if (!job) throw new LaneTakenMeanwhile();
      return job;
    });
  } catch (error) {
    if (error instanceof LaneTakenMeanwhile) return undefined;
    throw error;
  }
}

const heldByRun = (job: JobRow) => and(eq(jobLanes.lane, job.lane!), eq(jobLanes.busyUntil, job.leaseUntil!));

/** The run of `job` ended: its lane is free (unless its lease ran out and another run holds the lane now). */
export async function freeLane(tx: Writer, job: JobRow) {
  await tx.update(jobLanes).set({ busyUntil: null }).where(heldByRun(job));
}

/** The run of `job` asked to wait: its lane is free from `until` on, with the mark it had before that run. */
export async function holdLane(tx: Writer, job: JobRow, until: number, before?: LaneMark) {
  await tx
    .update(jobLanes)
    .set({ busyUntil: null, heldUntil: until, ...(before ?? {}) })
    .where(heldByRun(job));
}

/** A lane that waits may go on at once (what it waited for is there). */
export async function wakeLane(db: Db, lane: string) {
  await db
    .update(jobLanes)
    .set({ heldUntil: null })
    .where(and(eq(jobLanes.lane, lane), isNotNull(jobLanes.heldUntil)));
}

/**
 * Runs in progress in `lane` (in every lane without one) were cut off by a stop or a crash: their jobs are due
 * again and their lanes free. Only for what no live runner can be running.
 */
export async function releaseLanes(db: Db, lane?: string) {
  await atomically(db, async (tx) => {
    await tx
      .update(jobs)
      .set({ status: "pending", leaseUntil: null })
      .where(and(eq(jobs.status, "running"), lane === undefined ? isNotNull(jobs.lane) : eq(jobs.lane, lane)));
    await tx
      .update(jobLanes)
      .set({ busyUntil: null })
      .where(and(isNotNull(jobLanes.busyUntil), lane === undefined ? undefined : eq(jobLanes.lane, lane)));
  });
}

/** The lane's subject is gone: its jobs not started yet are dropped with it (a run in progress ends as it goes). */
export async function dropLane(db: Db, lane: string) {
  await atomically(db, async (tx) => {
    await tx.delete(jobs).where(and(eq(jobs.lane, lane), eq(jobs.status, "pending")));
    await tx.delete(jobLanes).where(eq(jobLanes.lane, lane));
  });
}
