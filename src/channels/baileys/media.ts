import type { Readable } from "node:stream";
import { downloadMediaMessage, extensionForMediaMessage, getContentType, type WAMessage } from "baileys";
import type { Logger } from "../../log";
import { writeCapped } from "../media-file";
import type { MediaOutcome } from "../types";
import { innerMessage } from "./content";

const ATTEMPTS = 3;

/** What a media message announces about its file. */
export interface MediaInfo {
  originalName: string;
  mimetype: string;
  /** The size the sender declared (0 when unknown); the download itself is still capped. */
  declaredBytes: number;
  ext: string;
}

export function mediaInfo(m: WAMessage): MediaInfo {
  const inner = innerMessage(m);
  const type = inner ? getContentType(inner) : undefined;
  const media = (type ? inner?.[type] : undefined) as
    | { mimetype?: string | null; fileName?: string | null; fileLength?: unknown }
    | undefined;
  let ext = "bin";
  try {
    ext = extensionForMediaMessage(inner!) || "bin";
  } catch {}
  return {
    originalName: media?.fileName || `${m.key.id}.${ext}`,
    mimetype: media?.mimetype || "application/octet-stream",
    declaredBytes: byteCount(media?.fileLength),
    ext,
  };
}

export interface MediaDownloadOptions {
  mediaDir: string;
  maxBytes: number;
  /** Time limit of each attempt, and of each request to the phone to upload expired media again. */
  timeoutMs: number;
  /** Asks the phone to upload expired media again (Baileys' updateMediaMessage); absent without a socket. */
  reupload?: (m: WAMessage) => Promise<WAMessage>;
  log: Logger;
  whatsappId: number;
}

/**
 * Downloads a message's media into the media directory, streamed to disk through the size limit (never whole in
 * memory): a file that passes `maxBytes` is cut off and reported oversized. An expired link (404/410) asks the phone
 * to upload the file again, since Baileys rc14 never does it itself. After a few failed attempts the media is
 * unavailable. Only `signal` (the connection stopping) makes it throw.
 */
export async function downloadMedia(
  m: WAMessage,
  signal: AbortSignal,
  opts: MediaDownloadOptions,
): Promise<MediaOutcome> {
  const info = mediaInfo(m);
  let current = m;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const limit = AbortSignal.any([signal, AbortSignal.timeout(opts.timeoutMs)]);
    try {
      // Baileys' fetch takes no signal: a server that never answers is left behind, its late stream closed.
      const stream = (await untilAborted(downloadMediaMessage(current, "stream", {}), limit, (late) =>
        late.destroy(),
      )) as Readable;
      const written = await writeCapped(stream, opts.mediaDir, info.ext, opts.maxBytes, limit);
      if ("oversized" in written) return { oversized: { fileName: info.originalName, bytes: written.oversized } };
      return { media: { fileName: written.fileName, originalName: info.originalName, mimetype: info.mimetype } };
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      const status = (error as { output?: { statusCode?: number } }).output?.statusCode;
      opts.log.warn("baileys media download failed", {
        whatsappId: opts.whatsappId,
        messageId: m.key.id,
        attempt,
        status,
        timedOut: limit.aborted,
      });
      if ((status === 404 || status === 410) && opts.reupload) {
        const asked = AbortSignal.any([signal, AbortSignal.timeout(opts.timeoutMs)]);
        current = await untilAborted(opts.reupload(current), asked).catch(() => current);
        if (signal.aborted) throw signal.reason;
      }
    }
  }
  return { unavailable: true };
}

/** `work`, or a rejection as soon as `signal` aborts; a result that comes too late goes to `dispose`. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, dispose?: (late: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(signal.reason);
      work.then(
        (late) => dispose?.(late),
        () => {},
      );
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** A protobuf length (a number, or a Long for 64-bit fields) as a number; 0 when unknown. */
function byteCount(value: unknown): number {
  if (typeof value === "number") return value;
  if (value && typeof (value as { toNumber?: unknown }).toNumber === "function")
    return (value as { toNumber(): number }).toNumber();
  return Number(value) || 0;
}
