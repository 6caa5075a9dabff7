import { existsSync, linkSync, rmSync } from "node:fs";
import { basename, extname, join } from "node:path";
import type { AppDeps } from "../../deps";
import { copyPrivateFile } from "../../private-files";

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

/** True when the media directory holds the file `name`. */
export function mediaFileExists(deps: Pick<AppDeps, "config">, name: string): boolean {
  return !!name && basename(name) === name && existsSync(join(deps.config.mediaDir, name));
}

/**
 * A second name for a stored file, for another message to own: a hard link (the same bytes on disk, yet each
 * message's name is removed on its own), or a copy where the file system has no links.
 */
export function shareMediaFile(deps: Pick<AppDeps, "config">, name: string): string {
  const shared = `${crypto.randomUUID()}${extname(name).toLowerCase()}`;
  const from = join(deps.config.mediaDir, name);
  const to = join(deps.config.mediaDir, shared);
  try {
    linkSync(from, to);
  } catch {
    copyPrivateFile(from, to);
  }
  return shared;
}
