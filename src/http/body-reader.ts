import { AppError } from "../errors";

/** Deepest JSON any route needs (a chatbot tree of ten levels nests about 22 deep); deeper bodies are refused. */
export const MAX_JSON_DEPTH = 32;

const tooLarge = () => new AppError("ERR_PAYLOAD_TOO_LARGE", 413);
const invalidBody = () => new AppError("ERR_INVALID_BODY", 400);

/**
 * Reads a request body, refusing it with 413 as soon as it passes `limit` bytes: from Content-Length when the
 * client declares one, else while streaming, so a body without a length can't grow past the limit either.
 */
export async function readCapped(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get("content-length")) > limit) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new Uint8Array(Bun.concatArrayBuffers(chunks));
}

/**
 * Turns a body read by `readCapped` into what routes validate: JSON (nested at most MAX_JSON_DEPTH deep), form
 * fields, text, or the raw bytes. An empty body is `null`.
 */
export async function parseBody(
  bytes: Uint8Array<ArrayBuffer>,
  mediaType: string,
  contentTypeHeader: string,
): Promise<unknown> {
  if (bytes.length === 0) return null;
  switch (mediaType) {
    case "application/json":
      return parseJson(new TextDecoder().decode(bytes));
    case "application/x-www-form-urlencoded":
      return Object.fromEntries(new URLSearchParams(new TextDecoder().decode(bytes)));
    case "multipart/form-data":
      return formFields(
        await new Response(bytes, { headers: { "content-type": contentTypeHeader } })
          .formData()
          .catch(() => Promise.reject(invalidBody())),
      );
    default:
      return mediaType.startsWith("text/") ? new TextDecoder().decode(bytes) : bytes.buffer;
  }
}

/** JSON.parse that refuses (400) both malformed text and values nested deeper than MAX_JSON_DEPTH. */
export function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidBody();
  }
  if (nestedDeeperThan(value, MAX_JSON_DEPTH)) throw invalidBody();
  return value;
}

/** Walks without recursion, so a deep value can't exhaust the stack while it is being measured. */
function nestedDeeperThan(root: unknown, max: number): boolean {
  if (root === null || typeof root !== "object") return false;
  const pending: [unknown, number][] = [[root, 1]];
  while (pending.length) {
    const [value, depth] = pending.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value as object)) {
      if (child !== null && typeof child === "object") pending.push([child, depth + 1]);
    }
  }
  return false;
}

function formFields(form: FormData): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.create(null);
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key);
    fields[key] = values.length === 1 ? values[0] : values;
  }
  return fields;
}
