import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config";
import type { JobRunner } from "../jobs/runner";
import type { Logger } from "../log";
import { snapshot } from "./backup";
import { backupsDir } from "./backups-dir";
import { handleUploads, queueUpload, SCHEDULED_BACKUP, type UploadObserver } from "./backup-uploads";

const ANY_BACKUP = /^(zapdesk|pre-migration)-[0-9TZ-]+\.sqlite$/;

export interface BackupFile {
  name: string;
  size: number;
  createdAt: string;
  kind: "scheduled" | "pre-migration";
}

/** Takes one scheduled backup into DATA_DIR/backups and keeps only the newest `keep` scheduled ones. */
export function takeScheduledBackup(
  config: Pick<Config, "dataDir" | "databasePath">,
  keep: number,
  now: number,
): string {
  const dir = backupsDir(config);
  const name = `zapdesk-${new Date(now).toISOString().replace(/[:.]/g, "-")}.sqlite`;
  // A second backup within the same millisecond is that same backup.
  if (!existsSync(join(dir, name))) snapshot(config.databasePath, join(dir, name));
  const scheduled = readdirSync(dir)
    .filter((n) => SCHEDULED_BACKUP.test(n))
    .sort()
    .reverse();
  for (const old of scheduled.slice(Math.max(1, keep))) rmSync(join(dir, old), { force: true });
  return name;
}

/**
 * A backup taken at once ("Back up now"), named and kept like a scheduled one; null where there is no SQLite file
 * to copy (PostgreSQL, which is backed up with its own tools, or a database in memory).
 */
export function takeBackupNow(
  config: Pick<Config, "dataDir" | "databasePath" | "databaseUrl" | "backupKeep">,
  now: number,
): string | null {
  if (config.databaseUrl || !existsSync(config.databasePath)) return null;
  return takeScheduledBackup(config, config.backupKeep, now);
}

/**
 * Backups every `BACKUP_EVERY_HOURS` as a recurring job (0 switches them off), each then uploaded to
 * BACKUP_S3_URL when it is set (backup-uploads.ts).
 */
export async function scheduleBackups(
  jobs: JobRunner,
  config: Config,
  log: Logger,
  now: () => number,
  observer?: UploadObserver,
) {
  handleUploads(jobs, config, log, (name) => backupPath(config, name), observer);
  jobs.handle("backup", async () => {
    const name = takeScheduledBackup(config, config.backupKeep, now());
    log.info("scheduled backup written", { file: name });
    await queueUpload(jobs, config, name);
  });
  // PostgreSQL is backed up with its own tools (pg_dump); these backups copy the SQLite file.
  if (config.backupEveryHours > 0 && !config.databaseUrl)
    await jobs.every("backup", config.backupEveryHours * 3600_000);
  else await jobs.never("backup");
}

/** The backups in DATA_DIR/backups, newest first. */
export function listBackups(config: Pick<Config, "dataDir">): BackupFile[] {
  const dir = backupsDir(config);
  return readdirSync(dir)
    .filter((n) => ANY_BACKUP.test(n))
    .map((name) => {
      const stat = statSync(join(dir, name));
      return {
        name,
        size: stat.size,
        createdAt: stat.mtime.toISOString(),
        kind: name.startsWith("pre-migration") ? ("pre-migration" as const) : ("scheduled" as const),
      };
    })
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.name.localeCompare(a.name));
}

/** The path of a listed backup, or undefined for any other name (no path tricks: names must match exactly). */
export function backupPath(config: Pick<Config, "dataDir">, name: string): string | undefined {
  if (!ANY_BACKUP.test(name)) return undefined;
  const path = join(backupsDir(config), name);
  try {
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}
