import { inArray } from "drizzle-orm";
import type { Reader } from "../../db/client";
import { tags } from "../../db/tables";

/** True when every one of `ids` (distinct) is a tag. */
export function allTagsExist(db: Reader, ids: readonly number[]): boolean {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return true;
  return db.select({ id: tags.id }).from(tags).where(inArray(tags.id, distinct)).all().length === distinct.length;
}
