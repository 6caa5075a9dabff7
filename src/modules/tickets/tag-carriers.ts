import { and, count, eq, max } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { type Db, first } from "../../db/client";
import { ticketTags, tickets } from "../../db/tables";

/**
 * Whether the tickets carrying every tag of `tagIds` are few enough to read as a set, each looked up, rather than
 * met walking the list in page order. A lookup costs about fifty index entries; a walk meets a full count's worth
 * of them after (count cap × tickets / carriers) entries; both cost the same when carriers² is about fifty times
 * the tickets (2,200 carriers among 100,000 tickets). The highest ticket id stands for the number of tickets.
 */
export async function fewTagged(db: Db, tagIds: number[] | undefined): Promise<boolean> {
  if (!tagIds?.length) return false;
  const highest = (await first(db.select({ id: max(tickets.id) }).from(tickets)))?.id ?? 0;
  const few = Math.ceil(Math.sqrt(50 * highest));
  const carriers = carrying(db, [...new Set(tagIds)])
    .limit(few + 1)
    .as("carriers");
  return ((await first(db.select({ n: count() }).from(carriers)))?.n ?? 0) <= few;
}

/**
 * The ids of the tickets carrying every tag of `tagIds` (not empty): the first tag's links, each checked for the
 * other tags by the link table's key.
 */
export function carrying(db: Db, tagIds: number[]) {
  const [first, ...others] = tagIds as [number, ...number[]];
  let query = db.select({ ticketId: ticketTags.ticketId }).from(ticketTags).$dynamic();
  others.forEach((tagId, i) => {
    const other = alias(ticketTags, `also_${i}`);
    query = query.innerJoin(other, and(eq(other.ticketId, ticketTags.ticketId), eq(other.tagId, tagId)));
  });
  return query.where(eq(ticketTags.tagId, first));
}
