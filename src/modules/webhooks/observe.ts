import { eq } from "drizzle-orm";
import { atomically } from "../../db/client";
import { webhookTicketStatus } from "../../db/tables";
import type { AppDeps } from "../../deps";
import type { DomainEvent } from "../../events/catalogue";
import type { MessageDto } from "../messages/store";
import { findContact } from "../contacts/lookup";
import { findTicket } from "../tickets/records";
import type { TicketDto } from "../tickets/serialize";
import { recordEvent } from "./deliveries";

function contactOfTicket(deps: AppDeps, ticketId: number) {
  const ticket = findTicket(deps.db, ticketId);
  const contact = ticket && findContact(deps.db, ticket.contactId);
  return contact && { id: contact.id, name: contact.name, number: contact.number, isGroup: contact.isGroup };
}

function messageData(deps: AppDeps, m: MessageDto) {
  return {
    id: m.id,
    ticketId: m.ticketId,
    whatsappId: m.whatsappId,
    body: m.body,
    fromMe: m.fromMe,
    ack: m.ack,
    sendState: m.sendState,
    mediaType: m.mediaType,
    createdAt: m.createdAt,
    contact: contactOfTicket(deps, m.ticketId) ?? null,
  };
}

/**
 * A ticket status differing from the last one seen becomes `ticket.status`. The last status is kept per ticket
 * (in the database, so a restart does not report old changes again); the compare and the write are one step.
 */
function ticketStatusChange(deps: AppDeps, ticket: TicketDto) {
  const previous = atomically(deps.db, (tx) => {
    const seen = tx
      .select({ status: webhookTicketStatus.status })
      .from(webhookTicketStatus)
      .where(eq(webhookTicketStatus.ticketId, ticket.id))
      .get();
    if (seen?.status === ticket.status) return undefined;
    tx.insert(webhookTicketStatus)
      .values({ ticketId: ticket.id, status: ticket.status })
      .onConflictDoUpdate({ target: webhookTicketStatus.ticketId, set: { status: ticket.status } })
      .run();
    return { status: seen?.status ?? null };
  });
  if (!previous) return;
  recordEvent(deps, "ticket.status", `ticket:${ticket.id}:${crypto.randomUUID()}`, () => ({
    id: ticket.id,
    status: ticket.status,
    previousStatus: previous.status,
    userId: ticket.userId,
    queueId: ticket.queueId,
    whatsappId: ticket.whatsappId,
    contact: contactOfTicket(deps, ticket.id) ?? null,
  }));
}

/** A private note stays inside the team: integrations hear nothing about it. */
function observe(deps: AppDeps, event: DomainEvent) {
  if ((event.name === "message.created" || event.name === "message.updated") && event.payload.message.isPrivate) return;
  if (event.name === "message.created") {
    const m = event.payload.message;
    recordEvent(deps, m.fromMe ? "message.sent" : "message.received", `msg:${m.id}`, () => messageData(deps, m));
  } else if (event.name === "message.updated" && event.payload.message.fromMe) {
    const m = event.payload.message;
    recordEvent(deps, "message.ack", `ack:${m.id}:${m.ack}:${m.sendState ?? "sent"}`, () => messageData(deps, m));
  } else if (event.name === "ticket.updated") {
    ticketStatusChange(deps, event.payload.ticket);
  }
}

const OBSERVED = new Set<DomainEvent["name"]>(["message.created", "message.updated", "ticket.updated"]);

/**
 * Turns domain events into webhook deliveries. Recording writes to the database, so it runs once the emitting
 * code has finished rather than inside it.
 */
export function observeForWebhooks(deps: AppDeps) {
  return (event: DomainEvent) => {
    if (!OBSERVED.has(event.name)) return;
    queueMicrotask(() => {
      try {
        observe(deps, event);
      } catch (error) {
        deps.log.warn("webhook event not recorded", { event: event.name, error });
      }
    });
  };
}
