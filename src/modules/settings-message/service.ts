import { type Db, one } from "../../db/client";
import { eq, sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import { settingsMessage } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { keptReads } from "../../events/kept-reads";
import { AppError, FieldError } from "../../errors";
import { connectionExists, firstNonDefaultConnection } from "../connections/lookup";
import type { SettingsMessageModel } from "./model";

/** The connection's bulk-send throttling, or null when it was never saved. */
export async function getSettingsMessage(db: Db, connectionId: number) {
  return (await settingsOfConnection(db).get({ connectionId })) ?? null;
}

/**
 * Each connection's opt-out keyword ("" when none), read once per node: every inbound text is compared with it.
 * Saving a connection's bulk settings or deleting the connection, heard from every node, forgets it (keptReads).
 */
export function optOutKeywords(deps: Pick<AppDeps, "db" | "events">): (connectionId: number) => Promise<string> {
  return keptReads(
    deps.events,
    async (connectionId: number) => (await getSettingsMessage(deps.db, connectionId))?.optOut ?? "",
    (event) => {
      if (event.name === "bulkSettings.updated") return event.payload.setting.whatsappId;
      if (event.name === "connection.deleted") return event.payload.connectionId;
      return undefined;
    },
  );
}

/** The bulk-send throttling of the first connection that is not the default one, or null. */
export async function getFirstSettingsMessage(db: Db) {
  const connectionId = await firstNonDefaultConnection(db);
  return connectionId === undefined ? null : await getSettingsMessage(db, connectionId);
}

const settingsOfConnection = prepared((db) =>
  db
    .select()
    .from(settingsMessage)
    .where(eq(settingsMessage.whatsappId, sql.placeholder("connectionId")))
    .prepare(),
);

/** POST /settingsMessage: upserts every field for the connection; admins are told. */
export async function saveSettingsMessage(deps: AppDeps, input: SettingsMessageModel.Save) {
  if (!(await connectionExists(deps.db, input.whatsappId))) throw new AppError("ERR_NO_WAPP_FOUND", 404);
  if (input.seconds !== undefined && input.seconds >= 60) throw new FieldError("seconds", "max");
  const contacts = input.contacts ?? input.contact;
  const values = {
    ...(input.limit !== undefined ? { limit: input.limit } : {}),
    ...(input.minutes !== undefined ? { minutes: input.minutes } : {}),
    ...(input.seconds !== undefined ? { seconds: input.seconds } : {}),
    ...(contacts !== undefined ? { contacts } : {}),
    ...(input.photo !== undefined ? { photo: input.photo } : {}),
    ...(input.random !== undefined ? { random: input.random } : {}),
    ...(input.optOut !== undefined ? { optOut: input.optOut } : {}),
  };
  const setting = await one(
    deps.db
      .insert(settingsMessage)
      .values({ whatsappId: input.whatsappId, ...values })
      .onConflictDoUpdate({ target: settingsMessage.whatsappId, set: { ...values, updatedAt: new Date() } })
      .returning(),
  );
  deps.events.emit("bulkSettings.updated", { setting });
  return setting;
}
