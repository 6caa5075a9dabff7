import { eq } from "drizzle-orm";
import { atomically, lockKey } from "../../db/client";
import { storedInstant, ticketDialogs, type TicketEventRow, type TicketRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import type { QueueAssignment } from "../../shared/contracts/queues";
import { queueRule } from "../queues/lookup";
import { recordTurn } from "../users/queue-turns";
import { membersWhileWaiting, takeOldest } from "./assignment-queries";
import { pickMember } from "./assignment-rules";
import { recordTicketEvent } from "./history";
import { announceTicketEvents } from "./history-dtos";
import { toTicketDtos } from "./serialize";

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
  return (await assignWaitingTickets(deps, queueId)).length;
}

/**
 * As `assignWaiting`, answering what it gave (each ticket as written, with its history event), possibly with
 * tickets other callers asked for. The one ticket `announcedByCaller` is not announced by whichever pass gives it:
 * it is in the answer, and the caller announces it with the change that made it wait.
 */
export async function assignWaitingTickets(
  deps: AppDeps,
  queueId: number,
  announcedByCaller?: number,
): Promise<Assignment[]> {
  const passes = passesOf(deps);
  if (announcedByCaller === undefined) return await passes.run(deps, queueId);
  passes.awaited.set(announcedByCaller, null);
  try {
    const given = await passes.run(deps, queueId);
    const own = passes.awaited.get(announcedByCaller);
    return own && !given.includes(own) ? [...given, own] : given;
  } finally {
    passes.awaited.delete(announcedByCaller);
  }
}

/**
 * The passes over queues' waiting tickets on one node. Tickets arriving at once each ask for a pass; those asking
 * while one waits to start join it (it starts after their tickets were committed, so it reads them): at most one
 * pass per queue runs, with one more queued, rather than one per arrival each finding the others' tickets given.
 */
class AssignmentPasses {
  private readonly queued = new Map<number, Promise<Assignment[]>>();
  /** Tickets whose callers announce them, with the assignment a pass gave each (null until given). */
  readonly awaited = new Map<number, Assignment | null>();

  /** The app's deps of whoever queues the pass (never a transaction's: passes run outside any). */
  run(deps: AppDeps, queueId: number): Promise<Assignment[]> {
    const waiting = this.queued.get(queueId);
    if (waiting) return waiting;
    const pass = deps.lanes.run(`tickets:assignment-pass:${queueId}`, () => {
      // Started: whoever asks from now on may have committed a ticket this pass reads past, so queues the next.
      this.queued.delete(queueId);
      return this.passOver(deps, queueId);
    });
    this.queued.set(queueId, pass);
    return pass;
  }

  private async passOver(deps: AppDeps, queueId: number): Promise<Assignment[]> {
    const given: Assignment[] = [];
    const rule = await queueRule(deps.db, queueId);
    if (!rule || rule.assignment === "manual") return given;
    const queue = { ...rule, id: queueId, assignment: rule.assignment };
    for (;;) {
      const outcome = await assignNext(deps, queue);
      if (outcome === "done") return given;
      if (this.awaited.has(outcome.ticket.id)) this.awaited.set(outcome.ticket.id, outcome);
      else await announce(deps, outcome);
      given.push(outcome);
      if (!outcome.moreWaiting) return given;
    }
  }
}

const passesByApp = new WeakMap<AppDeps["lanes"], AssignmentPasses>();

function passesOf(deps: AppDeps): AssignmentPasses {
  let passes = passesByApp.get(deps.lanes);
  if (!passes) passesByApp.set(deps.lanes, (passes = new AssignmentPasses()));
  return passes;
}

/**
 * After a change of a ticket: one that now waits in a queue without an agent (a transfer to the queue only, a
 * reopen, a return, the chatbot's queue choice) goes to the queue's rule; one its agent no longer holds open frees a
 * place under the cap of the queue it was in. Answers the ticket's own assignment, if it was given, unannounced: the
 * caller announces it with the change, so lists and webhooks hear of the ticket once, as it ends up.
 */
export async function assignAfterChange(deps: AppDeps, before: TicketRow, after: TicketRow) {
  const released =
    before.status === "open" &&
    before.userId != null &&
    before.queueId != null &&
    (after.status !== "open" || after.userId !== before.userId || after.queueId !== before.queueId);
  if (released) await assignWaiting(deps, before.queueId!);
  if (!isWaiting(after) || (released && after.queueId === before.queueId)) return undefined;
  const given = await assignWaitingTickets(deps, after.queueId!, after.id);
  return given.find((assignment) => assignment.ticket.id === after.id);
}

/**
 * After a message or a call found its chat's ticket: one it reopened, back in its queue without an agent, goes to
 * the queue's rule. Outside the transaction that reopened it (the inbound batch's), so no queue's lock is held there.
 */
export async function assignReopened(deps: AppDeps, found: { ticket: TicketRow; change?: string | null }) {
  if (found.change === "reopened" && isWaiting(found.ticket)) await assignWaiting(deps, found.ticket.queueId!);
}

export interface Assignment {
  ticket: TicketRow;
  event: TicketEventRow;
  /** The agent given the ticket, with the name their announcement shows. */
  agent: { id: number; name: string };
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
 * After the lock: the members with their load (none when no ticket waits), the oldest waiting ticket taken for the
 * agent picked, the end of its chatbot dialogue, the agent's turn and the history's event.
 */
async function assignNext(deps: AppDeps, queue: RuledQueue): Promise<Assignment | "done"> {
  const now = new Date(deps.clock.now());
  const queueId = queue.id;
  return await atomically(deps.db, async (tx) => {
    await lockKey(tx, `assignment:queue:${queueId}`);
    const members = await membersWhileWaiting(tx, queueId);
    const agent = pickMember(queue.assignment, queue.maxOpenPerAgent, members);
    if (!agent) return "done";
    const taken = (await takeOldest(tx, queue.asksFirst).get({
      queueId,
      userId: agent.userId,
      now: storedInstant(now),
    })) as (TicketRow & { moreWaiting: unknown }) | undefined;
    if (!taken) return "done";
    const { moreWaiting, ...ticket } = taken;
    // Only the chatbot keeps a dialogue, and it ends it when it hands a ticket over (a queue whose chatbot asks
    // first only ever gives tickets it handed over).
    if (!queue.asksFirst) await tx.delete(ticketDialogs).where(eq(ticketDialogs.ticketId, ticket.id));
    await recordTurn(tx, queueId, agent.userId, Math.max(0, ...members.map((m) => m.lastTurn)) + 1);
    const event = await recordTicketEvent(tx, {
      ticketId: ticket.id,
      kind: "assigned",
      cause: queue.assignment,
      at: now,
      actorUserId: null,
      before: { status: "pending", userId: null, queueId, whatsappId: ticket.whatsappId },
      after: { status: "open", userId: agent.userId, queueId, whatsappId: ticket.whatsappId },
    });
    const agentName = { id: agent.userId, name: agent.name };
    return { ticket: ticket as TicketRow, event, agent: agentName, moreWaiting: !!Number(moreWaiting) };
  });
}

/** The agent's lists and the ticket's open chats hear of it once committed. */
async function announce(deps: AppDeps, { ticket, event, agent }: Assignment) {
  const before = { id: ticket.id, status: "pending" as const, userId: null, queueId: ticket.queueId };
  const [dto] = await toTicketDtos(deps.db, [ticket], { userNames: [agent] });
  deps.events.emit("ticket.updated", { ticket: dto!, before });
  await announceTicketEvents(deps, [event], [agent]);
}
