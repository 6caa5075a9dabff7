import { rmSync } from "node:fs";
import { basename, join } from "node:path";
import { and, eq, isNotNull, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { messages, tickets } from "../../db/schema";
import type { AppDeps } from "../../deps";

/** The media file names of every message of the tickets matching `where`. */
export function mediaFilesOfTickets(db: Pick<Db, "select">, where: SQL | undefined): string[] {
  return db
    .select({ mediaUrl: messages.mediaUrl })
    .from(messages)
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .where(and(where, isNotNull(messages.mediaUrl)))
    .all()
    .map((r) => r.mediaUrl!);
}

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
