import type { ClientMessage } from "./events";
import { TICKET_STATUSES, type TicketStatus } from "../shared/contracts/tickets";

const MAX_FIELDS = 4;
const MAX_TOKEN_LENGTH = 2048;

/**
 * Reads one client frame, or returns null when it is not a message of the protocol. Every message is a flat
 * object of a few scalar fields, so anything nested is refused without being walked: a deeply nested frame
 * costs no more than a short one.
 */
export function parseClientMessage(frame: unknown): ClientMessage | null {
  const msg = typeof frame === "string" ? parseJson(frame) : frame;
  if (!isFlatRecord(msg)) return null;
  switch (msg.type) {
    case "ping":
    case "joinNotification":
    case "leaveNotification":
    case "joinCompany":
      return { type: msg.type };
    case "joinTickets":
    case "leaveTickets":
      return isStatus(msg.status) ? { type: msg.type, status: msg.status } : null;
    case "joinChatBox":
    case "leaveChatBox":
      return isId(msg.ticketId) ? { type: msg.type, ticketId: msg.ticketId } : null;
    case "token":
      return typeof msg.token === "string" && msg.token.length <= MAX_TOKEN_LENGTH
        ? { type: "token", token: msg.token }
        : null;
    default:
      return null;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function isFlatRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return false;
  const fields = Object.values(value);
  return fields.length <= MAX_FIELDS && fields.every((v) => v === null || typeof v !== "object");
}

const isStatus = (v: unknown): v is TicketStatus => TICKET_STATUSES.includes(v as TicketStatus);
const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1;
