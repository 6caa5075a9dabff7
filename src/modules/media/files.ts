import { rmSync } from "node:fs";
import { basename, join } from "node:path";
import type { AppDeps } from "../../deps";

/**
 * Removes files from the media directory. Only plain names inside it are touched; a file already gone is
 * fine, and a failure is logged rather than thrown, since the rows that pointed at the files are gone.
 */
export function removeMediaFiles(deps: Pick<AppDeps, "config" | "log">, names: string[]) {
  for (const name of names) {
    if (!name || basename(name) !== name) continue;
    try {
      rmSync(join(deps.config.mediaDir, name), { force: true });
    } catch (error) {
      deps.log.warn("media file not removed", { file: name, error });
    }
  }
}
