import { count, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { queues, userQueues, users, whatsapps, type UserRow } from "../../db/schema";
import { FieldError } from "../../errors";
import type { Role } from "../../shared/permissions";

/** The user as every API answer shows it (never the hash or the token version). */
export interface UserDto {
  id: number;
  name: string;
  email: string;
  profile: Role;
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  queues: { id: number; name: string; color: string }[];
  createdAt: Date;
  updatedAt: Date;
}

/** The signed-in user as routes and sockets see it. */
export interface AuthUser {
  id: number;
  name: string;
  email: string;
  profile: Role;
  tokenVersion: number;
  whatsappId: number | null;
  queueIds: number[];
}

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).get();
}

export function findUserById(db: Db, id: number): UserRow | undefined {
  return db.select().from(users).where(eq(users.id, id)).get();
}

export function userQueueIds(db: Db, userId: number): number[] {
  return db
    .select({ queueId: userQueues.queueId })
    .from(userQueues)
    .where(eq(userQueues.userId, userId))
    .all()
    .map((r) => r.queueId);
}

export function loadAuthUser(db: Db, id: number): AuthUser | undefined {
  const row = findUserById(db, id);
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile,
    tokenVersion: row.tokenVersion,
    whatsappId: row.whatsappId,
    queueIds: userQueueIds(db, row.id),
  };
}

/** Serialises users with their queues and default connection in two extra queries, whatever the count. */
export function toUserDtos(db: Db, rows: UserRow[]): UserDto[] {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const queueLinks = db
    .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(inArray(userQueues.userId, ids))
    .orderBy(queues.id)
    .all();
  const whatsappIds = [...new Set(rows.map((r) => r.whatsappId).filter((v): v is number => v != null))];
  const connections = whatsappIds.length
    ? db.select({ id: whatsapps.id, name: whatsapps.name }).from(whatsapps).where(inArray(whatsapps.id, whatsappIds)).all()
    : [];
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    profile: row.profile,
    whatsappId: row.whatsappId,
    whatsapp: connections.find((c) => c.id === row.whatsappId) ?? null,
    queues: queueLinks.filter((q) => q.userId === row.id).map(({ id, name, color }) => ({ id, name, color })),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }));
}

export function toUserDto(db: Db, row: UserRow): UserDto {
  return toUserDtos(db, [row])[0]!;
}

export function countUsers(db: Db): number {
  return db.select({ n: count() }).from(users).get()?.n ?? 0;
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
export function insertUser(db: Db, input: NewUser): UserRow {
  const email = input.email.trim().toLowerCase();
  if (findUserByEmail(db, email)) throw new FieldError("email", EMAIL_TAKEN);
  return db.transaction((tx) => {
    const row = tx
      .insert(users)
      .values({ name: input.name.trim(), email, passwordHash: input.passwordHash, profile: input.profile, whatsappId: input.whatsappId ?? null })
      .returning()
      .get();
    if (input.queueIds?.length) tx.insert(userQueues).values(input.queueIds.map((queueId) => ({ userId: row.id, queueId }))).run();
    return row;
  });
}

export const EMAIL_TAKEN = "An user with this email already exists.";
