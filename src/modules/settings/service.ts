import { atomically, type Db, one } from "../../db/client";
import { eq, inArray, sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import type { AppDeps } from "../../deps";
import { settings } from "../../db/tables";
import { AppError } from "../../errors";
import { isSettingKey, SETTING_DEFINITIONS, SETTING_KEYS, type SettingKey } from "../../shared/settings";

/** Creates missing setting rows with their defaults; existing values are kept (idempotent, runs at every start). */
export async function seedSettings(db: Db) {
  const rows = SETTING_KEYS.map((key) => ({ key, value: SETTING_DEFINITIONS[key].default ?? crypto.randomUUID() }));
  await db.insert(settings).values(rows).onConflictDoNothing();
}

/** The setting's stored value, or its default when the row is missing. */
export async function getSetting(db: Db, key: SettingKey): Promise<string> {
  const row = await settingByKey(db).get({ key });
  return row?.value ?? SETTING_DEFINITIONS[key].default ?? "";
}

const settingByKey = prepared((db) =>
  db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, sql.placeholder("key")))
    .prepare(),
);

/** The global settings; values other modules keep in the table (`readOwnSetting`) are never listed. */
export async function listSettingRows(db: Db) {
  return await db.select().from(settings).where(inArray(settings.key, SETTING_KEYS)).orderBy(sql`${settings.key}`);
}

/**
 * A value another module keeps in the settings table under a key of its own (not a global setting: GET /settings
 * never lists it and no event announces it, so it may hold a secret); undefined when none is stored.
 */
export async function readOwnSetting(db: Db, key: string): Promise<string | undefined> {
  if (isSettingKey(key)) throw new Error(`${key} is a global setting`);
  return (await settingByKey(db).get({ key }))?.value;
}

/** Stores such a value (`null` removes it). */
export async function writeOwnSetting(db: Db, key: string, value: string | null) {
  if (isSettingKey(key)) throw new Error(`${key} is a global setting`);
  if (value === null) await db.delete(settings).where(eq(settings.key, key));
  else
    await db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
}

type Writer = Pick<AppDeps, "db" | "events">;

/** Writes a setting after checking the key exists and the value is one it allows; admins are told. */
export async function updateSetting({ db, events }: Writer, key: string, value: string) {
  if (!isSettingKey(key)) throw new AppError("ERR_NO_SETTING_FOUND", 404);
  const allowed: readonly string[] | null = SETTING_DEFINITIONS[key].allowed;
  if (allowed ? !allowed.includes(value) : value.trim().length < 8)
    throw new AppError("ERR_INVALID_SETTING_VALUE", 400, { allowed });
  const setting = await one(
    db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } })
      .returning(),
  );
  events.emit("settings.updated", { setting });
  return setting;
}

/** Replaces the external API token with a new random one; the old token stops working at once. */
export async function regenerateApiToken({ db, events }: Writer) {
  const value = crypto.randomUUID();
  const setting = await atomically(
    db,
    async (tx) =>
      await one(
        tx
          .insert(settings)
          .values({ key: "userApiToken", value })
          .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } })
          .returning(),
      ),
  );
  events.emit("settings.updated", { setting });
  return setting;
}
