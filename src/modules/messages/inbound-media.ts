import { atomically, first } from "../../db/client";
import { and, eq } from "drizzle-orm";
import type { MediaOutcome, OversizedMedia } from "../../channels/types";
import { messages, type MessageRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { removeMediaFiles } from "../media/files";
import { replaceShown } from "../tickets/records";
import { shownOf } from "./preview";
import { emitMessageUpdate } from "./store";

/** The text of a message whose media was over the size limit: what it said, then the file's name and size. */
export function withOversizedNote(body: string, oversized: OversizedMedia): string {
  const note = `${oversized.fileName} (${(oversized.bytes / (1024 * 1024)).toFixed(1)} MB)`;
  return body && body !== oversized.fileName ? `${body}\n${note}` : note;
}

/** True while the message is stored with its media `downloading`. */
export async function isMediaPending(deps: Pick<AppDeps, "db">, connectionId: number, wid: string): Promise<boolean> {
  return !!(await first(
    deps.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.whatsappId, connectionId), eq(messages.wid, wid), eq(messages.mediaState, "downloading"))),
  ));
}

/**
 * Settles the media of a message stored as `downloading`: it gets its file, or becomes `unavailable` (media over
 * the size limit also gets its name and size in the text), and its chat is told. Only a message still waiting is
 * changed; a file that nothing waits for any more is removed.
 */
export async function settleMedia(
  deps: Pick<AppDeps, "db" | "events" | "log" | "config">,
  connectionId: number,
  wid: string,
  outcome: MediaOutcome,
): Promise<MessageRow | undefined> {
  const row = await atomically(deps.db, async (tx) => {
    const waiting = await first(
      tx
        .select()
        .from(messages)
        .where(
          and(eq(messages.whatsappId, connectionId), eq(messages.wid, wid), eq(messages.mediaState, "downloading")),
        ),
    );
    if (!waiting) return undefined;
    let changes: Partial<MessageRow>;
    if ("media" in outcome) {
      changes = {
        mediaUrl: outcome.media.fileName,
        mediaMime: outcome.media.mimetype,
        fileName: outcome.media.originalName,
        mediaState: null,
      };
    } else if ("oversized" in outcome) {
      changes = { body: withOversizedNote(waiting.body, outcome.oversized), mediaState: "unavailable" };
      await replaceShown(tx, waiting.ticketId, waiting.id, shownOf({ ...waiting, ...changes }));
    } else {
      changes = { mediaState: "unavailable" };
    }
    // Still downloading when written: of two reports of one download, the second finds it settled.
    return await first(
      tx
        .update(messages)
        .set(changes)
        .where(and(eq(messages.id, waiting.id), eq(messages.mediaState, "downloading")))
        .returning(),
    );
  });
  if ("media" in outcome && !row) removeMediaFiles(deps, [outcome.media.fileName]);
  if ("oversized" in outcome)
    deps.log.warn("inbound media over MAX_MEDIA_MB not stored", {
      whatsappId: connectionId,
      messageId: wid,
      bytes: outcome.oversized.bytes,
      limitMb: deps.config.maxMediaMb,
    });
  if (row) await emitMessageUpdate(deps, row);
  return row;
}
