import { BufferJSON } from "baileys";

/**
 * Baileys values (WAMessages, updates, calls…) as JSON and back. `JSON.stringify` alone runs the `toJSON` of proto
 * objects, which turns bytes into base64 strings and Longs into strings and keeps only proto fields, so the key's
 * `remoteJidAlt`/`participantAlt` would be lost. Here every object is read field by field instead: bytes are kept
 * as BufferJSON, Longs become numbers (in these payloads they are times and sizes), Dates epoch milliseconds.
 * What comes back is plain objects (not proto instances), which Baileys' functions and our mapper accept.
 */
export function toEventJson(value: unknown): string {
  return JSON.stringify(plain(value), BufferJSON.replacer);
}

/**
 * A copy of a Baileys value as `toEventJson` reads it (plain objects, Longs as numbers, Dates as milliseconds),
 * without writing JSON and parsing it back; its bytes are the original's, not copies.
 */
export function eventCopy<T>(value: unknown): T {
  return plain(value) as T;
}

/** Reads what `toEventJson` wrote (bytes come back as Buffers). */
export function fromEventJson<T>(text: string): T {
  return JSON.parse(text, BufferJSON.reviver) as T;
}

function isLong(value: object): value is { toNumber(): number } {
  return "low" in value && "high" in value && typeof (value as { toNumber?: unknown }).toNumber === "function";
}

function plain(value: unknown): unknown {
  if (typeof value === "function") return undefined;
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Uint8Array) return value;
  if (value instanceof Date) return value.getTime();
  if (isLong(value)) return value.toNumber();
  if (Array.isArray(value)) return value.map(plain);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const field = plain((value as Record<string, unknown>)[key]);
    if (field !== undefined) out[key] = field;
  }
  return out;
}
