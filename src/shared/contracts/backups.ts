/** How the off-site copies of backups go (GET /backups/offsite; the Backups card). */
export interface OffsiteStatusDto {
  /** The store and folder (never its keys); null when BACKUP_S3_URL is not set. */
  target: string | null;
  /** BACKUP_KEEP: how many scheduled backups the folder keeps. */
  keep: number;
  /** The newest backup uploaded, and when. */
  lastUpload: { name: string; at: string } | null;
  /** Backups waiting for their first try or uploading now. */
  queued: number;
  /** Backups whose upload failed, newer than the last one uploaded: to be tried again, or given up on. */
  failures: {
    name: string;
    state: "retrying" | "failed";
    attempts: number;
    error: string;
    at: string;
    /** When it is tried again (retrying only). */
    nextAttemptAt: string | null;
  }[];
}
