import { type Db, first, one } from "../../db/client";
import { and, asc, count, eq, ne, or } from "drizzle-orm";
import { tags, type TagRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, forbidden, notFound } from "../../errors";
import { contains, hasMore, normalizeSearch, pageWindow } from "../../db/paging";
import type { TagDto } from "../../shared/contracts/tags";
import { can } from "../../shared/permissions";
import { taggedTicketCounts } from "../tickets/records";
import type { AuthUser } from "../../shared/auth-user";
import type { TagModel } from "./model";

const DEFAULT_COLOR = "#eee";

/** Adds `ticketsCount` (distinct linked tickets) to each tag in one query. */
async function withCounts(db: Db, rows: TagRow[]): Promise<TagDto[]> {
  if (!rows.length) return [];
  const byTag = await taggedTicketCounts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ ...row, ticketsCount: byTag.get(row.id) ?? 0 }));
}

const searchWhere = (searchParam?: string) => {
  const search = normalizeSearch(searchParam);
  return search ? or(contains(tags.name, search), contains(tags.color, search)) : undefined;
};

/** One page of tags by name, searched by name or colour. */
export async function listTags(db: Db, opts: TagModel.List) {
  const where = searchWhere(opts.searchParam);
  const { limit, offset } = pageWindow(opts.pageNumber);
  const rows = await db
    .select()
    .from(tags)
    .where(where)
    .orderBy(asc(tags.name), asc(tags.id))
    .limit(limit)
    .offset(offset);
  const total = (await first(db.select({ n: count() }).from(tags).where(where)))?.n ?? 0;
  return { tags: await withCounts(db, rows), count: total, hasMore: hasMore(total, offset, rows.length) };
}

/** Every tag by name (filters), optionally searched. */
export async function listAllTags(db: Db, searchParam?: string) {
  return await withCounts(
    db,
    await db.select().from(tags).where(searchWhere(searchParam)).orderBy(asc(tags.name), asc(tags.id)),
  );
}

export async function showTag(db: Db, id: number) {
  const row = await first(db.select().from(tags).where(eq(tags.id, id)));
  if (!row) throw notFound("ERR_NO_TAG_FOUND");
  return (await withCounts(db, [row]))[0]!;
}

async function assertNameFree(db: Db, name: string, exceptId?: number) {
  const clash = await first(
    db
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.name, name), exceptId ? ne(tags.id, exceptId) : undefined)),
  );
  if (clash) throw new AppError("ERR_TAG_NAME_ALREADY_EXISTS", 400);
}

export async function createTag(deps: AppDeps, userId: number, input: TagModel.Create) {
  const name = input.name.trim();
  await assertNameFree(deps.db, name);
  const row = await one(
    deps.db
      .insert(tags)
      .values({ name, color: input.color?.trim() || DEFAULT_COLOR, userId })
      .returning(),
  );
  const tag = (await withCounts(deps.db, [row]))[0]!;
  deps.events.emit("tag.created", { tag });
  return tag;
}

/** A tag is changed by whoever created it, or with `tags:edit` (admins). */
function assertMayChange(actor: AuthUser, tag: TagRow) {
  if (tag.userId !== actor.id && !can(actor.profile, "tags:edit")) throw forbidden();
}

export async function updateTag(deps: AppDeps, actor: AuthUser, id: number, input: TagModel.Update) {
  assertMayChange(actor, await showTag(deps.db, id));
  const name = input.name?.trim();
  if (name !== undefined) await assertNameFree(deps.db, name, id);
  const set = {
    ...(name !== undefined ? { name } : {}),
    ...(input.color !== undefined ? { color: input.color.trim() || DEFAULT_COLOR } : {}),
  };
  if (Object.keys(set).length) await deps.db.update(tags).set(set).where(eq(tags.id, id));
  const tag = await showTag(deps.db, id);
  deps.events.emit("tag.updated", { tag });
  return tag;
}

export async function deleteTag(deps: AppDeps, actor: AuthUser, id: number) {
  assertMayChange(actor, await showTag(deps.db, id));
  await deps.db.delete(tags).where(eq(tags.id, id));
  deps.events.emit("tag.deleted", { tagId: id });
}
