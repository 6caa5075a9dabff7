/**
 * A value as it arrives after `JSON.stringify`: dates become ISO strings, everything else keeps its shape. The
 * DTOs below are what the server builds; islands read `Wire<Dto>`.
 */
export type Wire<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/** The value exactly as an island receives it, so the server render and the hydrating client see the same props. */
export function toWire<T>(value: T): Wire<T> {
  return JSON.parse(JSON.stringify(value));
}
