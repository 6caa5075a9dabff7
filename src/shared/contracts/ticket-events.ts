import type { TicketStatus } from "./tickets";
import type { Wire } from "./wire";

/**
 * What happened to a ticket. `assigned` (to an agent by a rule), `snoozed`, `woken` and `rated` are recorded by
 * the features that bring them; `bot_stopped`: the chatbot gave up after invalid answers (`value` = how many); the chat shows every kind but `created`, where its ticket separator stands.
 */
export const TICKET_EVENT_KINDS = [
  "created",
  "accepted",
  "assigned",
  "transferred",
  "resolved",
  "reopened",
  "snoozed",
  "woken",
  "rated",
  "first_response",
  "sla_breached",
  "bot_stopped",
] as const;
export type TicketEventKind = (typeof TICKET_EVENT_KINDS)[number];

/**
 * Who or what made the change: a person in the panel (`agent`, with the acting user), the contact writing or
 * calling (`customer`), a message sent from the connection's phone (`phone`), the chatbot, the auto-close job, a
 * schedule, a bulk campaign, the external API, a deleted queue whose tickets moved, an assignment rule
 * (`round_robin`, `least_busy`), or the server otherwise (`system`).
 */
export const TICKET_EVENT_CAUSES = [
  "agent",
  "customer",
  "phone",
  "chatbot",
  "auto_close",
  "schedule",
  "bulk",
  "api",
  "queue_deleted",
  "round_robin",
  "least_busy",
  "sla_first_response",
  "sla_resolution",
  "system",
] as const;
export type TicketEventCause = (typeof TICKET_EVENT_CAUSES)[number];

/** A user, queue or connection an event names; `name` is null once it was deleted. */
export interface NamedRef {
  id: number;
  name: string | null;
}

/** Where the ticket stood on one side of a change (`from` of a `created` event is all null). */
export interface TicketEventSide {
  status: TicketStatus | null;
  user: NamedRef | null;
  queue: NamedRef | null;
  connection: NamedRef | null;
}

/** One change of a ticket, as GET /tickets/:id/events and the `ticketEvent` socket event carry it. */
export interface TicketEventDto {
  id: number;
  ticketId: number;
  kind: TicketEventKind;
  cause: TicketEventCause;
  at: Date;
  /** The user who acted; null for the customer, the chatbot and the server's own jobs. */
  actor: NamedRef | null;
  from: TicketEventSide;
  to: TicketEventSide;
  /**
   * The figure the kind measures: the rating 1–5 of `rated`, the milliseconds waited of `first_response`/`resolved`,
   * the invalid answers of `bot_stopped`.
   */
  value: number | null;
}

/** One page of GET /tickets/:id/events, oldest first. */
export interface TicketEventPageDto {
  events: TicketEventDto[];
  count: number;
  hasMore: boolean;
}

/**
 * GET /tickets/:id/events: the page (1 = the oldest events) of the events at or after `from` and before `to`
 * (ISO instants, each optional).
 */
export interface TicketEventQuery {
  pageNumber?: number;
  from?: string;
  to?: string;
}

/** A ticket event as an island receives it (dates as ISO strings). */
export type TicketEvent = Wire<TicketEventDto>;
