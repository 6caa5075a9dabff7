import type { Config } from "../config";
import type { Db } from "../db/client";
import type { JobRunner } from "../jobs/runner";
import { jobsOfKind } from "../jobs/store";
import type { Logger } from "../log";
import type { OffsiteStatusDto } from "../shared/contracts/backups";
import { OffsiteStore } from "./offsite-store";

const UPLOAD = "backup.upload";
/** With the runner's backoff (30 s, doubling up to an hour) the tries of one backup span about 9 hours. */
const UPLOAD_ATTEMPTS = 16;
/** The names of scheduled backups: the ones BACKUP_KEEP counts, here and off-site. */
export const SCHEDULED_BACKUP = /^zapdesk-[0-9TZ-]+\.sqlite$/;

/** Told of each upload attempt's outcome (/metrics counts the failures). */
export interface UploadObserver {
  observeBackupUpload(ok: boolean): void;
}

/**
 * Each scheduled backup is uploaded to BACKUP_S3_URL by a job of its own (one per backup, by key), so an upload
 * that fails is tried again with the runner's backoff, after a restart too; after each upload the folder keeps
 * only the newest BACKUP_KEEP scheduled backups. Nothing is registered without BACKUP_S3_URL.
 */
export function handleUploads(
  jobs: JobRunner,
  config: Pick<Config, "backupKeep" | "backupS3">,
  log: Logger,
  backupFile: (name: string) => string | undefined,
  observer?: UploadObserver,
) {
  const location = config.backupS3;
  if (!location) return;
  const store = new OffsiteStore(location);
  jobs.handle(UPLOAD, async ({ name }: { name: string }) => {
    const path = backupFile(name);
    if (!path) return log.warn("backup deleted before its upload", { file: name });
    try {
      await store.upload(name, path);
      await pruneOffsite(store, config.backupKeep);
    } catch (error) {
      observer?.observeBackupUpload(false);
      throw error;
    }
    observer?.observeBackupUpload(true);
    log.info("backup uploaded", { file: name, to: location.shown });
  });
}

/** Queues the upload of backup `name` when BACKUP_S3_URL is set (once: queueing it again changes nothing). */
export async function queueUpload(jobs: JobRunner, config: Pick<Config, "backupS3">, name: string) {
  if (config.backupS3) await jobs.enqueue(UPLOAD, { name }, { key: `${UPLOAD}:${name}`, maxAttempts: UPLOAD_ATTEMPTS });
}

/** Deletes the off-site scheduled backups beyond the newest `keep` (names sort by time); others stay. */
async function pruneOffsite(store: OffsiteStore, keep: number) {
  const scheduled = (await store.names()).filter((n) => SCHEDULED_BACKUP.test(n)).reverse();
  for (const old of scheduled.slice(Math.max(1, keep))) await store.delete(old);
}

/** How the uploads went, from their jobs (ended ones are kept a week). */
export async function offsiteStatus(
  db: Db,
  config: Pick<Config, "backupS3" | "backupKeep">,
): Promise<OffsiteStatusDto> {
  const keep = config.backupKeep;
  if (!config.backupS3) return { target: null, keep, lastUpload: null, queued: 0, failures: [] };
  const uploads = (await jobsOfKind(db, UPLOAD)).map((job) => ({
    job,
    name: (JSON.parse(job.payload) as { name: string }).name,
  }));
  const last = uploads
    .filter((u) => u.job.status === "done")
    .sort((a, b) => b.name.localeCompare(a.name))
    .at(0);
  return {
    target: config.backupS3.shown,
    keep,
    lastUpload: last ? { name: last.name, at: last.job.updatedAt.toISOString() } : null,
    queued: uploads.filter((u) => u.job.status === "running" || (u.job.status === "pending" && !u.job.lastError))
      .length,
    failures: uploads
      .filter(({ job }) => job.lastError && job.status !== "done" && job.status !== "running")
      .filter(({ name }) => !last || name > last.name)
      .map(({ job, name }) => ({
        name,
        state: job.status === "failed" ? ("failed" as const) : ("retrying" as const),
        attempts: job.attempts,
        error: job.lastError!,
        at: job.updatedAt.toISOString(),
        nextAttemptAt: job.status === "pending" ? new Date(job.runAt).toISOString() : null,
      })),
  };
}
