import { basename, extname, join } from "node:path";
import type { StoredMedia } from "../../channels/types";
import type { AppDeps } from "../../deps";
import { AppError, forbidden, notFound } from "../../errors";
import { makePrivateDir, writePrivateFile } from "../../private-files";
import { findMessage } from "../messages/records";
import { canSeeTicket } from "../tickets/access";
import { findTicket } from "../tickets/records";
import type { AuthUser } from "../../shared/auth-user";
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

/** An upload that passed the checks and is not written yet. */
export interface CheckedUpload {
  file: Blob;
  mimetype: string;
  originalName: string;
  ext: string;
}

/**
 * Checks an upload without writing anything: the type comes from the file's magic bytes and decides the size
 * limit, which never exceeds MAX_MEDIA_MB (413 ERR_MEDIA_TOO_LARGE beyond it).
 */
export async function checkUpload(
  deps: Pick<AppDeps, "config">,
  file: Blob & { name?: string },
): Promise<CheckedUpload> {
  const tooLarge = () => new AppError("ERR_MEDIA_TOO_LARGE", 413);
  const cap = deps.config.maxMediaMb * 1024 * 1024;
  if (file.size > cap) throw tooLarge();
  const mimetype = sniffMime(new Uint8Array(await file.slice(0, 4096).arrayBuffer()));
  if (file.size > Math.min(cap, sizeLimitOf(mimetype))) throw tooLarge();
  const ext =
    EXTENSIONS[mimetype] ??
    (extname(file.name ?? "")
      .toLowerCase()
      .match(/^\.[a-z0-9]{1,8}$/)?.[0] ||
      ".bin");
  return { file, mimetype, originalName: displayName(file.name, mimetype), ext };
}

/** Writes a checked upload under the media directory with a random name. */
export async function storeUpload(deps: Pick<AppDeps, "config">, upload: CheckedUpload): Promise<StoredMedia> {
  makePrivateDir(deps.config.mediaDir);
  const fileName = `${crypto.randomUUID()}${upload.ext}`;
  await writePrivateFile(join(deps.config.mediaDir, fileName), new Uint8Array(await upload.file.arrayBuffer()));
  return { fileName, originalName: upload.originalName, mimetype: upload.mimetype };
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
export async function mediaForUser(
  deps: Pick<AppDeps, "db" | "config">,
  user: AuthUser,
  messageId: number,
): Promise<ServedMedia> {
  const row = await findMessage(deps.db, messageId);
  const ticket = row && (await findTicket(deps.db, row.ticketId));
  if (!row || !ticket) throw notFound("ERR_NO_MESSAGE_FOUND");
  if (!canSeeTicket(user, ticket)) throw forbidden();
  return mediaOfMessage(deps, messageId);
}

/** The file of a message, for a caller already allowed to open it (404 when there is none). */
export async function mediaOfMessage(deps: Pick<AppDeps, "db" | "config">, messageId: number): Promise<ServedMedia> {
  const row = await findMessage(deps.db, messageId);
  if (!row?.mediaUrl || basename(row.mediaUrl) !== row.mediaUrl) throw notFound("ERR_NO_MESSAGE_FOUND");
  const path = join(deps.config.mediaDir, row.mediaUrl);
  const file = Bun.file(path);
  if (!(await file.exists())) throw notFound("ERR_NO_MESSAGE_FOUND");
  const mimetype = sniffMime(new Uint8Array(await file.slice(0, 4096).arrayBuffer()));
  return { path, mimetype, fileName: row.fileName || row.mediaUrl, inline: isInlineMedia(mimetype) };
}
