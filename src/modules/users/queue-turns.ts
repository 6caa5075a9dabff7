import { and, eq, sql } from "drizzle-orm";
import type { Writer } from "../../db/client";
import { prepared } from "../../db/prepared";
import { userQueues } from "../../db/tables";

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
