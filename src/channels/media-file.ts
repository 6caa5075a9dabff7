import { createWriteStream, openSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { PRIVATE_FILE } from "../private-files";

const PART = ".part";

/** Removes partial downloads a crash left behind. */
export function removePartialDownloads(mediaDir: string) {
  for (const name of readdirSync(mediaDir)) if (name.endsWith(PART)) rmSync(join(mediaDir, name), { force: true });
}

class TooLarge extends Error {
  constructor(readonly bytes: number) {
    super("media over the size limit");
  }
}

/**
 * Streams a download into a new file of the media directory (named `<uuid>.<ext>`, written under `.part` until
 * complete) through the size limit: past `maxBytes` the file is removed and only the size read is reported.
 */
export async function writeCapped(
  stream: Readable,
  dir: string,
  ext: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ fileName: string } | { oversized: number }> {
  // Node's streams are loaded with the first download: an idle server never needs them.
  const [{ Transform }, { pipeline }] = await Promise.all([import("node:stream"), import("node:stream/promises")]);
  const fileName = `${crypto.randomUUID()}.${ext}`;
  const path = join(dir, fileName);
  let bytes = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(bytes > maxBytes ? new TooLarge(bytes) : null, chunk);
    },
  });
  // Opened here, not by the stream: a file the stream opened on its own could appear after a failure removed it.
  const out = createWriteStream("", { fd: openSync(path + PART, "wx", PRIVATE_FILE) });
  try {
    await pipeline(stream, cap, out, { signal });
    renameSync(path + PART, path);
    return { fileName };
  } catch (error) {
    out.destroy();
    rmSync(path + PART, { force: true });
    if (error instanceof TooLarge) return { oversized: error.bytes };
    throw error;
  }
}
