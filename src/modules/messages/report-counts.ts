import { and, count, eq, gte, inArray, isNotNull, lt, type SQL } from "drizzle-orm";
import type { Reader } from "../../db/client";
import { messages, tickets } from "../../db/tables";

/** How many messages one agent typed in tickets of one queue (null: tickets without a queue). */
export interface AgentMessageCount {
  userId: number;
  queueId: number | null;
  n: number;
}

/**
 * The messages agents typed and sent in [start, end) (epoch ms; private notes left out), counted per agent and
 * per queue of their ticket, optionally only in these queues or by these agents.
 */
export async function agentMessageCounts(
  db: Reader,
  filter: { start: number; end: number; queueIds?: readonly number[]; userIds?: readonly number[] },
): Promise<AgentMessageCount[]> {
  const where: (SQL | undefined)[] = [
    isNotNull(messages.userId),
    gte(messages.createdAt, new Date(filter.start)),
    lt(messages.createdAt, new Date(filter.end)),
    eq(messages.isPrivate, false),
  ];
  if (filter.queueIds) where.push(inArray(tickets.queueId, [...filter.queueIds]));
  if (filter.userIds) where.push(inArray(messages.userId, [...filter.userIds]));
  const rows = await db
    .select({ userId: messages.userId, queueId: tickets.queueId, n: count() })
    .from(messages)
    .innerJoin(tickets, eq(tickets.id, messages.ticketId))
    .where(and(...where))
    .groupBy(messages.userId, tickets.queueId);
  return rows.map((r) => ({ userId: r.userId!, queueId: r.queueId, n: r.n }));
}
