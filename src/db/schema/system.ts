import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt, int64 } from "./columns";

export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type SettingRow = typeof settings.$inferSelect;

/**
 * Timed work (auto-close, backups, schedules, bulk recipients, webhooks): a job runs at `runAt`, is leased by one
 * runner at a time (`leaseUntil`), retried with backoff up to `maxAttempts`; a recurring one (`everyMs`) goes back
 * to pending after each run. `key` keeps one job per purpose. Jobs of one `lane` run one at a time, oldest first,
 * throttled (see job_lanes); `countedAt` marks a run its handler counted, for the lane's daily limit.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind").notNull(),
    key: text("key").unique(),
    payload: text("payload").notNull().default("{}"),
    status: text("status", { enum: ["pending", "running", "done", "failed"] })
      .notNull()
      .default("pending"),
    runAt: int64("run_at").notNull(),
    everyMs: int64("every_ms"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    leaseUntil: int64("lease_until"),
    lastError: text("last_error"),
    lane: text("lane"),
    countedAt: int64("counted_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("jobs_due_idx").on(t.status, t.runAt),
    index("jobs_lane_idx").on(t.lane, t.status, t.id),
    index("jobs_lane_counted_idx").on(t.lane, t.countedAt),
    index("jobs_kind_idx").on(t.kind, t.id),
  ],
);

export type JobRow = typeof jobs.$inferSelect;

/**
 * A lane of jobs (epoch ms): the lease of the run in progress (`busyUntil`, none when free), when its last run
 * started with the random extra wait drawn then (`jitterMs`), and until when a run asked it to wait (`heldUntil`).
 */
export const jobLanes = sqliteTable("job_lanes", {
  lane: text("lane").primaryKey(),
  busyUntil: int64("busy_until"),
  lastAt: int64("last_at"),
  jitterMs: int64("jitter_ms").notNull().default(0),
  heldUntil: int64("held_until"),
});

export type JobLaneRow = typeof jobLanes.$inferSelect;

/**
 * What an import from another installation already brought in: the source's table and row id, and the row it
 * became here. A second run of the same import finds its rows here and adds nothing twice.
 */
export const importedRows = sqliteTable(
  "imported_rows",
  {
    source: text("source").notNull(),
    sourceId: text("source_id").notNull(),
    targetId: integer("target_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.source, t.sourceId] })],
);

/**
 * Events too large for one PostgreSQL notification: the node that emits one writes its body here and notifies
 * only the row's id; the other nodes read it. Rows are deleted a few minutes later. Only the PostgreSQL event bus
 * uses it; it exists in SQLite so both schemas stay the same.
 */
export const eventPayloads = sqliteTable(
  "event_payloads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("event_payloads_created_idx").on(t.createdAt)],
);

/**
 * Secrets every node of a cluster signs and checks tokens with, made by the first node that starts (unless
 * JWT_SECRET and JWT_REFRESH_SECRET are given), so a token issued by one node is good on all of them.
 */
export const clusterSecrets = sqliteTable("cluster_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});

/**
 * The Zapdesk versions that ran on this database, each with the newest migration it knows (`schema`), recorded on
 * its first start. A build that finds a migration newer than its own refuses to start and names the version here
 * that made it.
 */
export const appVersions = sqliteTable("app_versions", {
  version: text("version").primaryKey(),
  schema: text("schema").notNull(),
  createdAt: createdAt(),
});
