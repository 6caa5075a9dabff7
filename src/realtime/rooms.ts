import type { TicketStatus } from "../shared/contracts/tickets";
import { isAdmin } from "../shared/permissions";

/**
 * Rooms are the access model of the realtime hub: a socket subscribes only to rooms its user may see.
 * - `all`: entity events everyone receives (contacts, queues, tags…).
 * - `admins`, `user:<id>`.
 * - `status:<s>` and `notification`: every ticket (admins only).
 * - `queue:<q>:status:<s>` and `queue:<q>:notification`: tickets of queue q (`none` = no queue) for its agents.
 * - `ticket:<id>`: one open chat.
 */
export type { TicketStatus };
export type QueueKey = number | "none";

export type Room =
  | "all"
  | "admins"
  | "notification"
  | `user:${number}`
  | `ticket:${number}`
  | `status:${TicketStatus}`
  | `queue:${QueueKey}:status:${TicketStatus}`
  | `queue:${QueueKey}:notification`;

const queueKey = (queueId: number | null | undefined): QueueKey => queueId ?? "none";

/**
 * Rooms that list a ticket with this status (the tickets manager tabs), plus its assignee's own room: an agent
 * sees tickets assigned to them even in a queue they are not in, so they must hear about them too.
 */
export function statusRooms(ticket: { status: string; queueId: number | null; userId?: number | null }): Room[] {
  const s = ticket.status as TicketStatus;
  const rooms: Room[] = [`status:${s}`, `queue:${queueKey(ticket.queueId)}:status:${s}`];
  if (ticket.userId != null) rooms.push(`user:${ticket.userId}`);
  return rooms;
}

/** Rooms that get notified about a ticket (the bell, desktop notifications). */
export function notificationRooms(ticket: { queueId: number | null }): Room[] {
  return ["notification", `queue:${queueKey(ticket.queueId)}:notification`];
}

/** Every room that may show a ticket: its chat, its status lists and the notification rooms. */
export function ticketRooms(ticket: {
  id: number;
  status: string;
  queueId: number | null;
  userId?: number | null;
}): Room[] {
  return [`ticket:${ticket.id}`, ...statusRooms(ticket), ...notificationRooms(ticket)];
}

/** The queue keys whose rooms an agent may join: their queues, plus tickets without a queue. */
export function agentQueueKeys(queueIds: readonly number[]): QueueKey[] {
  return [...queueIds, "none"];
}

/** The rooms a user joins to follow the ticket lists of a status, or the notifications: admins the global ones, agents one per queue they may see. */
export function listRooms(
  user: { profile: string; queueIds: readonly number[] },
  kind: TicketStatus | "notification",
): Room[] {
  if (isAdmin(user.profile)) return kind === "notification" ? ["notification"] : [`status:${kind}`];
  return agentQueueKeys(user.queueIds).map(
    (q): Room => (kind === "notification" ? `queue:${q}:notification` : `queue:${q}:status:${kind}`),
  );
}
