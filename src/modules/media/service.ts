import { mkdirSync } from "node:fs";
import { basename, extname, join } from "node:path";
import { eq } from "drizzle-orm";
import type { StoredMedia } from "../../channels/types";
import { messages, tickets } from "../../db/schema";
import type { AppDeps } from "../../deps";
import { AppError, forbidden, notFound } from "../../errors";
import { canSeeTicket } from "../tickets/access";
import type { AuthUser } from "../users/service";
import { isInlineMedia, sizeLimitOf, sniffMime } from "./sniff";

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": ".jpg",
  "image/png": ".png",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "audio/wav": ".wav",
  "audio/ogg": ".ogg",
  "audio/mpeg": ".mp3",
  "audio/mp4": ".m4a",
  "audio/webm": ".webm",
  "video/mp4": ".mp4",
  "video/webm": ".webm",
  "application/pdf": ".pdf",
  "application/zip": ".zip",
};

/** A client file name reduced to something safe to show and to offer as a download name. */
function displayName(name: string | undefined, mime: string): string {
  const clean = basename((name ?? "").replace(/\\/g, "/"))
    .replace(/[\u0000-\u001f\u007f"]/g, "")
    .trim()
    .slice(0, 200);
  return clean || `file${EXTENSIONS[mime] ?? ".bin"}`;
}

/**
 * Stores an upload under the media directory with a random name: the type comes from the file's magic
 * bytes and decides the size limit (413 ERR_MEDIA_TOO_LARGE beyond it).
 */
export async function saveUpload(deps: Pick<AppDeps, "config">, file: Blob & { name?: string }): Promise<StoredMedia> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const mimetype = sniffMime(bytes.subarray(0, 4096));
  if (bytes.length > sizeLimitOf(mimetype)) throw new AppError("ERR_MEDIA_TOO_LARGE", 413);
  mkdirSync(deps.config.mediaDir, { recursive: true });
  const ext = EXTENSIONS[mimetype] ?? (extname(file.name ?? "").toLowerCase().match(/^\.[a-z0-9]{1,8}$/)?.[0] || ".bin");
  const fileName = `${crypto.randomUUID()}${ext}`;
  await Bun.write(join(deps.config.mediaDir, fileName), bytes);
  return { fileName, originalName: displayName(file.name, mimetype), mimetype };
}

export interface ServedMedia {
  path: string;
  mimetype: string;
  fileName: string;
  inline: boolean;
}

/**
 * The file of a message for a user who may see its ticket (403 otherwise, 404 when there is none). The
 * stored file is sniffed again, so what is served never depends on a stored or client-given type.
 */
export async function mediaForUser(deps: Pick<AppDeps, "db" | "config">, user: AuthUser, messageId: number): Promise<ServedMedia> {
  const row = deps.db
    .select({ mediaUrl: messages.mediaUrl, fileName: messages.fileName, queueId: tickets.queueId, userId: tickets.userId })
    .from(messages)
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .where(eq(messages.id, messageId))
    .get();
  if (!row) throw notFound("ERR_NO_MESSAGE_FOUND");
  if (!canSeeTicket(user, row)) throw forbidden();
  if (!row.mediaUrl || basename(row.mediaUrl) !== row.mediaUrl) throw notFound("ERR_NO_MESSAGE_FOUND");
  const path = join(deps.config.mediaDir, row.mediaUrl);
  const file = Bun.file(path);
  if (!(await file.exists())) throw notFound("ERR_NO_MESSAGE_FOUND");
  const mimetype = sniffMime(new Uint8Array(await file.slice(0, 4096).arrayBuffer()));
  return { path, mimetype, fileName: row.fileName || row.mediaUrl, inline: isInlineMedia(mimetype) };
}
