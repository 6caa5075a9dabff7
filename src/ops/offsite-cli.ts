import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { S3Location } from "../shared/s3-location";
import { SCHEDULED_BACKUP } from "./backup-uploads";
import { OffsiteStore } from "./offsite-store";

/** `zapdesk backup` with BACKUP_S3_URL: the backup goes into the folder under its own name; returns where. */
export async function uploadOffsite(location: S3Location, file: string): Promise<string> {
  const name = basename(file);
  await new OffsiteStore(location).upload(name, file);
  return location.shown + name;
}

/**
 * `zapdesk restore --offsite NAME`: downloads NAME ("latest": the newest scheduled backup) from the folder into a
 * private temporary file, hands it to `restore`, and removes it; errors name the off-site file. Returns the name.
 */
export async function downloadOffsite(
  location: S3Location,
  name: string,
  restore: (file: string) => void,
): Promise<string> {
  const store = new OffsiteStore(location);
  const chosen = name === "latest" ? (await store.names()).filter((n) => SCHEDULED_BACKUP.test(n)).at(-1) : name;
  if (!chosen) throw new Error(`no scheduled backup in ${location.shown}`);
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-restore-"));
  const copy = join(dir, basename(chosen));
  try {
    await store.download(chosen, copy);
    try {
      restore(copy);
    } catch (error) {
      throw new Error((error as Error).message.replaceAll(copy, location.shown + chosen));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return chosen;
}
