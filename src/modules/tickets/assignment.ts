import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import { atomically, lockKey, type Reader } from "../../db/client";
import { prepared } from "../../db/prepared";
import { storedInstant, ticketDialogs, type TicketEventRow, type TicketRow, tickets } from "../../db/tables";
import type { AppDeps } from "../../deps";
import type { QueueAssignment } from "../../shared/contracts/queues";
import type { TicketEventCause } from "../../shared/contracts/ticket-events";
import { queueRule } from "../queues/lookup";
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
 * ticket lands in a queue without an agent, and when someone may now qualify (assignment-triggers.ts). Answers
 * how many it gave.
 */
export async function assignWaiting(deps: AppDeps, queueId: number): Promise<number> {
  const rule = await queueRule(deps.db, queueId);
  if (!rule || rule.assignment === "manual") return 0;
  const queue = { ...rule, id: queueId, assignment: rule.assignment };
  for (let assigned = 0; ; ) {
    const outcome = await assignNext(deps, queue);
    if (outcome === "done") return assigned;
    if (outcome === "moved on") continue;
    await announce(deps, outcome);
    if (!outcome.moreWaiting) return assigned + 1;
    assigned++;
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

/**
 * After a message or a call found its chat's ticket: one it reopened, back in its queue without an agent, goes to
 * the queue's rule. Outside the transaction that reopened it (the inbound batch's), so no queue's lock is held there.
 */
export async function assignReopened(deps: AppDeps, found: { ticket: TicketRow; change?: string | null }) {
  if (found.change === "reopened" && isWaiting(found.ticket)) await assignWaiting(deps, found.ticket.queueId!);
}

interface Assigned {
  before: TicketRow;
  event: TicketEventRow;
  /** Another ticket was waiting behind this one. */
  moreWaiting: boolean;
}

/** A queue with a rule, as read when a round of assignments starts (a change meanwhile counts from the next). */
interface RuledQueue {
  id: number;
  assignment: Exclude<QueueAssignment, "manual">;
  maxOpenPerAgent: number;
  /** Whether its chatbot has options: its tickets wait for an agent only once the chatbot handed them over. */
  asksFirst: boolean;
}

/**
 * One ticket, picked and written in one transaction under the queue's lock (PostgreSQL's advisory lock; SQLite's
 * single writer on its own), so two arrivals, or two nodes, never give one ticket twice nor an agent past the cap.
 */
async function assignNext(deps: AppDeps, queue: RuledQueue): Promise<Assigned | "done" | "moved on"> {
  const now = new Date(deps.clock.now());
  const queueId = queue.id;
  return await atomically(deps.db, async (tx) => {
    await lockKey(tx, `assignment:queue:${queueId}`);
    const [ticket, next] = (await waitingIn(tx, queue.asksFirst).all({ queueId })) as TicketRow[];
    if (!ticket) return "done";
    const members = await membersWithLoad(tx, queueId);
    const agent = pickMember(queue.assignment, queue.maxOpenPerAgent, members);
    if (!agent) return "done";
    const written = await openFor(tx).get({ id: ticket.id, queueId, userId: agent.userId, now: storedInstant(now) });
    // Taken meanwhile by a person, who needs no lock: the next one is looked for.
    if (!written) return "moved on";
    // Only the chatbot keeps a dialogue, and it ends it when it hands a ticket over.
    if (ticket.isBot) await tx.delete(ticketDialogs).where(eq(ticketDialogs.ticketId, ticket.id));
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
    return { before: ticket, event, moreWaiting: !!next };
  });
}

/**
 * The two tickets of the queue that have waited longest for an agent: pending, nobody's, not snoozed, and no
 * longer in the chatbot's hands where the queue has chatbot options (a queue without them has nothing to ask first).
 */
const waitingIn = (db: Reader, asksFirst: boolean) => (asksFirst ? waitingAfterChatbot : waiting)(db);

const waitingQuery = (asksFirst: boolean) =>
  prepared((db) =>
    db
      .select()
      .from(tickets)
      .where(
        and(
          eq(tickets.queueId, sql.placeholder("queueId")),
          eq(tickets.status, "pending"),
          isNull(tickets.userId),
          isNull(tickets.snoozedUntil),
          asksFirst ? eq(tickets.isBot, false) : undefined,
        ),
      )
      .orderBy(asc(tickets.createdAt), asc(tickets.id))
      .limit(2)
      .prepare(),
  );
const waiting = waitingQuery(false);
const waitingAfterChatbot = waitingQuery(true);

/** Opens the ticket for the agent if it still waits in the queue. */
const openFor = prepared((db) =>
  db
    .update(tickets)
    .set({
      status: "open",
      userId: sql`${sql.placeholder("userId")}`,
      isBot: false,
      updatedAt: sql`${sql.placeholder("now")}`,
    } as unknown as Partial<TicketRow>)
    .where(
      and(
        eq(tickets.id, sql.placeholder("id")),
        eq(tickets.status, "pending"),
        isNull(tickets.userId),
        eq(tickets.queueId, sql.placeholder("queueId")),
      ),
    )
    .returning({ id: tickets.id })
    .prepare(),
);

/** The queue's members, each with their open tickets in the queue. */
async function membersWithLoad(db: Reader, queueId: number) {
  const members = await queueMembers(db, queueId);
  if (!members.length) return [];
  const open = (await openPerUser(db).all({ queueId })) as { userId: number; n: number }[];
  const openOf = new Map(open.map((row) => [row.userId, Number(row.n)]));
  return members.map((member) => ({ ...member, open: openOf.get(member.userId) ?? 0 }));
}

const openPerUser = prepared((db) =>
  db
    .select({ userId: tickets.userId, n: count() })
    .from(tickets)
    .where(and(eq(tickets.queueId, sql.placeholder("queueId")), eq(tickets.status, "open")))
    .groupBy(tickets.userId)
    .prepare(),
);

/** The agent's lists and the ticket's open chats hear of it once committed. */
async function announce(deps: AppDeps, { before, event }: Assigned) {
  deps.events.emit("ticket.updated", { ticket: await loadTicketDto(deps.db, before.id), before });
  await announceTicketEvents(deps, [event]);
}
