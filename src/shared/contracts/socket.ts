import type { ServerEvents } from "./server-events";
import type { TicketStatus } from "./tickets";

/** Event names the server emits over /ws. */
export type EventName = keyof ServerEvents;

/** One event with what it carries, as the server publishes it to rooms or sends it to one socket. */
export type ServerEvent = { [E in EventName]: { event: E; payload: ServerEvents[E] } }[EventName];

/** One frame the server sends over /ws; `id` lets a client drop a frame it got twice through two rooms. */
export type Frame = ServerEvent & {
  /** `<node>-<sequence>`: unique across the processes that publish to the same browsers. */
  id: string;
};

/** Messages a client may send over /ws. */
export type ClientMessage =
  | { type: "joinNotification" }
  | { type: "leaveNotification" }
  | { type: "joinTickets"; status: TicketStatus }
  | { type: "leaveTickets"; status: TicketStatus }
  | { type: "joinChatBox"; ticketId: number }
  | { type: "leaveChatBox"; ticketId: number }
  | { type: "joinCompany" }
  | { type: "ping" }
  | { type: "token"; token: string };
