import { and, asc, count, eq, inArray, isNull } from "drizzle-orm";
import { atomically, type Db, first, lockKey, type Reader } from "../../db/client";
import { ticketDialogs, type TicketEventRow, type TicketRow, tickets } from "../../db/tables";
import type { AppDeps } from "../../deps";
import type { TicketEventCause } from "../../shared/contracts/ticket-events";
import { findQueue, queueAsksFirst, queueAssignment } from "../queues/lookup";
import { queueMembers, recordTurn } from "../users/queue-turns";
import { pickMember } from "./assignment-rules";
import { recordTicketEvent } from "./history";
import { announceTicketEvents } from "./history-dtos";
import { loadTicketDto } from "./serialize";

/** Whether the ticket waits in a queue for an agent (the chatbot may still be talking to the customer). */
export function isWaiting(ticket: Pick<TicketRow, "status" | "userId" | "queueId">) {
  return ticket.status === "pending" && ticket.userId == null && ticket.queueId != null;
}

/**
 * Gives the tickets waiting in a queue with an assignment rule to its online members under the cap, oldest
 * waiting first, until none waits or nobody qualifies; a manual queue costs the read of its mode. Called where a
 * ticket lands in a queue without an agent, and when someone may now qualify (assignment-triggers.ts).
 */
export async function assignWaiting(deps: AppDeps, queueId: number): Promise<void> {
  const mode = await queueAssignment(deps.db, queueId);
  if (!mode || mode === "manual") return;
  for (;;) {
    const outcome = await assignNext(deps, queueId);
    if (outcome === "done") return;
    if (outcome !== "moved on") await announce(deps, outcome);
  }
}

/**
 * After a change of a ticket: one that now waits in a queue without an agent (a transfer to the queue only, a
 * reopen, a return) goes to the queue's rule; one its agent no longer holds open frees a place under the cap of the
 * queue it was in. The chatbot's own changes are left to the bot stage, which knows when its dialogue has ended.
 */
export async function assignAfterChange(
  deps: AppDeps,
  before: TicketRow,
  after: TicketRow,
  cause: TicketEventCause | undefined,
) {
  const released =
    before.status === "open" &&
    before.userId != null &&
    before.queueId != null &&
    (after.status !== "open" || after.userId !== before.userId || after.queueId !== before.queueId);
  if (released) await assignWaiting(deps, before.queueId!);
  if (cause !== "chatbot" && isWaiting(after) && (!released || after.queueId !== before.queueId))
    await assignWaiting(deps, after.queueId!);
}

interface Assigned {
  before: TicketRow;
  event: TicketEventRow;
}

/**
 * One ticket, picked and written in one transaction under the queue's lock (PostgreSQL's advisory lock; SQLite's
 * single writer on its own), so two arrivals, or two nodes, never give one ticket twice nor an agent past the cap.
 */
async function assignNext(deps: AppDeps, queueId: number): Promise<Assigned | "done" | "moved on"> {
  const now = new Date(deps.clock.now());
  return await atomically(deps.db, async (tx) => {
    await lockKey(tx, `assignment:queue:${queueId}`);
    const queue = await findQueue(tx, queueId);
    if (!queue || queue.assignment === "manual") return "done";
    const ticket = await oldestWaiting(tx, queueId);
    if (!ticket) return "done";
    const members = await membersWithLoad(tx, queueId);
    const agent = pickMember(queue.assignment, queue.maxOpenPerAgent, members);
    if (!agent) return "done";
    const written = await tx
      .update(tickets)
      .set({ status: "open", userId: agent.userId, isBot: false, updatedAt: now })
      .where(
        and(
          eq(tickets.id, ticket.id),
          eq(tickets.status, "pending"),
          isNull(tickets.userId),
          eq(tickets.queueId, queueId),
        ),
      )
      .returning({ id: tickets.id });
    // Taken meanwhile by a person, who needs no lock: the next one is looked for.
    if (!written.length) return "moved on";
    await tx.delete(ticketDialogs).where(eq(ticketDialogs.ticketId, ticket.id));
    await recordTurn(tx, queueId, agent.userId, Math.max(0, ...members.map((m) => m.lastTurn)) + 1);
    const event = await recordTicketEvent(tx, {
      ticketId: ticket.id,
      kind: "assigned",
      cause: queue.assignment,
      at: now,
      actorUserId: null,
      before: ticket,
      after: { status: "open", userId: agent.userId, queueId, whatsappId: ticket.whatsappId },
    });
    return { before: ticket, event };
  });
}

/**
 * The ticket of the queue that has waited longest for an agent: pending and nobody's, and no longer in the
 * chatbot's hands where the queue has chatbot options (a queue without them has nothing to ask first).
 */
async function oldestWaiting(tx: Db, queueId: number) {
  const asksFirst = await queueAsksFirst(tx, queueId);
  return await first(
    tx
      .select()
      .from(tickets)
      .where(
        and(
          eq(tickets.queueId, queueId),
          eq(tickets.status, "pending"),
          isNull(tickets.userId),
          asksFirst ? eq(tickets.isBot, false) : undefined,
        ),
      )
      .orderBy(asc(tickets.createdAt), asc(tickets.id)),
  );
}

/** The queue's members, each with their open tickets in the queue. */
async function membersWithLoad(db: Reader, queueId: number) {
  const members = await queueMembers(db, queueId);
  if (!members.length) return [];
  const open = await db
    .select({ userId: tickets.userId, n: count() })
    .from(tickets)
    .where(
      and(
        eq(tickets.queueId, queueId),
        eq(tickets.status, "open"),
        inArray(
          tickets.userId,
          members.map((m) => m.userId),
        ),
      ),
    )
    .groupBy(tickets.userId);
  const openOf = new Map(open.map((row) => [row.userId, Number(row.n)]));
  return members.map((member) => ({ ...member, open: openOf.get(member.userId) ?? 0 }));
}

/** The agent's lists and the ticket's open chats hear of it once committed. */
async function announce(deps: AppDeps, { before, event }: Assigned) {
  deps.events.emit("ticket.updated", { ticket: await loadTicketDto(deps.db, before.id), before });
  await announceTicketEvents(deps, [event]);
}
