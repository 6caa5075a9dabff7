import { and, asc, eq, isNull, ne } from "drizzle-orm";
import type { Db } from "../../db/client";
import { chatbots, queues } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, notFound } from "../../errors";
import type { QueueDto } from "../../shared/contracts/queues";
import { moveQueueTickets, ticketsInQueue } from "../tickets/records";
import { toTicketDtos } from "../tickets/serialize";
import { checkOptions, firstLevelOptions, levelOf, loadTrees, syncOptions } from "./chatbot-tree";
import { findQueue, queueExists } from "./lookup";
import type { QueueModel } from "./model";

/** GET /queue: every queue by id, without chatbots. */
export function listQueues(db: Db): QueueDto[] {
  return db.select().from(queues).orderBy(asc(queues.id)).all();
}

/** A queue with its whole chatbot tree. */
export function showQueue(db: Db, id: number) {
  const queue = findQueue(db, id);
  if (!queue) throw notFound("ERR_NO_QUEUE_FOUND");
  return { ...queue, chatbots: loadTrees(db, firstLevelOptions(db, [id])) };
}

function assertUnique(db: Db, input: QueueModel.Update, exceptId?: number) {
  const others = (column: typeof queues.name | typeof queues.color, value: string) =>
    db
      .select({ id: queues.id })
      .from(queues)
      .where(and(eq(column, value), exceptId ? ne(queues.id, exceptId) : undefined))
      .get();
  if (input.name !== undefined && others(queues.name, input.name.trim()))
    throw new AppError("ERR_QUEUE_NAME_ALREADY_EXISTS", 400);
  if (input.color !== undefined && others(queues.color, input.color.trim()))
    throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS", 400);
}

/** POST /queue: the queue and its nested options in one transaction. */
export function createQueue(deps: AppDeps, input: QueueModel.Create) {
  assertUnique(deps.db, input);
  checkOptions(deps.db, input.chatbots);
  const id = deps.db.transaction((tx) => {
    const row = tx
      .insert(queues)
      .values({ name: input.name.trim(), color: input.color.trim(), greetingMessage: input.greetingMessage ?? "" })
      .returning({ id: queues.id })
      .get();
    if (input.chatbots) syncOptions(tx, { queueId: row.id }, input.chatbots);
    return row.id;
  });
  const queue = showQueue(deps.db, id);
  deps.events.emit("queue.updated", { queue });
  return queue;
}

/** PUT /queue/:id: options are upserted by id and missing ones deleted with their subtrees; absent `chatbots` leaves them. */
export function updateQueue(deps: AppDeps, id: number, input: QueueModel.Update) {
  showQueue(deps.db, id);
  assertUnique(deps.db, input, id);
  checkOptions(deps.db, input.chatbots);
  deps.db.transaction((tx) => {
    const set = {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.color !== undefined ? { color: input.color.trim() } : {}),
      ...(input.greetingMessage !== undefined ? { greetingMessage: input.greetingMessage } : {}),
    };
    if (Object.keys(set).length) tx.update(queues).set(set).where(eq(queues.id, id)).run();
    if (input.chatbots) syncOptions(tx, { queueId: id }, input.chatbots);
  });
  const queue = showQueue(deps.db, id);
  deps.events.emit("queue.updated", { queue });
  return queue;
}

/**
 * DELETE /queue/:id: the chatbot tree goes with it. Its tickets must never become queue-less (every agent
 * would then see their history): they move to queue `moveTo` in the same transaction, and while it has
 * tickets a delete without `moveTo` is refused with 400 ERR_QUEUE_HAS_TICKETS (`tickets` = how many).
 */
export function deleteQueue(deps: AppDeps, id: number, moveTo?: number) {
  const moved = deps.db.transaction((tx) => {
    if (!queueExists(tx, id)) throw notFound("ERR_NO_QUEUE_FOUND");
    if (moveTo !== undefined && (moveTo === id || !queueExists(tx, moveTo))) {
      throw new AppError("ERR_NO_QUEUE_FOUND", 400);
    }
    // Only active tickets sit in live lists; closed ones move silently.
    const { held, active } = ticketsInQueue(tx, id);
    if (held > 0 && moveTo === undefined) throw new AppError("ERR_QUEUE_HAS_TICKETS", 400, { tickets: held });
    if (held > 0) moveQueueTickets(tx, id, moveTo ?? null);
    tx.delete(queues).where(eq(queues.id, id)).run();
    return active;
  });
  deps.events.emit("queue.deleted", { queueId: id });
  const after = toTicketDtos(
    deps.db,
    moved.map((row) => ({ ...row, queueId: moveTo ?? null })),
  );
  after.forEach((ticket, i) => deps.events.emit("ticket.updated", { ticket, before: moved[i] }));
}

// ---- /chatbot: single options and their subtrees ----

/** GET /chatbot: every option that is not first-level. */
export function listChatbots(db: Db) {
  return db.select().from(chatbots).where(isNull(chatbots.queueId)).orderBy(asc(chatbots.id)).all();
}

/** An option with its parent (`mainChatbot`) and its subtree (`options`). */
export function showChatbot(db: Db, id: number) {
  const row = db.select().from(chatbots).where(eq(chatbots.id, id)).get();
  if (!row) throw notFound("ERR_NO_CHATBOT_FOUND");
  const mainChatbot = row.parentId
    ? (db.select().from(chatbots).where(eq(chatbots.id, row.parentId)).get() ?? null)
    : null;
  return { ...loadTrees(db, [row])[0]!, mainChatbot };
}

/** POST /chatbot: an option under `parentId`, or an orphan; the tree it joins stays within its depth limit. */
export function createChatbot(deps: AppDeps, input: QueueModel.CreateChatbot) {
  if (input.parentId) showChatbot(deps.db, input.parentId);
  checkOptions(deps.db, [input], input.parentId ? levelOf(deps.db, input.parentId) + 1 : 1);
  const id = deps.db.transaction((tx) => {
    const row = tx
      .insert(chatbots)
      .values({
        name: input.name.trim(),
        greetingMessage: input.greetingMessage ?? "",
        isAgent: input.isAgent ?? false,
        userId: input.userId || null,
        parentId: input.parentId || null,
      })
      .returning({ id: chatbots.id })
      .get();
    if (input.options) syncOptions(tx, { parentId: row.id }, input.options);
    return row.id;
  });
  const chatbot = showChatbot(deps.db, id);
  deps.events.emit("chatbot.updated", { chatbot });
  return chatbot;
}

/** PUT /chatbot/:id: updates the node and, when `options` is given, makes its children match. */
export function updateChatbot(deps: AppDeps, id: number, input: QueueModel.UpdateChatbot) {
  showChatbot(deps.db, id);
  checkOptions(deps.db, [{ name: "", ...input }], levelOf(deps.db, id));
  deps.db.transaction((tx) => {
    const set = {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.greetingMessage !== undefined ? { greetingMessage: input.greetingMessage } : {}),
      ...(input.isAgent !== undefined ? { isAgent: input.isAgent } : {}),
      ...(input.userId !== undefined ? { userId: input.userId || null } : {}),
    };
    if (Object.keys(set).length) tx.update(chatbots).set(set).where(eq(chatbots.id, id)).run();
    if (input.options) syncOptions(tx, { parentId: id }, input.options);
  });
  const chatbot = showChatbot(deps.db, id);
  deps.events.emit("chatbot.updated", { chatbot });
  return chatbot;
}

export function deleteChatbot(deps: AppDeps, id: number) {
  const row = deps.db.delete(chatbots).where(eq(chatbots.id, id)).returning({ id: chatbots.id }).get();
  if (!row) throw notFound("ERR_NO_CHATBOT_FOUND");
  deps.events.emit("chatbot.deleted", { chatbotId: id });
}
