import { atomically, type Db, first, one } from "../../db/client";
import { and, asc, eq, isNull, ne } from "drizzle-orm";
import { chatbots, queues } from "../../db/tables";
import { prepared } from "../../db/prepared";
import type { AppDeps } from "../../deps";
import { AppError, notFound } from "../../errors";
import type { QueueDto } from "../../shared/contracts/queues";
import { announceTicketEvents } from "../tickets/history-dtos";
import { moveQueueTickets, ticketsInQueue } from "../tickets/records";
import { toTicketDtos } from "../tickets/serialize";
import { assignWaiting } from "../tickets/assignment";
import { checkOptions, firstLevelOptions, levelOf, loadTrees, syncOptions } from "./chatbot-tree";
import { findQueue, queueExists } from "./lookup";
import type { QueueModel } from "./model";

/** GET /queue: every queue by id, without chatbots (an admin's every page of tickets asks too). */
export async function listQueues(db: Db): Promise<QueueDto[]> {
  return (await everyQueue(db).all()) as QueueDto[];
}

const everyQueue = prepared((db) => db.select().from(queues).orderBy(asc(queues.id)).prepare());

/** A queue with its whole chatbot tree. */
export async function showQueue(db: Db, id: number) {
  const queue = await findQueue(db, id);
  if (!queue) throw notFound("ERR_NO_QUEUE_FOUND");
  return { ...queue, chatbots: await loadTrees(db, await firstLevelOptions(db, [id])) };
}

async function assertUnique(db: Db, input: QueueModel.Update, exceptId?: number) {
  const others = async (column: typeof queues.name | typeof queues.color, value: string) =>
    await first(
      db
        .select({ id: queues.id })
        .from(queues)
        .where(and(eq(column, value), exceptId ? ne(queues.id, exceptId) : undefined)),
    );
  if (input.name !== undefined && (await others(queues.name, input.name.trim())))
    throw new AppError("ERR_QUEUE_NAME_ALREADY_EXISTS", 400);
  if (input.color !== undefined && (await others(queues.color, input.color.trim())))
    throw new AppError("ERR_QUEUE_COLOR_ALREADY_EXISTS", 400);
}

/** POST /queue: the queue and its nested options in one transaction. */
export async function createQueue(deps: AppDeps, input: QueueModel.Create) {
  await assertUnique(deps.db, input);
  await checkOptions(deps.db, input.chatbots);
  const id = await atomically(deps.db, async (tx) => {
    const row = await one(
      tx
        .insert(queues)
        .values({
          name: input.name.trim(),
          color: input.color.trim(),
          greetingMessage: input.greetingMessage ?? "",
          assignment: input.assignment ?? "manual",
          maxOpenPerAgent: input.maxOpenPerAgent ?? 0,
          ...slaTargets(input),
        })
        .returning({ id: queues.id }),
    );
    if (input.chatbots) await syncOptions(tx, { queueId: row.id }, input.chatbots);
    return row.id;
  });
  const queue = await showQueue(deps.db, id);
  deps.events.emit("queue.updated", { queue });
  return queue;
}

/** The SLA targets the input sets (see QueueDto). */
function slaTargets({ firstResponseMinutes, resolutionMinutes }: QueueModel.Update) {
  return {
    ...(firstResponseMinutes !== undefined ? { firstResponseMinutes } : {}),
    ...(resolutionMinutes !== undefined ? { resolutionMinutes } : {}),
  };
}

/** PUT /queue/:id: options are upserted by id and missing ones deleted with their subtrees; absent `chatbots` leaves them. */
export async function updateQueue(deps: AppDeps, id: number, input: QueueModel.Update) {
  await showQueue(deps.db, id);
  await assertUnique(deps.db, input, id);
  await checkOptions(deps.db, input.chatbots);
  await atomically(deps.db, async (tx) => {
    const set = {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.color !== undefined ? { color: input.color.trim() } : {}),
      ...(input.greetingMessage !== undefined ? { greetingMessage: input.greetingMessage } : {}),
      ...(input.assignment !== undefined ? { assignment: input.assignment } : {}),
      ...(input.maxOpenPerAgent !== undefined ? { maxOpenPerAgent: input.maxOpenPerAgent } : {}),
      ...slaTargets(input),
    };
    if (Object.keys(set).length) await tx.update(queues).set(set).where(eq(queues.id, id));
    if (input.chatbots) await syncOptions(tx, { queueId: id }, input.chatbots);
  });
  const queue = await showQueue(deps.db, id);
  deps.events.emit("queue.updated", { queue });
  return queue;
}

/**
 * DELETE /queue/:id: the chatbot tree goes with it. Its tickets must never become queue-less (every agent
 * would then see their history): they move to queue `moveTo` in the same transaction, and while it has
 * tickets a delete without `moveTo` is refused with 400 ERR_QUEUE_HAS_TICKETS (`tickets` = how many).
 */
export async function deleteQueue(deps: AppDeps, id: number, moveTo?: number, actorUserId: number | null = null) {
  const at = new Date(deps.clock.now());
  const { active: moved, events } = await atomically(deps.db, async (tx) => {
    if (!(await queueExists(tx, id))) throw notFound("ERR_NO_QUEUE_FOUND");
    if (moveTo !== undefined && (moveTo === id || !(await queueExists(tx, moveTo)))) {
      throw new AppError("ERR_NO_QUEUE_FOUND", 400);
    }
    // Only active tickets sit in live lists; closed ones move silently.
    const { held, active } = await ticketsInQueue(tx, id);
    if (held > 0 && moveTo === undefined) throw new AppError("ERR_QUEUE_HAS_TICKETS", 400, { tickets: held });
    const events = held > 0 ? await moveQueueTickets(tx, id, moveTo ?? null, at, actorUserId) : [];
    await tx.delete(queues).where(eq(queues.id, id));
    return { active, events };
  });
  deps.events.emit("queue.deleted", { queueId: id });
  const after = await toTicketDtos(
    deps.db,
    moved.map((row) => ({ ...row, queueId: moveTo ?? null })),
  );
  after.forEach((ticket, i) => deps.events.emit("ticket.updated", { ticket, before: moved[i] }));
  const activeIds = new Set(moved.map((ticket) => ticket.id));
  await announceTicketEvents(
    deps,
    events.filter((event) => activeIds.has(event.ticketId)),
  );
  if (moveTo !== undefined && moved.length) await assignWaiting(deps, moveTo);
}

// ---- /chatbot: single options and their subtrees ----

/** GET /chatbot: every option that is not first-level. */
export async function listChatbots(db: Db) {
  return await db.select().from(chatbots).where(isNull(chatbots.queueId)).orderBy(asc(chatbots.id));
}

/** An option with its parent (`mainChatbot`) and its subtree (`options`). */
export async function showChatbot(db: Db, id: number) {
  const row = await first(db.select().from(chatbots).where(eq(chatbots.id, id)));
  if (!row) throw notFound("ERR_NO_CHATBOT_FOUND");
  const mainChatbot = row.parentId
    ? ((await first(db.select().from(chatbots).where(eq(chatbots.id, row.parentId)))) ?? null)
    : null;
  return { ...(await loadTrees(db, [row]))[0]!, mainChatbot };
}

/** POST /chatbot: an option under `parentId`, or an orphan; the tree it joins stays within its depth limit. */
export async function createChatbot(deps: AppDeps, input: QueueModel.CreateChatbot) {
  if (input.parentId) await showChatbot(deps.db, input.parentId);
  await checkOptions(deps.db, [input], input.parentId ? (await levelOf(deps.db, input.parentId)) + 1 : 1);
  const id = await atomically(deps.db, async (tx) => {
    const row = await one(
      tx
        .insert(chatbots)
        .values({
          name: input.name.trim(),
          greetingMessage: input.greetingMessage ?? "",
          isAgent: input.isAgent ?? false,
          userId: input.userId || null,
          parentId: input.parentId || null,
        })
        .returning({ id: chatbots.id }),
    );
    if (input.options) await syncOptions(tx, { parentId: row.id }, input.options);
    return row.id;
  });
  const chatbot = await showChatbot(deps.db, id);
  deps.events.emit("chatbot.updated", { chatbot });
  return chatbot;
}

/** PUT /chatbot/:id: updates the node and, when `options` is given, makes its children match. */
export async function updateChatbot(deps: AppDeps, id: number, input: QueueModel.UpdateChatbot) {
  await showChatbot(deps.db, id);
  await checkOptions(deps.db, [{ name: "", ...input }], await levelOf(deps.db, id));
  await atomically(deps.db, async (tx) => {
    const set = {
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.greetingMessage !== undefined ? { greetingMessage: input.greetingMessage } : {}),
      ...(input.isAgent !== undefined ? { isAgent: input.isAgent } : {}),
      ...(input.userId !== undefined ? { userId: input.userId || null } : {}),
    };
    if (Object.keys(set).length) await tx.update(chatbots).set(set).where(eq(chatbots.id, id));
    if (input.options) await syncOptions(tx, { parentId: id }, input.options);
  });
  const chatbot = await showChatbot(deps.db, id);
  deps.events.emit("chatbot.updated", { chatbot });
  return chatbot;
}

export async function deleteChatbot(deps: AppDeps, id: number) {
  const row = await first(deps.db.delete(chatbots).where(eq(chatbots.id, id)).returning({ id: chatbots.id }));
  if (!row) throw notFound("ERR_NO_CHATBOT_FOUND");
  deps.events.emit("chatbot.deleted", { chatbotId: id });
}
