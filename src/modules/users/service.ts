import { atomically, type Db, first, lockKey, one } from "../../db/client";
import type { AuthUser } from "../../shared/auth-user";
import { and, count, desc, eq, inArray, notInArray, or, sql } from "drizzle-orm";
import { userQueues, users, type UserRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { AppError, FieldError, forbidden, notFound } from "../../errors";
import type { UserDto } from "../../shared/contracts/users";
import { can, type Role } from "../../shared/permissions";
import { checkField, RULES } from "../../shared/validation";
import { revokeOtherFamilies, sessionStartedAt } from "../auth/families";
import type { LoginAttempt } from "../auth/login-throttle";
import { connectionExists, connectionSummaries } from "../connections/lookup";
import { assertQueuesExist, queueSummaries } from "../queues/lookup";
import { openTicketIdsOf } from "../tickets/records";
import { applyTicketChanges } from "../tickets/service";
import { contains, hasMore, normalizeSearch, pageWindow } from "../../db/paging";
import { findUserById, userQueueIds } from "./lookup";

/** Also here for the pages that look a user up through the users service. */
export { findUserById };
import type { UserModel } from "./model";

export type { UserDto };

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return await first(db.select().from(users).where(eq(users.email, email.trim().toLowerCase())));
}

export async function loadAuthUser(db: Db, id: number): Promise<AuthUser | undefined> {
  // Read at once: on PostgreSQL each query is a round trip.
  const [row, queueIds] = await Promise.all([findUserById(db, id), userQueueIds(db, id)]);
  return row && authUserOf(row, queueIds);
}

/** The signed-in user of a row already read (a page's session) and their queues. */
export function authUserOf(row: UserRow, queueIds: number[]): AuthUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile,
    tokenVersion: row.tokenVersion,
    whatsappId: row.whatsappId,
    queueIds,
  };
}

/** Serialises users with their queues and default connection in three extra queries, whatever the count. */
export async function toUserDtos(db: Db, rows: UserRow[]): Promise<UserDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const links = await db
    .select({ userId: userQueues.userId, queueId: userQueues.queueId })
    .from(userQueues)
    .where(inArray(userQueues.userId, ids));
  const queueList = await queueSummaries(
    db,
    links.map((l) => l.queueId),
  );
  const queuesOf = (userId: number) =>
    queueList
      .filter((q) => links.some((l) => l.userId === userId && l.queueId === q.id))
      .map(({ id, name, color }) => ({ id, name, color }));
  const connections = (
    await connectionSummaries(
      db,
      rows.map((r) => r.whatsappId).filter((v): v is number => v != null),
    )
  ).map(({ id, name }) => ({ id, name }));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile,
    whatsappId: row.whatsappId,
    whatsapp: connections.find((c) => c.id === row.whatsappId) ?? null,
    queues: queuesOf(row.id),
    availability: row.availability,
    availabilityChangedAt: row.availabilityChangedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }));
}

export async function toUserDto(db: Db, row: UserRow): Promise<UserDto> {
  return (await toUserDtos(db, [row]))[0]!;
}

export async function countUsers(db: Db): Promise<number> {
  return (await first(db.select({ n: count() }).from(users)))?.n ?? 0;
}

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
  profile: Role;
  whatsappId?: number | null;
  queueIds?: number[];
}

/** Inserts a user and their queue links in one transaction; the email must be free (checked here). */
export async function insertUser(db: Db, input: NewUser): Promise<UserRow> {
  const email = input.email.trim().toLowerCase();
  if (await findUserByEmail(db, email)) throw new FieldError("email", "unique");
  return await atomically(db, async (tx) => {
    const row = await one(
      tx
        .insert(users)
        .values({
          name: input.name.trim(),
          email,
          passwordHash: input.passwordHash,
          profile: input.profile,
          whatsappId: input.whatsappId ?? null,
        })
        .returning(),
    );
    if (input.queueIds?.length)
      await tx.insert(userQueues).values(input.queueIds.map((queueId) => ({ userId: row.id, queueId })));
    return row;
  });
}

/** One page of users, newest first, searched by name or email. */
export async function listUsers(db: Db, opts: UserModel.List) {
  const search = normalizeSearch(opts.searchParam);
  const where = search ? or(contains(users.name, search), contains(users.email, search)) : undefined;
  const { limit, offset } = pageWindow(opts.pageNumber);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit)
    .offset(offset);
  const total = (await first(db.select({ n: count() }).from(users).where(where)))?.n ?? 0;
  return { users: await toUserDtos(db, rows), count: total, hasMore: hasMore(total, offset, rows.length) };
}

export async function showUser(db: Db, id: number): Promise<UserDto> {
  const row = await findUserById(db, id);
  if (!row) throw notFound("ERR_NO_USER_FOUND");
  return await toUserDto(db, row);
}

async function assertConnectionExists(db: Db, connectionId: number | null | undefined) {
  if (connectionId == null) return;
  if (!(await connectionExists(db, connectionId))) throw new AppError("ERR_NO_WAPP_FOUND", 400);
}

/** POST /users (admins): an agent unless `profile` says otherwise. */
export async function createUser(deps: AppDeps, input: UserModel.Create): Promise<UserDto> {
  await assertQueuesExist(deps.db, input.queueIds ?? []);
  await assertConnectionExists(deps.db, input.whatsappId || null);
  if (await findUserByEmail(deps.db, input.email)) throw new FieldError("email", "unique");
  const passwordHash = await deps.passwords.hash(input.password);
  const row = await insertUser(deps.db, {
    name: input.name,
    email: input.email,
    passwordHash,
    profile: input.profile ?? "user",
    whatsappId: input.whatsappId || null,
    queueIds: [...new Set(input.queueIds ?? [])],
  });
  const user = await toUserDto(deps.db, row);
  deps.events.emit("user.created", { user });
  return user;
}

export type UserChanges = UserModel.Update;

/** Tracks wrong current passwords like wrong logins, so a borrowed session can't be used to guess the password. */
/** Where a check of the current password is counted (the login throttle, for the caller's email and address). */
export interface PasswordAttempts {
  begin(): LoginAttempt;
}

/** How long after a password login its session may change the password without typing the current one. */
const RECENT_LOGIN_MS = 10 * 60_000;

/**
 * PUT /users/:id. Anyone may edit their own name, email and password; everything else, and other users,
 * needs `users:manage`. Changing one's own password needs the current one (an admin resetting someone else's
 * does not). A password change bumps `tokenVersion` (every session of that user ends).
 */
export async function updateUser(
  deps: AppDeps,
  actor: AuthUser,
  id: number,
  changes: UserChanges,
  attempts?: PasswordAttempts,
): Promise<UserDto> {
  const row = await findUserById(deps.db, id);
  if (!row) throw notFound("ERR_NO_USER_FOUND");
  const admin = can(actor.profile, "users:manage");
  if (!admin) {
    if (actor.id !== id) throw forbidden();
    const currentQueues = (await userQueueIds(deps.db, id)).sort().join(",");
    const changesProfile = changes.profile !== undefined && changes.profile !== row.profile;
    const changesQueues =
      changes.queueIds !== undefined && [...new Set(changes.queueIds)].sort().join(",") !== currentQueues;
    const changesConnection = changes.whatsappId !== undefined && (changes.whatsappId || null) !== row.whatsappId;
    if (changesProfile || changesQueues || changesConnection) throw forbidden();
  }
  if (changes.password) {
    const problem = checkField(RULES.password, changes.password);
    if (problem) throw FieldError.of("password", problem);
    if (actor.id === id) await assertMayChangeOwnPassword(deps, actor, row, changes.currentPassword, attempts);
  }
  if (changes.queueIds) await assertQueuesExist(deps.db, changes.queueIds);
  if (changes.whatsappId !== undefined) await assertConnectionExists(deps.db, changes.whatsappId || null);
  const email = changes.email?.trim().toLowerCase();
  if (email && email !== row.email && (await findUserByEmail(deps.db, email))) throw new FieldError("email", "unique");
  const demotes = admin && changes.profile === "user" && row.profile === "admin";
  const passwordHash = changes.password ? await deps.passwords.hash(changes.password) : undefined;
  const profileChanged = changes.profile !== undefined && changes.profile !== row.profile;
  // A new password of one's own keeps this device signed in and ends the user's other sessions; a password
  // set by an admin, or a new role, ends them all.
  const keptSession = passwordHash && actor.id === id && !profileChanged ? actor.familyId : undefined;
  await atomically(deps.db, async (tx) => {
    if (demotes) await assertNotLastAdmin(tx, true);
    await tx
      .update(users)
      .set({
        ...(changes.name !== undefined ? { name: changes.name.trim() } : {}),
        ...(email ? { email } : {}),
        ...(passwordHash ? { passwordHash } : {}),
        ...(admin && changes.profile !== undefined ? { profile: changes.profile } : {}),
        ...(admin && changes.whatsappId !== undefined ? { whatsappId: changes.whatsappId || null } : {}),
        ...((passwordHash && keptSession === undefined) || profileChanged
          ? { tokenVersion: sql`${users.tokenVersion} + 1` }
          : {}),
        updatedAt: new Date(),
      })
      .where(eq(users.id, id));
    if (keptSession !== undefined) await revokeOtherFamilies(tx, id, keptSession, deps.clock.now());
    if (admin && changes.queueIds !== undefined) {
      // Kept memberships keep their row: its `lastTurn` is the member's place in the queue's round-robin.
      const ids = [...new Set(changes.queueIds)];
      await tx
        .delete(userQueues)
        .where(and(eq(userQueues.userId, id), ids.length ? notInArray(userQueues.queueId, ids) : undefined));
      if (ids.length)
        await tx
          .insert(userQueues)
          .values(ids.map((queueId) => ({ userId: id, queueId })))
          .onConflictDoNothing();
    }
  });
  const user = await showUser(deps.db, id);
  deps.events.emit("user.updated", { user });
  return user;
}

/**
 * One's own password changes with the current one, or without it within 10 minutes of signing in with a
 * password on this device (the whaticket family's profile form has no field for it).
 */
async function assertMayChangeOwnPassword(
  deps: AppDeps,
  actor: AuthUser,
  row: UserRow,
  given: string | undefined,
  attempts?: PasswordAttempts,
) {
  if (!given) {
    const signedInAt = actor.familyId === undefined ? undefined : await sessionStartedAt(deps, actor.familyId);
    if (signedInAt !== undefined && deps.clock.now() - signedInAt < RECENT_LOGIN_MS) return;
    throw new AppError("ERR_RECENT_LOGIN_REQUIRED", 400, { field: "currentPassword" });
  }
  const attempt = attempts?.begin();
  if (!(await deps.passwords.verify(given, row.passwordHash)))
    throw new AppError("ERR_WRONG_PASSWORD", 400, { field: "currentPassword" });
  attempt?.succeeded();
}

/**
 * Refuses to take away the last admin. `locked`, inside the transaction that demotes or deletes one: two admins
 * removing each other at once take turns, so the second sees the first's change.
 */
async function assertNotLastAdmin(db: Db, locked = false) {
  if (locked) await lockKey(db, "admins");
  const admins = (await first(db.select({ n: count() }).from(users).where(eq(users.profile, "admin"))))?.n ?? 0;
  if (admins <= 1) throw new AppError("ERR_LAST_ADMIN", 400);
}

/** DELETE /users/:id: their open tickets go back to pending in their queue, then the row goes. */
export async function deleteUser(deps: AppDeps, actor: AuthUser, id: number) {
  const row = await findUserById(deps.db, id);
  if (!row) throw notFound("ERR_NO_USER_FOUND");
  if (row.id === actor.id) throw new AppError("ERR_CANNOT_DELETE_SELF", 400);
  if (row.profile === "admin") await assertNotLastAdmin(deps.db);
  // Their open conversations go back to their queue's waiting list, unread state untouched.
  for (const ticketId of await openTicketIdsOf(deps.db, id))
    await applyTicketChanges(deps, ticketId, { status: "pending", userId: null }, { actor, markRead: false });
  await atomically(deps.db, async (tx) => {
    if (row.profile === "admin") await assertNotLastAdmin(tx, true);
    await tx.delete(users).where(eq(users.id, id));
  });
  deps.events.emit("user.deleted", { userId: id });
}

/** Ends every session of the user: tokens of the previous version are refused from now on. */
/** Stores a new hash of the same password (an imported bcrypt hash moving to this server's algorithm). */
export async function replacePasswordHash(db: Db, id: number, passwordHash: string) {
  await db.update(users).set({ passwordHash }).where(eq(users.id, id));
}

export async function bumpTokenVersion(db: Db, id: number) {
  await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, id));
}
