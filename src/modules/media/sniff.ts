/**
 * Decides a file's content type from its first bytes, never from the client's name or header. Unknown
 * content is `application/octet-stream`, so nothing uploaded can be served as HTML or SVG.
 */
export function sniffMime(head: Uint8Array): string {
  const at = (offset: number, ...bytes: number[]) => bytes.every((b, i) => head[offset + i] === b);
  const ascii = (offset: number, text: string) => at(offset, ...[...text].map((c) => c.charCodeAt(0)));
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return "image/gif";
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
  if (ascii(0, "RIFF") && ascii(8, "WAVE")) return "audio/wav";
  if (ascii(0, "%PDF-")) return "application/pdf";
  if (ascii(0, "OggS")) return "audio/ogg";
  if (ascii(0, "ID3") || (head[0] === 0xff && head[1] !== undefined && (head[1] & 0xe0) === 0xe0)) return "audio/mpeg";
  if (ascii(4, "ftyp")) {
    const brand = String.fromCharCode(...head.subarray(8, 12));
    return brand.startsWith("M4A") ? "audio/mp4" : "video/mp4";
  }
  if (at(0, 0x1a, 0x45, 0xdf, 0xa3)) return webmKind(head);
  if (at(0, 0x50, 0x4b, 0x03, 0x04)) return zipKind(head);
  return "application/octet-stream";
}

/**
 * A WebM (Matroska) file is audio when its track header names only audio codecs ("A_OPUS", "A_VORBIS"), as
 * a browser's MediaRecorder voice recording does; with any video codec ("V_VP8", ...) it stays video.
 */
function webmKind(head: Uint8Array): string {
  const text = new TextDecoder("latin1").decode(head);
  return /A_(OPUS|VORBIS)/.test(text) && !/V_(VP8|VP9|AV1|MPEG4|MPEG4\/ISO)/.test(text) ? "audio/webm" : "video/webm";
}

/** Office documents are zip files whose first entry names their kind; other zips stay plain zip. */
function zipKind(head: Uint8Array): string {
  const text = new TextDecoder("latin1").decode(head.subarray(0, Math.min(head.length, 2048)));
  if (text.includes("word/")) return "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
  if (text.includes("xl/")) return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
  if (text.includes("ppt/")) return "application/vnd.openxmlformats-officedocument.presentationml.presentation";
  if (text.includes("mimetypeapplication/vnd.oasis.opendocument.text"))
    return "application/vnd.oasis.opendocument.text";
  if (text.includes("[Content_Types].xml")) return "application/vnd.openxmlformats-officedocument";
  return "application/zip";
}

/** The media kind a content type is sent and shown as. */
export function mediaKindOf(mime: string): "image" | "audio" | "video" | "document" {
  const major = mime.split("/")[0];
  return major === "image" || major === "audio" || major === "video" ? major : "document";
}

const MB = 1024 * 1024;

/** Upload size limits: images 5 MB, audio and video 16 MB, documents 100 MB. */
export function sizeLimitOf(mime: string): number {
  const kind = mediaKindOf(mime);
  return kind === "image" ? 5 * MB : kind === "document" ? 100 * MB : 16 * MB;
}

/** Types a browser may show inline; everything else is served as an attachment. */
export function isInlineMedia(mime: string): boolean {
  return mediaKindOf(mime) !== "document" || mime === "application/pdf";
}
