import type { AppDeps } from "../../deps";
import { statusRooms, ticketRooms } from "../../realtime/rooms";
import type { TicketDto } from "./serialize";

type Before = { status: string; userId: number | null; queueId: number | null };

/**
 * Publishes a ticket change: when its status, user or queue changed, a `delete` to the lists it was in (so
 * they drop it), then the `update` to every room that may show it now.
 */
export function emitTicketUpdate(deps: Pick<AppDeps, "hub">, ticket: TicketDto, before?: Before) {
  if (
    before &&
    (before.status !== ticket.status || before.userId !== ticket.userId || before.queueId !== ticket.queueId)
  ) {
    deps.hub.publish(statusRooms(before), "ticket", { action: "delete", ticketId: ticket.id });
  }
  deps.hub.publish(ticketRooms(ticket), "ticket", { action: "update", ticket });
}

/** Publishes a ticket's removal to every room that showed it. */
export function emitTicketDelete(
  deps: Pick<AppDeps, "hub">,
  ticket: { id: number; status: string; queueId: number | null },
) {
  deps.hub.publish(ticketRooms(ticket), "ticket", { action: "delete", ticketId: ticket.id });
}
