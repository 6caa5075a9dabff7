import { eq, sql } from "drizzle-orm";
import type { AppDeps } from "../../deps";
import { users, type UserRow } from "../../db/schema";
import { AppError } from "../../errors";
import { getSetting } from "../settings/service";
import { countUsers, findUserByEmail, findUserById, insertUser, toUserDto } from "../users/service";
import { generatePassword, hashPassword, verifyPassword } from "./passwords";
import type { Tokens } from "./tokens";

const invalidCredentials = () => new AppError("ERR_INVALID_CREDENTIALS", 401);
const sessionExpired = () => new AppError("ERR_SESSION_EXPIRED", 401);

/** Checks email and password; unknown email and wrong password are refused the same way. */
export async function authenticate(deps: AppDeps, email: string, password: string): Promise<UserRow> {
  const user = findUserByEmail(deps.db, email);
  if (!user) {
    // Spend comparable time on unknown emails so response times do not reveal which emails exist.
    await hashPassword(password, deps.config.passwordHashing);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(password, user.passwordHash))) throw invalidCredentials();
  return user;
}

/** The user behind a refresh token, if the token is authentic, unexpired and not revoked. */
export async function userFromRefreshToken(deps: AppDeps, tokens: Tokens, token: string | undefined): Promise<UserRow> {
  const verified = await tokens.verifyRefresh(token);
  if (verified.status !== "ok") throw sessionExpired();
  const user = findUserById(deps.db, verified.userId);
  if (!user || user.tokenVersion !== verified.tokenVersion) throw sessionExpired();
  return user;
}

/** Revokes every access and refresh token of the user; the `user` event closes their open sockets. */
export function revokeSessions(deps: AppDeps, userId: number) {
  const row = deps.db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId))
    .returning()
    .get();
  if (row) deps.hub.publish(`user:${userId}`, "user", { action: "update", user: toUserDto(deps.db, row) });
}

/** Public signup, when the `userCreation` setting allows it: always an agent without queues. */
export async function signup(deps: AppDeps, input: { name: string; email: string; password: string }): Promise<UserRow> {
  if (getSetting(deps.db, "userCreation") !== "enabled") throw new AppError("ERR_USER_CREATION_DISABLED", 403);
  const passwordHash = await hashPassword(input.password, deps.config.passwordHashing);
  return insertUser(deps.db, { name: input.name, email: input.email, passwordHash, profile: "user" });
}

/** On a database without users, creates the first admin; without a configured password one is generated and logged once. */
export async function ensureFirstAdmin(deps: AppDeps): Promise<void> {
  if (countUsers(deps.db) > 0) return;
  const password = deps.config.adminPassword ?? generatePassword();
  const passwordHash = await hashPassword(password, deps.config.passwordHashing);
  insertUser(deps.db, { name: "Admin", email: deps.config.adminEmail, passwordHash, profile: "admin" });
  if (deps.config.adminPassword) deps.log.info("created the first admin", { email: deps.config.adminEmail });
  else deps.log.warn(`created the first admin ${deps.config.adminEmail} with password ${password} (shown once: change it after logging in)`);
}
