import { atomically, first, lockKey } from "../../db/client";
import { eq } from "drizzle-orm";
import { webhookTicketStatus } from "../../db/tables";
import type { AppDeps } from "../../deps";
import type { DomainEvent } from "../../events/catalogue";
import type { MessageDto } from "../messages/store";
import { findContact } from "../contacts/lookup";
import { findTicket } from "../tickets/records";
import type { TicketDto } from "../tickets/serialize";
import { recordEvent } from "./deliveries";

async function contactOfTicket(deps: AppDeps, ticketId: number) {
  const ticket = await findTicket(deps.db, ticketId);
  const contact = ticket && (await findContact(deps.db, ticket.contactId));
  return contact && { id: contact.id, name: contact.name, number: contact.number, isGroup: contact.isGroup };
}

async function messageData(deps: AppDeps, m: MessageDto) {
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
    contact: (await contactOfTicket(deps, m.ticketId)) ?? null,
  };
}

/**
 * A ticket status differing from the last one seen becomes `ticket.status`. The last status is kept per ticket
 * (in the database, so a restart does not report old changes again); the compare and the write are one step.
 */
async function ticketStatusChange(deps: AppDeps, ticket: TicketDto) {
  const previous = await atomically(deps.db, async (tx) => {
    // Two events of one ticket handled at once (on two nodes) must not both see the old status.
    await lockKey(tx, `webhook-ticket-status:${ticket.id}`);
    const seen = await first(
      tx
        .select({ status: webhookTicketStatus.status })
        .from(webhookTicketStatus)
        .where(eq(webhookTicketStatus.ticketId, ticket.id)),
    );
    if (seen?.status === ticket.status) return undefined;
    await tx
      .insert(webhookTicketStatus)
      .values({ ticketId: ticket.id, status: ticket.status })
      .onConflictDoUpdate({ target: webhookTicketStatus.ticketId, set: { status: ticket.status } });
    return { status: seen?.status ?? null };
  });
  if (!previous) return;
  await recordEvent(deps, "ticket.status", `ticket:${ticket.id}:${crypto.randomUUID()}`, async () => ({
    id: ticket.id,
    status: ticket.status,
    previousStatus: previous.status,
    userId: ticket.userId,
    queueId: ticket.queueId,
    whatsappId: ticket.whatsappId,
    contact: (await contactOfTicket(deps, ticket.id)) ?? null,
  }));
}

/** A private note stays inside the team: integrations hear nothing about it. */
async function observe(deps: AppDeps, event: DomainEvent) {
  if ((event.name === "message.created" || event.name === "message.updated") && event.payload.message.isPrivate) return;
  if (event.name === "message.created") {
    const m = event.payload.message;
    await recordEvent(
      deps,
      m.fromMe ? "message.sent" : "message.received",
      `msg:${m.id}`,
      async () => await messageData(deps, m),
    );
  } else if (event.name === "message.updated" && event.payload.message.fromMe) {
    const m = event.payload.message;
    await recordEvent(
      deps,
      "message.ack",
      `ack:${m.id}:${m.ack}:${m.sendState ?? "sent"}`,
      async () => await messageData(deps, m),
    );
  } else if (event.name === "ticket.updated") {
    await ticketStatusChange(deps, event.payload.ticket);
  }
}

const OBSERVED = new Set<DomainEvent["name"]>(["message.created", "message.updated", "ticket.updated"]);

/** The key in `deps.lanes` of webhook recording: events are recorded one after another, in their order. */
const RECORDING = "webhooks:recording";

/** Resolves once every event heard so far is recorded. */
export function webhookEventsRecorded(deps: AppDeps): Promise<void> {
  return deps.lanes.settled(RECORDING);
}

/**
 * Turns domain events into webhook deliveries. Recording writes to the database, so it runs once the emitting
 * code has finished rather than inside it (a job of KeyedLanes starts a turn later), in the events' order.
 */
export function observeForWebhooks(deps: AppDeps) {
  return (event: DomainEvent) => {
    if (!OBSERVED.has(event.name)) return;
    void deps.lanes.run(RECORDING, async () => {
      try {
        await observe(deps, event);
      } catch (error) {
        deps.log.warn("webhook event not recorded", { event: event.name, error });
      }
    });
  };
}
