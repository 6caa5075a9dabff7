import { and, asc, count, eq, ne, or } from "drizzle-orm";
import type { Db } from "../../db/client";
import { quickAnswers } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, notFound } from "../../errors";
import type { QuickAnswerDto } from "../../shared/contracts/quick-answers";
import { contains, hasMore, normalizeSearch, pageWindow } from "../../db/paging";
import type { QuickAnswerModel } from "./model";

/** One page of quick answers by shortcut, searched by shortcut or message (the "/" lookup in the chat input). */
export function listQuickAnswers(
  db: Db,
  opts: QuickAnswerModel.List,
): { quickAnswers: QuickAnswerDto[]; count: number; hasMore: boolean } {
  const search = normalizeSearch(opts.searchParam);
  const where = search
    ? or(contains(quickAnswers.shortcut, search), contains(quickAnswers.message, search))
    : undefined;
  const { limit, offset } = pageWindow(opts.pageNumber);
  const rows = db
    .select()
    .from(quickAnswers)
    .where(where)
    .orderBy(asc(quickAnswers.shortcut), asc(quickAnswers.id))
    .limit(limit)
    .offset(offset)
    .all();
  const total = db.select({ n: count() }).from(quickAnswers).where(where).get()?.n ?? 0;
  return { quickAnswers: rows, count: total, hasMore: hasMore(total, offset, rows.length) };
}

export function showQuickAnswer(db: Db, id: number) {
  const row = db.select().from(quickAnswers).where(eq(quickAnswers.id, id)).get();
  if (!row) throw notFound("ERR_NO_QUICK_ANSWER_FOUND");
  return row;
}

function assertShortcutFree(db: Db, shortcut: string, exceptId?: number) {
  const clash = db
    .select({ id: quickAnswers.id })
    .from(quickAnswers)
    .where(and(eq(quickAnswers.shortcut, shortcut), exceptId ? ne(quickAnswers.id, exceptId) : undefined))
    .get();
  if (clash) throw new AppError("ERR_SHORTCUT_DUPLICATED", 400);
}

export function createQuickAnswer(deps: AppDeps, input: QuickAnswerModel.Create) {
  const shortcut = input.shortcut.trim();
  assertShortcutFree(deps.db, shortcut);
  const quickAnswer = deps.db.insert(quickAnswers).values({ shortcut, message: input.message }).returning().get();
  deps.events.emit("quickAnswer.created", { quickAnswer });
  return quickAnswer;
}

export function updateQuickAnswer(deps: AppDeps, id: number, input: QuickAnswerModel.Update) {
  showQuickAnswer(deps.db, id);
  const shortcut = input.shortcut?.trim();
  if (shortcut !== undefined) assertShortcutFree(deps.db, shortcut, id);
  const quickAnswer = deps.db
    .update(quickAnswers)
    .set({
      ...(shortcut !== undefined ? { shortcut } : {}),
      ...(input.message !== undefined ? { message: input.message } : {}),
      updatedAt: new Date(),
    })
    .where(eq(quickAnswers.id, id))
    .returning()
    .get();
  deps.events.emit("quickAnswer.updated", { quickAnswer });
  return quickAnswer;
}

export function deleteQuickAnswer(deps: AppDeps, id: number) {
  const row = deps.db.delete(quickAnswers).where(eq(quickAnswers.id, id)).returning({ id: quickAnswers.id }).get();
  if (!row) throw notFound("ERR_NO_QUICK_ANSWER_FOUND");
  deps.events.emit("quickAnswer.deleted", { quickAnswerId: id });
}
