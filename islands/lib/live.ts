import { useEffect, useRef } from "react";
import type { EventName } from "../../src/shared/contracts/socket";
import { on, type Payload } from "./socket";

/** Runs `fn` on each of the given socket events while mounted. */
export function useLive<E extends EventName>(events: E[], fn: (payload: Payload<E>, event: E) => void) {
  const ref = useRef(fn);
  ref.current = fn;
  // Keyed by the names, not the array: callers pass a fresh literal on every render.
  const names = events.join();
  useEffect(() => {
    const offs = (names.split(",") as E[]).map((event) => on(event, (payload) => ref.current(payload, event)));
    return () => offs.forEach((off) => off());
  }, [names]);
}

/** Inserts or replaces a row by id, keeping the list order (new rows at the end). */
export function upsert<T extends { id: number }>(rows: T[], row: T): T[] {
  return rows.some((r) => r.id === row.id) ? rows.map((r) => (r.id === row.id ? row : r)) : [...rows, row];
}
