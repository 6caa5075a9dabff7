import { type SQLWrapper, sql } from "drizzle-orm";
import * as pg from "./pg-schema";
import * as sqlite from "./schema";

export type * from "./schema";

/** Whether a `DATABASE_URL` names a PostgreSQL database (else the data lives in SQLite under `DATA_DIR`). */
export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

/**
 * The tables the code queries, of the engine this process stores in: chosen once, from `DATABASE_URL`, before
 * any query is built. Both sets have the same names, columns and JavaScript values; the type is SQLite's.
 */
export const onPostgres = isPostgresUrl(process.env.DATABASE_URL);

export const tables = (onPostgres ? pg : sqlite) as unknown as typeof sqlite;

/** An instant as raw SQL and placeholders give it to a timestamp column: epoch ms on SQLite, a Date on PostgreSQL. */
export const storedInstant = (at: Date | number): Date | number =>
  onPostgres ? new Date(at) : typeof at === "number" ? at : at.getTime();

/** A timestamp column read as epoch milliseconds, on both engines. */
export const epochMs = (column: SQLWrapper) =>
  onPostgres ? sql<number>`(extract(epoch from ${column}) * 1000)::float8` : sql<number>`${column}`;

export const {
  jobLanes,
  chatbots,
  clusterSecrets,
  connectionCommands,
  connectionLeases,
  connectionPhonebook,
  connectionQueues,
  connections,
  contactExtraInfo,
  contacts,
  eventPayloads,
  importedRows,
  inboundJournal,
  jobs,
  massMessages,
  messageReactions,
  messages,
  optOuts,
  queues,
  quickAnswers,
  refreshFamilies,
  sandboxMessages,
  schedules,
  settings,
  settingsMessage,
  tags,
  ticketDialogs,
  ticketTags,
  tickets,
  userQueues,
  users,
  waAuthCreds,
  waAuthKeys,
  waSentMessages,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  webhookTicketStatus,
} = tables;
