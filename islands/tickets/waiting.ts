import type { Ticket } from "../../src/shared/contracts";

/** A wait as the ticket list shows it: `{ key, n }` for "12 min", "3 h", "2 d" (translated under tickets.sla). */
export function waitParts(ms: number): { key: "minutes" | "hours" | "days"; n: number } {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return { key: "minutes", n: minutes };
  if (minutes < 48 * 60) return { key: "hours", n: Math.floor(minutes / 60) };
  return { key: "days", n: Math.floor(minutes / (24 * 60)) };
}

/** Whether the ticket passed an SLA target: recorded by the server, or a due time already behind `now`. */
export function pastTarget(ticket: Pick<Ticket, "sla">, now: number): boolean {
  const { breached, firstResponseDueAt, resolutionDueAt } = ticket.sla ?? {};
  const passed = (due: string | null | undefined) => due != null && Date.parse(due) <= now;
  return !!breached || passed(firstResponseDueAt) || passed(resolutionDueAt);
}
