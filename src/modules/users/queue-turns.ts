import { and, eq, sql } from "drizzle-orm";
import type { Reader, Writer } from "../../db/client";
import { prepared } from "../../db/prepared";
import { userQueues, users } from "../../db/tables";

/** A member of a queue as its assignment rule sees them. */
export interface QueueMember {
  userId: number;
  availability: string;
  /** The queue's assignment count when a rule last gave them a ticket here (0 = never). */
  lastTurn: number;
}

/** Every member of the queue, with their availability and last turn. */
export async function queueMembers(db: Reader, queueId: number): Promise<QueueMember[]> {
  return (await membersOf(db).all({ queueId })) as QueueMember[];
}

const membersOf = prepared((db) =>
  db
    .select({ userId: userQueues.userId, availability: users.availability, lastTurn: userQueues.lastTurn })
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
