import { type Db, first, type Reader } from "../../db/client";
import { asc, count, eq, gt, inArray, or, sql } from "drizzle-orm";
import { eachId, gatheredById, lookupEachKey } from "../../db/gathered";
import { prepared, preparedLook } from "../../db/prepared";
import { amongIdList, idList } from "../../db/index-hints";
import { type ChatbotRow, chatbots, type QueueRow, queues } from "../../db/tables";
import { AppError } from "../../errors";

/** A queue as the lists that name it show it. */
export interface QueueSummary {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
  firstResponseMinutes: number;
  resolutionMinutes: number;
}

/** True when the queue exists. */
export async function queueExists(db: Reader, id: number): Promise<boolean> {
  return !!(await first(db.select({ id: queues.id }).from(queues).where(eq(queues.id, id))));
}

/** Throws 400 ERR_NO_QUEUE_FOUND unless every queue id exists. */
export async function assertQueuesExist(db: Reader, queueIds: readonly number[]) {
  const ids = [...new Set(queueIds)];
  if (ids.length === 0) return;
  const found = (await first(db.select({ n: count() }).from(queues).where(inArray(queues.id, ids))))?.n ?? 0;
  if (found !== ids.length) throw new AppError("ERR_NO_QUEUE_FOUND", 400);
}

/** How a queue assigns its waiting tickets, and whether its chatbot asks the customer first (it has options). */
export interface QueueRule {
  assignment: QueueRow["assignment"];
  maxOpenPerAgent: number;
  asksFirst: boolean;
}

/** The queue's assignment rule, or nothing for an unknown queue: one prepared read. */
export async function queueRule(db: Reader, id: number): Promise<QueueRule | undefined> {
  const row = (await ruleById(db).get({ id })) as (QueueRule & { asksFirst: unknown }) | undefined;
  return row && { ...row, asksFirst: !!row.asksFirst };
}

const ruleById = prepared((db) =>
  db
    .select({
      assignment: queues.assignment,
      maxOpenPerAgent: queues.maxOpenPerAgent,
      asksFirst: sql<unknown>`exists (select 1 from ${chatbots} where ${chatbots.queueId} = ${queues.id})`,
    })
    .from(queues)
    .where(eq(queues.id, sql.placeholder("id")))
    .prepare(),
);

/** The queue row by id. */
export async function findQueue(db: Reader, id: number): Promise<QueueRow | undefined> {
  return await first(db.select().from(queues).where(eq(queues.id, id)));
}

/** The queues among `ids` that exist, in id order. */
export async function queueSummaries(db: Reader, ids: readonly number[]): Promise<QueueSummary[]> {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return [];
  if (distinct.length === 1) return [await gatheredQueueSummary(db, distinct[0]!)].filter((row) => row !== undefined);
  return await queueSummariesByIds(db).all({ ids: idList(distinct) });
}

const queueSummariesByIds = prepared((db) =>
  db.select(queueSummary()).from(queues).where(amongIdList(queues.id, "ids")).orderBy(asc(queues.id)).prepare(),
);

const queueSummary = () => ({
  id: queues.id,
  name: queues.name,
  color: queues.color,
  greetingMessage: queues.greetingMessage,
  firstResponseMinutes: queues.firstResponseMinutes,
  resolutionMinutes: queues.resolutionMinutes,
});

const queueSummaryById = prepared((db) =>
  db
    .select(queueSummary())
    .from(queues)
    .where(eq(queues.id, sql.placeholder("id")))
    .prepare(),
);

const queueSummariesEachId = prepared((db) =>
  lookupEachKey(db, eachId("ids"), db.select(queueSummary()).from(queues).where(sql`${queues.id} = k.id`)),
);

const gatheredQueueSummary = gatheredById<QueueSummary>(queueSummaryById, queueSummariesEachId);

/** A chatbot option by id. */
export async function findChatbotOption(db: Reader, id: number): Promise<ChatbotRow | undefined> {
  return await first(db.select().from(chatbots).where(eq(chatbots.id, id)));
}

/** The options under a chatbot option, in id order. */
export async function childOptions(db: Reader, parentId: number): Promise<ChatbotRow[]> {
  return await db.select().from(chatbots).where(eq(chatbots.parentId, parentId)).orderBy(asc(chatbots.id));
}

/** A queue's SLA targets in minutes (0: none). */
export interface SlaTargets {
  id: number;
  firstResponse: number;
  resolution: number;
}

/** The queues with an SLA target (see QueueDto): read by the SLA sweep's every pass, through a prepared look. */
export async function queuesWithSlaTargets(db: Db): Promise<SlaTargets[]> {
  return (await slaQueuesLook(db)({})) as SlaTargets[];
}

/** Builds `queuesWithSlaTargets`'s query now, not at its first call (see `preparedLook`). */
export const prepareQueuesWithSlaTargets = (db: Db) => void slaQueuesLook(db);

// Aliased: the look answers the statement's own column names on SQLite.
const slaQueuesLook = preparedLook((db) =>
  db
    .select({
      id: queues.id,
      firstResponse: sql<number>`${queues.firstResponseMinutes}`.as("firstResponse"),
      resolution: sql<number>`${queues.resolutionMinutes}`.as("resolution"),
    })
    .from(queues)
    .where(or(gt(queues.firstResponseMinutes, 0), gt(queues.resolutionMinutes, 0)))
    .prepare(),
);
