import { type Db, first, one, type Writer } from "../../db/client";
import { and, asc, eq, inArray, isNull, notInArray } from "drizzle-orm";
import { chatbots, type ChatbotRow } from "../../db/tables";
import { AppError, FieldError } from "../../errors";
import type { ChatbotDto } from "../../shared/contracts/queues";
import { countKnownUsers } from "../users/lookup";
import type { QueueModel } from "./model";

type ChatbotNode = ChatbotDto;

type Tx = Writer;
type Parent = { queueId: number } | { parentId: number };

/** Levels a chatbot tree may have; deeper trees are refused (deleting one would also overflow SQLite's cascade). */
const MAX_DEPTH = 10;

/**
 * Throws 400 when options would sit deeper than MAX_DEPTH (the given ones at `level`, their children one below)
 * or name users that do not exist.
 */
export async function checkOptions(db: Db, options: QueueModel.Option[] | undefined, level = 1) {
  if (!options) return;
  const userIds = new Set<number>();
  collectUsers(options, level, userIds);
  if (userIds.size && (await countKnownUsers(db, [...userIds])) !== userIds.size)
    throw new AppError("ERR_NO_USER_FOUND", 400);
}

function collectUsers(options: QueueModel.Option[], level: number, userIds: Set<number>) {
  if (level > MAX_DEPTH) throw new FieldError("options", "depth");
  for (const o of options) {
    if (o.userId) userIds.add(o.userId);
    if (o.options) collectUsers(o.options, level + 1, userIds);
  }
}

/** The level of an option in its tree: first-level options (and orphans) are at 1; counting stops past MAX_DEPTH. */
export async function levelOf(db: Db, id: number): Promise<number> {
  let level = 1;
  let parentId = (await first(db.select({ parentId: chatbots.parentId }).from(chatbots).where(eq(chatbots.id, id))))
    ?.parentId;
  while (parentId != null && level <= MAX_DEPTH) {
    level++;
    parentId = (await first(db.select({ parentId: chatbots.parentId }).from(chatbots).where(eq(chatbots.id, parentId))))
      ?.parentId;
  }
  return level;
}

const parentWhere = (p: Parent) =>
  "queueId" in p ? and(eq(chatbots.queueId, p.queueId), isNull(chatbots.parentId)) : eq(chatbots.parentId, p.parentId);

/**
 * Makes the children of `parent` match `options`: nodes with a known id are updated, the others created,
 * and existing children absent from the list are deleted with their subtrees. A node's `options`
 * left out means its children stay as they are.
 */
export async function syncOptions(tx: Tx, parent: Parent, options: QueueModel.Option[]) {
  const current = new Set(
    (await tx.select({ id: chatbots.id }).from(chatbots).where(parentWhere(parent))).map((r) => r.id),
  );
  const kept = options.filter((o) => o.id != null && current.has(o.id)).map((o) => o.id!);
  await tx.delete(chatbots).where(and(parentWhere(parent), kept.length ? notInArray(chatbots.id, kept) : undefined));
  for (const option of options) {
    const values = {
      name: option.name.trim(),
      greetingMessage: option.greetingMessage ?? "",
      isAgent: option.isAgent ?? false,
      userId: option.userId || null,
    };
    let id: number;
    if (option.id != null && current.has(option.id)) {
      id = option.id;
      await tx.update(chatbots).set(values).where(eq(chatbots.id, id));
    } else {
      const link =
        "queueId" in parent
          ? { queueId: parent.queueId, parentId: null }
          : { queueId: null, parentId: parent.parentId };
      id = (
        await one(
          tx
            .insert(chatbots)
            .values({ ...values, ...link })
            .returning({ id: chatbots.id }),
        )
      ).id;
    }
    if (option.options) await syncOptions(tx, { parentId: id }, option.options);
  }
}

const toNode = (row: ChatbotRow): ChatbotNode => ({
  id: row.id,
  name: row.name,
  greetingMessage: row.greetingMessage,
  isAgent: row.isAgent,
  userId: row.userId,
  queueId: row.queueId,
  parentId: row.parentId,
  options: [],
});

/** The subtrees under `roots`, loaded one level per query, every level ordered by id. */
export async function loadTrees(db: Db, roots: ChatbotRow[]): Promise<ChatbotNode[]> {
  const nodes = roots.map(toNode);
  let level = nodes;
  for (let depth = 0; level.length && depth <= MAX_DEPTH + 1; depth++) {
    const byId = new Map(level.map((n) => [n.id, n]));
    const rows = await db
      .select()
      .from(chatbots)
      .where(inArray(chatbots.parentId, [...byId.keys()]))
      .orderBy(asc(chatbots.id));
    const next = rows.map(toNode);
    for (const child of next) byId.get(child.parentId!)!.options.push(child);
    level = next;
  }
  return nodes;
}

/** First-level options of these queues, ordered by id. */
export async function firstLevelOptions(db: Db, queueIds: number[]) {
  if (!queueIds.length) return [];
  return await db
    .select()
    .from(chatbots)
    .where(and(inArray(chatbots.queueId, queueIds), isNull(chatbots.parentId)))
    .orderBy(asc(chatbots.id));
}
