import type { ReadableStream } from "node:stream/web";
import type { Logger } from "../../log";
import { DownloadCancelled } from "../download-pool";
import { writeCapped } from "../media-file";
import type { MediaOutcome } from "../types";
import type { CloudCredentials, GraphClient } from "./graph";
import type { CloudMediaRef } from "./payload";

const ATTEMPTS = 3;
/** How long one attempt (describing the file, then downloading it) may take. */
const ATTEMPT_MS = 60_000;

export interface CloudMediaOptions {
  graph: GraphClient;
  mediaDir: string;
  maxBytes: number;
  log: Logger;
  whatsappId: number;
}

/**
 * Reads where an inbound file is from `/{media-id}`, then streams it to disk with the token through the size limit;
 * after a few failed attempts the media is unavailable. Only `signal` (the connection stopping) makes it throw.
 */
export async function downloadCloudMedia(
  credentials: CloudCredentials,
  ref: CloudMediaRef,
  messageId: string,
  signal: AbortSignal,
  opts: CloudMediaOptions,
): Promise<MediaOutcome> {
  const originalName = fileNameOf(messageId, ref);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const limit = AbortSignal.any([signal, AbortSignal.timeout(ATTEMPT_MS)]);
    try {
      const description = await opts.graph.describeMedia(credentials, ref.id);
      const mimetype = description.mime_type || mimeOf(ref);
      if ((description.file_size ?? 0) > opts.maxBytes)
        return { oversized: { fileName: originalName, bytes: description.file_size! } };
      const response = await opts.graph.download(credentials, description.url, limit);
      if (!response.body) throw new Error("media download without a body");
      const { Readable } = await import("node:stream");
      const stream = Readable.fromWeb(response.body as unknown as ReadableStream);
      const written = await writeCapped(stream, opts.mediaDir, extensionOf(mimetype), opts.maxBytes, limit);
      if ("oversized" in written) return { oversized: { fileName: originalName, bytes: written.oversized } };
      return { media: { fileName: written.fileName, originalName, mimetype } };
    } catch (error) {
      if (signal.aborted) throw new DownloadCancelled();
      opts.log.warn("cloud media download failed", {
        whatsappId: opts.whatsappId,
        messageId,
        attempt,
        timedOut: limit.aborted,
        error,
      });
    }
  }
  return { unavailable: true };
}

/** The media type an inbound file announces (parameters such as `codecs` kept out). */
export function mimeOf(ref: CloudMediaRef): string {
  return (ref.mime_type ?? "application/octet-stream").split(";")[0]!.trim();
}

/** The name shown for an inbound file: the sender's, or one made of the message id. */
export function fileNameOf(messageId: string, ref: CloudMediaRef): string {
  return ref.filename || `${messageId.replace(/[^\w-]/g, "").slice(-24)}.${extensionOf(mimeOf(ref))}`;
}

function extensionOf(mimetype: string): string {
  const sub = mimetype.split(";")[0]!.split("/")[1] ?? "bin";
  const known: Record<string, string> = { jpeg: "jpg", mpeg: "mp3", plain: "txt", "x-vcard": "vcf" };
  return known[sub] ?? (/^[a-z0-9]{1,8}$/.test(sub) ? sub : "bin");
}

/** The Cloud API message type a file goes out as; what it does not take as media goes as a document. */
export function cloudMediaType(mimetype: string): "image" | "video" | "audio" | "sticker" | "document" {
  const type = mimetype.split(";")[0]!.trim();
  if (type === "image/jpeg" || type === "image/png") return "image";
  if (type === "image/webp") return "sticker";
  if (type === "video/mp4" || type === "video/3gpp") return "video";
  if (["audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg"].includes(type)) return "audio";
  return "document";
}
