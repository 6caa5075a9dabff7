import { first, type Reader } from "../../db/client";
import { count, eq, inArray, sql } from "drizzle-orm";
import { eachId, gatheredById, lookupEachKey } from "../../db/gathered";
import { prepared } from "../../db/prepared";
import { amongIdList, idList } from "../../db/index-hints";
import { type UserRow, userQueues, users } from "../../db/tables";
import type { AuthUser } from "../../shared/auth-user";

/** The user row by id. */
export async function findUserById(db: Reader, id: number): Promise<UserRow | undefined> {
  return await userById(db).get({ id });
}

const userById = prepared((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare(),
);

/** The queues the user works in. */
export async function userQueueIds(db: Reader, userId: number): Promise<number[]> {
  return (await queuesOfUser(db).all({ userId })).map((r) => r.queueId);
}

const queuesOfUser = prepared((db) =>
  db
    .select({ queueId: userQueues.queueId })
    .from(userQueues)
    .where(eq(userQueues.userId, sql.placeholder("userId")))
    .prepare(),
);

/** How many of `ids` (distinct) are users. */
export async function countKnownUsers(db: Reader, ids: readonly number[]): Promise<number> {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return 0;
  return (await first(db.select({ n: count() }).from(users).where(inArray(users.id, distinct))))?.n ?? 0;
}

/** Id and name of each of the users that exist among `ids`. */
export async function userNames(db: Reader, ids: readonly number[]): Promise<{ id: number; name: string }[]> {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return [];
  if (distinct.length === 1) return [await gatheredUserName(db, distinct[0]!)].filter((row) => row !== undefined);
  return await userNamesByIds(db).all({ ids: idList(distinct) });
}

const userNamesByIds = prepared((db) =>
  db.select({ id: users.id, name: users.name }).from(users).where(amongIdList(users.id, "ids")).prepare(),
);

const userNameById = prepared((db) =>
  db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare(),
);

const userNamesEachId = prepared((db) =>
  lookupEachKey(
    db,
    eachId("ids"),
    db.select({ id: users.id, name: users.name }).from(users).where(sql`${users.id} = k.id`),
  ),
);

const gatheredUserName = gatheredById<{ id: number; name: string }>(userNameById, userNamesEachId);

/** The user's own default connection, or null (no user, or none chosen). */
export async function userDefaultConnection(db: Reader, id: number): Promise<number | null> {
  return (await findUserById(db, id))?.whatsappId ?? null;
}

/** The user as ticket visibility sees them (profile and queues), or undefined when there is no such user. */
export async function viewerOf(
  db: Reader,
  id: number,
): Promise<Pick<AuthUser, "id" | "profile" | "queueIds"> | undefined> {
  const user = await findUserById(db, id);
  return user && { id, profile: user.profile, queueIds: await userQueueIds(db, id) };
}

/** Every user with their availability, for the dashboard's team list. */
export async function teamAvailability(
  db: Reader,
): Promise<Pick<UserRow, "id" | "name" | "profile" | "availability">[]> {
  return await db
    .select({ id: users.id, name: users.name, profile: users.profile, availability: users.availability })
    .from(users);
}
