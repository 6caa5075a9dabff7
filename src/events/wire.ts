/**
 * An event (or what wraps it) as text for another node, and back. Payloads carry rows and DTOs with dates (and the odd byte array),
 * which plain JSON would turn into strings and lists of numbers: they travel tagged and come back as they left,
 * so a listener on another node reads the same values as one on the emitting node.
 */
export function encodeTagged(value: unknown): string {
  return JSON.stringify(value, tagged);
}

export function decodeTagged<T>(text: string): T {
  return JSON.parse(text, untagged) as T;
}

// `this` is the object holding `key`: its value before toJSON turned a Date into a string or a Buffer into an object.
function tagged(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (raw instanceof Date) return { $date: Number.isNaN(raw.getTime()) ? null : raw.getTime() };
  if (raw instanceof Uint8Array) return { $bytes: Buffer.from(raw).toString("base64") };
  return value;
}

function untagged(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  if (keys.length !== 1) return value;
  if (keys[0] === "$date") {
    const time = (value as { $date: number | null }).$date;
    return new Date(time ?? Number.NaN);
  }
  if (keys[0] === "$bytes") return Buffer.from((value as { $bytes: string }).$bytes, "base64");
  return value;
}
