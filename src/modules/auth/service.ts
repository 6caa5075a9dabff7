import { atomically, lockKey } from "../../db/client";
import type { AppDeps } from "../../deps";
import type { UserRow } from "../../db/tables";
import { AppError } from "../../errors";
import { getSetting } from "../settings/service";
import { findUserById } from "../users/lookup";
import {
  bumpTokenVersion,
  countUsers,
  findUserByEmail,
  insertUser,
  replacePasswordHash,
  toUserDto,
} from "../users/service";
import { presentRefreshToken, revokeFamily, startFamily } from "./families";
import { userWithFamily } from "./session-user";
import type { LoginThrottle } from "./login-throttle";
import { generatePassword } from "./passwords";
import type { Tokens } from "./tokens";

const invalidCredentials = () => new AppError("ERR_INVALID_CREDENTIALS", 401);
const sessionExpired = () => new AppError("ERR_SESSION_EXPIRED", 401);

/**
 * Checks email and password from `address`, held to the login throttle; unknown email and wrong password are
 * refused the same way, after about the same time.
 */
export async function authenticate(
  deps: AppDeps,
  throttle: LoginThrottle,
  credentials: { email: string; password: string },
  address: string,
): Promise<UserRow> {
  const { email, password } = credentials;
  const attempt = throttle.begin(email, address);
  const user = await findUserByEmail(deps.db, email);
  if (!user) {
    // Spend comparable time on unknown emails so response times do not reveal which emails exist; past the
    // address's cap that time is waited, not spent hashing.
    if (attempt.pastAddressCap) await throttle.unknownEmailTurn(address, deps.passwords.typicalMs());
    else await deps.passwords.hash(password);
    throw invalidCredentials();
  }
  if (!(await deps.passwords.verify(password, user.passwordHash))) throw invalidCredentials();
  attempt.succeeded();
  // Accounts imported from whaticket arrive with bcrypt hashes: the first good login moves them to ours.
  if (user.passwordHash.startsWith("$2"))
    await replacePasswordHash(deps.db, user.id, await deps.passwords.hash(password));
  return user;
}

/** A signed-in device: its user and the refresh family (and generation) its next refresh token belongs to. */
export interface Session {
  user: UserRow;
  familyId: number;
  generation: number;
  /** The user's queues, read with a page's session (without rotation). */
  queueIds?: number[];
}

/** Starts a session for a user who just proved who they are. */
export async function startSession(deps: AppDeps, user: UserRow): Promise<Session> {
  const family = await startFamily(deps, user.id);
  return { user, familyId: family.id, generation: family.generation };
}

/**
 * The session behind a refresh token that is authentic, unexpired, not revoked and the current one of its
 * family; with `rotate` the family moves on, so this token stops working. A replaced token presented again
 * revokes its family (401), and that device's open sockets are closed.
 */
export async function sessionFromRefreshToken(
  deps: AppDeps,
  tokens: Tokens,
  token: string | undefined,
  opts: { rotate: boolean },
): Promise<Session> {
  const verified = await tokens.verifyRefresh(token);
  if (verified.status !== "ok") throw sessionExpired();
  // A page load only reads: the user, their queues and the claimed family come in one statement.
  const read = opts.rotate ? undefined : await userWithFamily(deps.db, verified.userId, verified.familyId!);
  const user = opts.rotate ? await findUserById(deps.db, verified.userId) : read?.user;
  if (!user || user.tokenVersion !== verified.tokenVersion) throw sessionExpired();
  const presented = await presentRefreshToken(
    deps,
    { userId: user.id, familyId: verified.familyId!, generation: verified.generation! },
    opts.rotate,
    read,
  );
  if (presented.status === "replayed") await announceSessionChange(deps, user.id);
  if (presented.status !== "current") throw sessionExpired();
  return { user, familyId: presented.familyId, generation: presented.generation, queueIds: read?.queueIds };
}

/** Revokes every access and refresh token of the user; the `user` event closes their open sockets. */
export async function revokeSessions(deps: AppDeps, userId: number) {
  await bumpTokenVersion(deps.db, userId);
  await announceSessionChange(deps, userId);
}

/**
 * Logout: ends only this device's session (its refresh family); tokens issued before sessions had families can
 * only be ended all at once. The `user` event makes the realtime layer close that device's sockets.
 */
export async function endDeviceSession(deps: AppDeps, user: { id: number; familyId?: number }) {
  if (user.familyId === undefined) return await revokeSessions(deps, user.id);
  await revokeFamily(deps, user.familyId);
  await announceSessionChange(deps, user.id);
}

async function announceSessionChange(deps: AppDeps, userId: number) {
  const row = await findUserById(deps.db, userId);
  if (row) deps.events.emit("user.sessionsChanged", { user: await toUserDto(deps.db, row) });
}

/** Public signup, when the `userCreation` setting allows it: always an agent without queues. */
export async function signup(deps: AppDeps, input: { name: string; email: string; password: string }) {
  if ((await getSetting(deps.db, "userCreation")) !== "enabled") throw new AppError("ERR_USER_CREATION_DISABLED", 403);
  const passwordHash = await deps.passwords.hash(input.password);
  const row = await insertUser(deps.db, { name: input.name, email: input.email, passwordHash, profile: "user" });
  const user = await toUserDto(deps.db, row);
  deps.events.emit("user.created", { user });
  return user;
}

/** On a database without users, creates the first admin; without a configured password one is generated and logged once. */
export async function ensureFirstAdmin(deps: AppDeps): Promise<void> {
  if ((await countUsers(deps.db)) > 0) return;
  const password = deps.config.adminPassword ?? generatePassword();
  const passwordHash = await deps.passwords.hash(password);
  // Nodes starting together on an empty database: the first creates the admin, the others find it there.
  const created = await atomically(deps.db, async (tx) => {
    await lockKey(tx, "first-admin");
    if ((await countUsers(tx)) > 0) return false;
    await insertUser(tx, { name: "Admin", email: deps.config.adminEmail, passwordHash, profile: "admin" });
    return true;
  });
  if (!created) return;
  if (deps.config.adminPassword) deps.log.info("created the first admin", { email: deps.config.adminEmail });
  else
    deps.log.warn(
      `created the first admin ${deps.config.adminEmail} with password ${password} (shown once: change it after logging in)`,
    );
}
