import { eq, inArray } from "drizzle-orm";
import { randomSecret } from "../../config";
import { type Db, first, type Reader, type Writer } from "../../db/client";
import { type CloudAccountRow, cloudAccounts } from "../../db/tables";
import type { CloudAccountFields } from "../../shared/contracts/connections";

const FIELDS = ["phoneNumberId", "businessAccountId", "accessToken", "appSecret", "verifyToken"] as const;

/** The Cloud API fields of a create or change input, apart from the connection's own. */
export function splitCloudFields<T extends CloudAccountFields>(input: T) {
  const { phoneNumberId, businessAccountId, accessToken, appSecret, verifyToken, ...rest } = input;
  const cloud: CloudAccountFields = { phoneNumberId, businessAccountId, accessToken, appSecret, verifyToken };
  for (const key of FIELDS) if (cloud[key] === undefined) delete cloud[key];
  return { cloud, rest };
}

/** Whether a change touches what the connection signs in to the Cloud API with (then it starts again). */
export const changesSignIn = (cloud: CloudAccountFields) =>
  cloud.phoneNumberId !== undefined || cloud.accessToken !== undefined;

/** Writes the given fields of the connection's account; a new account gets a verify token unless one is given. */
export async function saveCloudAccount(tx: Writer, connectionId: number, fields: CloudAccountFields) {
  const { verifyToken, ...others } = Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [key, (value as string).trim()]),
  ) as CloudAccountFields;
  const changes = verifyToken ? { ...others, verifyToken } : others;
  const insert = tx
    .insert(cloudAccounts)
    .values({ whatsappId: connectionId, ...changes, verifyToken: verifyToken || randomSecret(24) });
  if (Object.keys(changes).length) await insert.onConflictDoUpdate({ target: cloudAccounts.whatsappId, set: changes });
  else await insert.onConflictDoNothing();
}

/** The accounts of the given connections, by connection id. */
export async function cloudAccountsOf(db: Reader, ids: number[]): Promise<Map<number, CloudAccountRow>> {
  if (!ids.length) return new Map();
  const rows = await db.select().from(cloudAccounts).where(inArray(cloudAccounts.whatsappId, ids));
  return new Map(rows.map((row) => [row.whatsappId, row]));
}

export async function cloudAccountOf(db: Db, id: number): Promise<CloudAccountRow | undefined> {
  return await first(db.select().from(cloudAccounts).where(eq(cloudAccounts.whatsappId, id)));
}

/** An account as a connection shows it: the ids to anyone who sees the connection, the secrets only when asked. */
export function presentCloudAccount(account: CloudAccountRow | undefined, secrets: boolean): CloudAccountFields {
  if (!account) return {};
  const ids = { phoneNumberId: account.phoneNumberId, businessAccountId: account.businessAccountId };
  if (!secrets) return ids;
  return { ...ids, accessToken: account.accessToken, appSecret: account.appSecret, verifyToken: account.verifyToken };
}
