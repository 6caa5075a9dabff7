import { useEffect, useRef } from "react";
import { openTicket } from "../lib/ticket-nav";

/** The ticket `step` places from `current` in `ids` (the first one when none is open), or null past either end. */
export function neighbourTicket(ids: readonly number[], current: number | null, step: 1 | -1): number | null {
  if (ids.length === 0) return null;
  const at = current == null ? -1 : ids.indexOf(current);
  if (at < 0) return ids[0]!;
  return ids[at + step] ?? null;
}

/** Alt+↑ / Alt+↓ anywhere on the page open the previous / next ticket of the list shown. */
export function useAltArrows(ids: readonly number[], current: number | null) {
  const latest = useRef({ ids, current });
  latest.current = { ids, current };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || e.defaultPrevented) return;
      if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
      const next = neighbourTicket(latest.current.ids, latest.current.current, e.key === "ArrowDown" ? 1 : -1);
      e.preventDefault();
      if (next != null) openTicket(next);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}
