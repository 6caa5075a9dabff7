import { type Db, first, one } from "../../db/client";
import { and, asc, count, eq, ne, or } from "drizzle-orm";
import { quickAnswers } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, notFound } from "../../errors";
import type { QuickAnswerDto } from "../../shared/contracts/quick-answers";
import { contains, hasMore, normalizeSearch, pageWindow } from "../../db/paging";
import type { QuickAnswerModel } from "./model";

/** One page of quick answers by shortcut, searched by shortcut or message (the "/" lookup in the chat input). */
export async function listQuickAnswers(
  db: Db,
  opts: QuickAnswerModel.List,
): Promise<{ quickAnswers: QuickAnswerDto[]; count: number; hasMore: boolean }> {
  const search = normalizeSearch(opts.searchParam);
  const where = search
    ? or(contains(quickAnswers.shortcut, search), contains(quickAnswers.message, search))
    : undefined;
  const { limit, offset } = pageWindow(opts.pageNumber);
  const rows = await db
    .select()
    .from(quickAnswers)
    .where(where)
    .orderBy(asc(quickAnswers.shortcut), asc(quickAnswers.id))
    .limit(limit)
    .offset(offset);
  const total = (await first(db.select({ n: count() }).from(quickAnswers).where(where)))?.n ?? 0;
  return { quickAnswers: rows, count: total, hasMore: hasMore(total, offset, rows.length) };
}

export async function showQuickAnswer(db: Db, id: number) {
  const row = await first(db.select().from(quickAnswers).where(eq(quickAnswers.id, id)));
  if (!row) throw notFound("ERR_NO_QUICK_ANSWER_FOUND");
  return row;
}

async function assertShortcutFree(db: Db, shortcut: string, exceptId?: number) {
  const clash = await first(
    db
      .select({ id: quickAnswers.id })
      .from(quickAnswers)
      .where(and(eq(quickAnswers.shortcut, shortcut), exceptId ? ne(quickAnswers.id, exceptId) : undefined)),
  );
  if (clash) throw new AppError("ERR_SHORTCUT_DUPLICATED", 400);
}

export async function createQuickAnswer(deps: AppDeps, input: QuickAnswerModel.Create) {
  const shortcut = input.shortcut.trim();
  await assertShortcutFree(deps.db, shortcut);
  const quickAnswer = await one(deps.db.insert(quickAnswers).values({ shortcut, message: input.message }).returning());
  deps.events.emit("quickAnswer.created", { quickAnswer });
  return quickAnswer;
}

export async function updateQuickAnswer(deps: AppDeps, id: number, input: QuickAnswerModel.Update) {
  await showQuickAnswer(deps.db, id);
  const shortcut = input.shortcut?.trim();
  if (shortcut !== undefined) await assertShortcutFree(deps.db, shortcut, id);
  const quickAnswer = await one(
    deps.db
      .update(quickAnswers)
      .set({
        ...(shortcut !== undefined ? { shortcut } : {}),
        ...(input.message !== undefined ? { message: input.message } : {}),
        updatedAt: new Date(),
      })
      .where(eq(quickAnswers.id, id))
      .returning(),
  );
  deps.events.emit("quickAnswer.updated", { quickAnswer });
  return quickAnswer;
}

export async function deleteQuickAnswer(deps: AppDeps, id: number) {
  const row = await first(
    deps.db.delete(quickAnswers).where(eq(quickAnswers.id, id)).returning({ id: quickAnswers.id }),
  );
  if (!row) throw notFound("ERR_NO_QUICK_ANSWER_FOUND");
  deps.events.emit("quickAnswer.deleted", { quickAnswerId: id });
}
