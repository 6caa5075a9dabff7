/**
 * An event (or what wraps it) as text for another node, and back. Payloads carry rows and DTOs with dates (and the odd byte array),
 * which plain JSON would turn into strings and lists of numbers: they travel tagged and come back as they left,
 * so a listener on another node reads the same values as one on the emitting node. The tags are put in and taken
 * out by a walk over the value around plain `JSON.stringify` and `JSON.parse`: a replacer or reviver function,
 * called for every key, made both several times slower.
 */
export function encodeTagged(value: unknown): string {
  return JSON.stringify(tagged(value));
}

export function decodeTagged<T>(text: string): T {
  return untagged(JSON.parse(text)) as T;
}

/** A copy of `value` as JSON.stringify would see it, with dates and byte arrays tagged. */
function tagged(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return { $date: Number.isNaN(value.getTime()) ? null : value.getTime() };
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString("base64") };
  if (Array.isArray(value)) return value.map(tagged);
  const json = (value as { toJSON?: unknown }).toJSON;
  if (typeof json === "function") return tagged(json.call(value));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(copy, key, tagged((value as Record<string, unknown>)[key]));
  return copy;
}

/** `value` (parsed JSON) with its tagged dates and byte arrays back, changed in place. */
function untagged(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = untagged(value[i]);
    return value;
  }
  const record = value as Record<string, unknown>;
  if (("$date" in record || "$bytes" in record) && Object.keys(record).length === 1) {
    if ("$date" in record) return new Date((record.$date as number | null) ?? Number.NaN);
    return Buffer.from(record.$bytes as string, "base64");
  }
  for (const key in record) {
    const inner = record[key];
    if (inner === null || typeof inner !== "object") continue;
    const back = untagged(inner);
    if (back !== inner) setOwn(record, key, back);
  }
  return record;
}

/** `record[key] = value`, also for a key named `__proto__` (a plain assignment would set the prototype). */
function setOwn(record: Record<string, unknown>, key: string, value: unknown) {
  if (key === "__proto__")
    Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}
