import { and, count, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { type Db, pgRootOf } from "../../db/client";
import { preparedPerCount } from "../../db/prepared";
import { ticketTags, tickets } from "../../db/tables";

/**
 * Whether the tickets carrying every tag of `tagIds` are few enough to read as a set, each looked up, rather than
 * met walking the list in page order. A lookup costs about fifty index entries; a walk meets a full count's worth
 * of them after (count cap × tickets / carriers) entries; both cost the same when carriers² is about fifty times
 * the tickets (2,200 carriers among 100,000 tickets). The highest ticket id stands for the number of tickets.
 */
export async function fewTagged(db: Db, tagIds: number[] | undefined): Promise<boolean> {
  if (!tagIds?.length) return false;
  const distinct = [...new Set(tagIds)];
  const known = answersOf(db);
  const key = [...distinct].sort((a, b) => a - b).join(",");
  const answer = known.get(key);
  if (answer && ++answer.uses < PROBE_EVERY) return answer.few;
  const values = Object.fromEntries(distinct.map((id, i) => [`tag${i}`, id]));
  const found = await carriersProbe(db, distinct.length).get(values);
  const few = Number(found?.n ?? 0) <= Number(found?.few ?? 0);
  if (known.size >= KNOWN_TAG_SETS) known.clear();
  known.set(key, { few, uses: 0 });
  return few;
}

/**
 * A tag set's answer serves this many lists before the set is probed again: the answer only picks how the list is
 * read, never what it holds, and a tag's carriers grow or shrink slowly, so most lists are spared the probe's
 * round trip before their own statements.
 */
const PROBE_EVERY = 50;
/** Tag sets whose answers are kept per database, at most (the lists ask for a few; anyone may ask for any). */
const KNOWN_TAG_SETS = 1_000;

const answers = new WeakMap<object, Map<string, { few: boolean; uses: number }>>();

/** The answers kept for the database under `db` (its pool on PostgreSQL, whatever transaction `db` is in). */
function answersOf(db: Db) {
  const root = pgRootOf(db) ?? db;
  let known = answers.get(root);
  if (!known) answers.set(root, (known = new Map()));
  return known;
}

/** The probe of `fewTagged` for that many tags, one prepared statement that also reads the highest ticket id. */
const carriersProbe = preparedPerCount((db, tags) => {
  const few = sql<number>`(select cast(ceil(sqrt(50.0 * coalesce(max(${tickets.id}), 0))) as integer) from ${tickets})`;
  const tagIds = Array.from({ length: tags }, (_, i) => sql.placeholder(`tag${i}`) as unknown as number);
  const carriers = carrying(db, tagIds)
    .limit(sql`${few} + 1` as unknown as number)
    .as("carriers");
  return db.select({ n: count(), few }).from(carriers).prepare();
});

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
