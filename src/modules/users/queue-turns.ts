import { and, count, eq, sql } from "drizzle-orm";
import type { Reader, Writer } from "../../db/client";
import { prepared } from "../../db/prepared";
import { tickets, userQueues, users } from "../../db/tables";

/** A member of a queue as its assignment rule sees them. */
export interface QueueMember {
  userId: number;
  availability: string;
  /** The queue's assignment count when a rule last gave them a ticket here (0 = never). */
  lastTurn: number;
  /** Their open tickets in the queue. */
  open: number;
}

/** Every member of the queue, with their availability, last turn and open tickets there: one query. */
export async function queueMembers(db: Reader, queueId: number): Promise<QueueMember[]> {
  const rows = (await membersOf(db).all({ queueId })) as (QueueMember & { open: unknown })[];
  return rows.map((row) => ({ ...row, open: Number(row.open) }));
}

const membersOf = prepared((db) =>
  db
    .select({
      userId: userQueues.userId,
      availability: users.availability,
      lastTurn: userQueues.lastTurn,
      open: sql<unknown>`(${db
        .select({ n: count() })
        .from(tickets)
        .where(
          and(
            eq(tickets.queueId, userQueues.queueId),
            eq(tickets.userId, userQueues.userId),
            eq(tickets.status, "open"),
          ),
        )})`,
    })
    .from(userQueues)
    .innerJoin(users, eq(users.id, userQueues.userId))
    .where(eq(userQueues.queueId, sql.placeholder("queueId")))
    .prepare(),
);

/** Records that the member was given the queue's `turn`-th ticket by its rule. */
export async function recordTurn(tx: Writer, queueId: number, userId: number, turn: number) {
  await setTurn(tx).run({ queueId, userId, turn });
}

const setTurn = prepared((db) =>
  db
    .update(userQueues)
    .set({ lastTurn: sql`${sql.placeholder("turn")}` })
    .where(and(eq(userQueues.queueId, sql.placeholder("queueId")), eq(userQueues.userId, sql.placeholder("userId"))))
    .prepare(),
);
