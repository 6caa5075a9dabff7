import { atomically, first, lockKey } from "../../db/client";
import { eq } from "drizzle-orm";
import { webhookTicketStatus } from "../../db/tables";
import type { AppDeps } from "../../deps";
import type { DomainEvent, DomainEvents } from "../../events/catalogue";
import type { MessageDto } from "../messages/store";
import { findContact } from "../contacts/lookup";
import { findTicket } from "../tickets/records";
import { recordEvent } from "./deliveries";
import { endpointCache, type SubscribedEndpoints } from "./endpoint-cache";

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
 * Nothing is compared or kept while no endpoint wants `ticket.status` (the endpoint that becomes its first
 * subscriber stores every ticket's status then, see changingEndpoints), nor for an update that says the status
 * did not change (`before`).
 */
async function ticketStatusChange(
  deps: AppDeps,
  subscribed: SubscribedEndpoints,
  { ticket, before }: DomainEvents["ticket.updated"],
) {
  if (before && before.status === ticket.status) return;
  if (!(await subscribed("ticket.status")).length) return;
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
  await recordEvent(deps, subscribed, "ticket.status", `ticket:${ticket.id}:${crypto.randomUUID()}`, async () => ({
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
async function observe(deps: AppDeps, subscribed: SubscribedEndpoints, event: DomainEvent) {
  if ((event.name === "message.created" || event.name === "message.updated") && event.payload.message.isPrivate) return;
  if (event.name === "message.created") {
    const m = event.payload.message;
    await recordEvent(
      deps,
      subscribed,
      m.fromMe ? "message.sent" : "message.received",
      `msg:${m.id}`,
      async () => await messageData(deps, m),
    );
  } else if (event.name === "message.updated" && event.payload.message.fromMe) {
    const m = event.payload.message;
    await recordEvent(
      deps,
      subscribed,
      "message.ack",
      `ack:${m.id}:${m.ack}:${m.sendState ?? "sent"}`,
      async () => await messageData(deps, m),
    );
  } else if (event.name === "ticket.updated") {
    await ticketStatusChange(deps, subscribed, event.payload);
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
  const subscribed = endpointCache(deps);
  return (event: DomainEvent) => {
    if (!OBSERVED.has(event.name)) return;
    void deps.lanes.run(RECORDING, async () => {
      try {
        await observe(deps, subscribed, event);
      } catch (error) {
        deps.log.warn("webhook event not recorded", { event: event.name, error });
      }
    });
  };
}
