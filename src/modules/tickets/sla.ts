import type { TicketRow } from "../../db/tables";
import type { TicketSla } from "../../shared/contracts/tickets";
import { episodeStart } from "./response-clock";

/** A queue's SLA targets in minutes, 0 = off. */
export interface SlaTargets {
  firstResponseMinutes: number;
  resolutionMinutes: number;
}

type SlaState = Pick<
  TicketRow,
  | "status"
  | "createdAt"
  | "episodeStartedAt"
  | "waitingSince"
  | "firstResponseAt"
  | "firstResponseBreached"
  | "resolutionBreached"
>;

const MINUTE_MS = 60_000;

/** The ticket's SLA due times under its queue's targets (none without a queue), and whether one was passed. */
export function slaOf(ticket: SlaState, targets: SlaTargets | undefined): TicketSla {
  const active = ticket.status !== "closed";
  const firstResponse = targets?.firstResponseMinutes ?? 0;
  const resolution = targets?.resolutionMinutes ?? 0;
  const clockRunning = active && ticket.firstResponseAt == null && ticket.waitingSince != null;
  return {
    firstResponseDueAt:
      clockRunning && firstResponse > 0 ? new Date(ticket.waitingSince!.getTime() + firstResponse * MINUTE_MS) : null,
    resolutionDueAt:
      active && resolution > 0 ? new Date(episodeStart(ticket).getTime() + resolution * MINUTE_MS) : null,
    breached: ticket.firstResponseBreached || ticket.resolutionBreached,
    breachedTargets: [
      ...(ticket.firstResponseBreached ? (["first_response"] as const) : []),
      ...(ticket.resolutionBreached ? (["resolution"] as const) : []),
    ],
  };
}

/** The minutes of a target as the due-time arithmetic of the sweep needs them. */
export const minutesMs = (minutes: number) => minutes * MINUTE_MS;
