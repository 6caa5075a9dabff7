import { asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Reader } from "../../db/client";
import { prepared } from "../../db/prepared";
import { type ChatbotRow, chatbots, type QueueRow, queues } from "../../db/tables";
import { AppError } from "../../errors";

/** A queue as the lists that name it show it. */
export interface QueueSummary {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
}

/** True when the queue exists. */
export function queueExists(db: Reader, id: number): boolean {
  return !!db.select({ id: queues.id }).from(queues).where(eq(queues.id, id)).get();
}

/** Throws 400 ERR_NO_QUEUE_FOUND unless every queue id exists. */
export function assertQueuesExist(db: Reader, queueIds: readonly number[]) {
  const ids = [...new Set(queueIds)];
  if (ids.length === 0) return;
  const found = db.select({ n: count() }).from(queues).where(inArray(queues.id, ids)).get()?.n ?? 0;
  if (found !== ids.length) throw new AppError("ERR_NO_QUEUE_FOUND", 400);
}

/** The queue row by id. */
export function findQueue(db: Reader, id: number): QueueRow | undefined {
  return db.select().from(queues).where(eq(queues.id, id)).get();
}

/** The queues among `ids` that exist, in id order. */
export function queueSummaries(db: Reader, ids: readonly number[]): QueueSummary[] {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return [];
  if (distinct.length === 1) return queueSummaryById(db).all({ id: distinct[0] });
  return db.select(QUEUE_SUMMARY).from(queues).where(inArray(queues.id, distinct)).orderBy(asc(queues.id)).all();
}

const QUEUE_SUMMARY = {
  id: queues.id,
  name: queues.name,
  color: queues.color,
  greetingMessage: queues.greetingMessage,
};

const queueSummaryById = prepared((db) =>
  db
    .select(QUEUE_SUMMARY)
    .from(queues)
    .where(eq(queues.id, sql.placeholder("id")))
    .prepare(),
);

/** A chatbot option by id. */
export function findChatbotOption(db: Reader, id: number): ChatbotRow | undefined {
  return db.select().from(chatbots).where(eq(chatbots.id, id)).get();
}

/** The options under a chatbot option, in id order. */
export function childOptions(db: Reader, parentId: number): ChatbotRow[] {
  return db.select().from(chatbots).where(eq(chatbots.parentId, parentId)).orderBy(asc(chatbots.id)).all();
}

/** True when at least one queue exists. */
export function anyQueue(db: Reader): boolean {
  return !!db.select({ id: queues.id }).from(queues).get();
}
