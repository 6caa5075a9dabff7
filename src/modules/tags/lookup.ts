import { inArray } from "drizzle-orm";
import type { Reader } from "../../db/client";
import { tags } from "../../db/tables";

/** True when every one of `ids` (distinct) is a tag. */
export async function allTagsExist(db: Reader, ids: readonly number[]): Promise<boolean> {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return true;
  return (await db.select({ id: tags.id }).from(tags).where(inArray(tags.id, distinct))).length === distinct.length;
}
