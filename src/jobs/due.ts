import { and, eq, lte, or, type SQLWrapper, sql } from "drizzle-orm";
import { jobs } from "../db/tables";

/** Due: pending and its time has come, or running on a lease that ran out (its runner died). */
export const isDue = (now: number | SQLWrapper) =>
  or(and(eq(jobs.status, "pending"), lte(jobs.runAt, now)), and(eq(jobs.status, "running"), lte(jobs.leaseUntil, now)));

/** What a claim sets on a job: this runner's until `now + leaseMs`, one more attempt. */
export const claimed = (now: number, leaseMs: number) => ({
  status: "running" as const,
  leaseUntil: now + leaseMs,
  attempts: sql`${jobs.attempts} + 1`,
  updatedAt: new Date(now),
});
