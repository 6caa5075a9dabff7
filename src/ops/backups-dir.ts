import { join } from "node:path";
import type { Config } from "../config";
import { makePrivateDir } from "../private-files";

/** DATA_DIR/backups: scheduled and pre-migration backups (created private on first use). */
export function backupsDir(config: Pick<Config, "dataDir">): string {
  const dir = join(config.dataDir, "backups");
  makePrivateDir(dir);
  return dir;
}
