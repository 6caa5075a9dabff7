import { count, eq, inArray, sql } from "drizzle-orm";
import type { Reader } from "../../db/client";
import { prepared } from "../../db/prepared";
import { type UserRow, userQueues, users } from "../../db/tables";
import type { AuthUser } from "../../shared/auth-user";

/** The user row by id. */
export function findUserById(db: Reader, id: number): UserRow | undefined {
  return userById(db).get({ id });
}

const userById = prepared((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare(),
);

/** The queues the user works in. */
export function userQueueIds(db: Reader, userId: number): number[] {
  return queuesOfUser(db)
    .all({ userId })
    .map((r) => r.queueId);
}

const queuesOfUser = prepared((db) =>
  db
    .select({ queueId: userQueues.queueId })
    .from(userQueues)
    .where(eq(userQueues.userId, sql.placeholder("userId")))
    .prepare(),
);

/** How many of `ids` (distinct) are users. */
export function countKnownUsers(db: Reader, ids: readonly number[]): number {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return 0;
  return db.select({ n: count() }).from(users).where(inArray(users.id, distinct)).get()?.n ?? 0;
}

/** Id and name of each of the users that exist among `ids`. */
export function userNames(db: Reader, ids: readonly number[]): { id: number; name: string }[] {
  const distinct = [...new Set(ids)];
  if (!distinct.length) return [];
  if (distinct.length === 1) return userNameById(db).all({ id: distinct[0] });
  return db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, distinct)).all();
}

const userNameById = prepared((db) =>
  db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare(),
);

/** The user's own default connection, or null (no user, or none chosen). */
export function userDefaultConnection(db: Reader, id: number): number | null {
  return findUserById(db, id)?.whatsappId ?? null;
}

/** The user as ticket visibility sees them (profile and queues), or undefined when there is no such user. */
export function viewerOf(db: Reader, id: number): Pick<AuthUser, "id" | "profile" | "queueIds"> | undefined {
  const user = findUserById(db, id);
  return user && { id, profile: user.profile, queueIds: userQueueIds(db, id) };
}

/** True when at least one agent (not an admin) has an account. */
export function anyAgent(db: Reader): boolean {
  return !!db.select({ id: users.id }).from(users).where(eq(users.profile, "user")).get();
}
