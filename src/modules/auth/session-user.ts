import { and, eq, sql } from "drizzle-orm";
import type { Reader } from "../../db/client";
import { prepared } from "../../db/prepared";
import { type RefreshFamilyRow, refreshFamilies, type UserRow, userQueues, users } from "../../db/tables";
import type { AuthUser } from "../../shared/auth-user";

/**
 * The user behind a session as stored now, or undefined once that session ended: the user was deleted, all
 * their sessions were revoked (token version), or this device logged out or replayed a refresh token (family).
 * The user, their queues and the family are read in one statement: every request asks.
 */
export async function currentSessionUser(
  db: Reader,
  session: Pick<AuthUser, "id" | "tokenVersion" | "familyId">,
): Promise<AuthUser | undefined> {
  const rows = await sessionRows(db).all({ id: session.id, familyId: session.familyId ?? 0 });
  const row = rows[0];
  if (!row || row.tokenVersion !== session.tokenVersion) return undefined;
  const { queueId: _queue, familyFound: _family, revokedAt: _revoked, ...stored } = row;
  const user = { ...stored, queueIds: rows.flatMap((r) => (r.queueId == null ? [] : [r.queueId])) };
  if (session.familyId === undefined) return user;
  return row.familyFound != null && !row.revokedAt ? { ...user, familyId: session.familyId } : undefined;
}

const userQueueLinks = () => eq(userQueues.userId, users.id);

/** The refresh family the session claims, when it is the user's. */
const claimedFamily = () =>
  and(eq(refreshFamilies.id, sql.placeholder("familyId")), eq(refreshFamilies.userId, users.id));

/** One row per queue of the user (one with no queue when they have none), each with the family as found. */
const sessionRows = prepared((db) =>
  db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      profile: users.profile,
      tokenVersion: users.tokenVersion,
      whatsappId: users.whatsappId,
      queueId: userQueues.queueId,
      familyFound: refreshFamilies.id,
      revokedAt: refreshFamilies.revokedAt,
    })
    .from(users)
    .leftJoin(userQueues, userQueueLinks())
    .leftJoin(refreshFamilies, claimedFamily())
    .where(eq(users.id, sql.placeholder("id")))
    .prepare(),
);

/**
 * A page's session as stored: the user's row and queue ids, and the refresh family claimed when it is theirs, in one
 * statement (a page load reads them before anything else); undefined when the user is gone.
 */
export async function userWithFamily(
  db: Reader,
  userId: number,
  familyId: number,
): Promise<{ user: UserRow; queueIds: number[]; family: RefreshFamilyRow | undefined } | undefined> {
  const rows = await userFamilyRows(db).all({ id: userId, familyId });
  const row = rows[0];
  if (!row) return undefined;
  const queueIds = rows.flatMap((r) => (r.queueId == null ? [] : [r.queueId]));
  return { user: row.user, queueIds, family: row.family ?? undefined };
}

const userFamilyRows = prepared((db) =>
  db
    .select({ user: users, queueId: userQueues.queueId, family: refreshFamilies })
    .from(users)
    .leftJoin(userQueues, userQueueLinks())
    .leftJoin(refreshFamilies, claimedFamily())
    .where(eq(users.id, sql.placeholder("id")))
    .prepare(),
);
