import { inArray } from "drizzle-orm";
import { randomSecret } from "../../config";
import type { Db } from "../../db/client";
import { clusterSecrets } from "../../db/tables";

const NAMES = ["jwtSecret", "jwtRefreshSecret"] as const;

/**
 * The token signing secrets of every node on this database: the first node to start stores random ones, the
 * others read them (inserting never replaces a stored one, so nodes starting together agree).
 */
export async function sharedSecrets(db: Db): Promise<{ jwtSecret: string; jwtRefreshSecret: string }> {
  await db
    .insert(clusterSecrets)
    .values(NAMES.map((name) => ({ name, value: randomSecret() })))
    .onConflictDoNothing();
  const rows = await db
    .select()
    .from(clusterSecrets)
    .where(inArray(clusterSecrets.name, [...NAMES]));
  const value = (name: string) => rows.find((r) => r.name === name)!.value;
  return { jwtSecret: value("jwtSecret"), jwtRefreshSecret: value("jwtRefreshSecret") };
}
