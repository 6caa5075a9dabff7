import { type SQLWrapper, sql } from "drizzle-orm";
import type * as pg from "./pg-schema";
import * as sqlite from "./schema";

export type * from "./schema";

export type Engine = "sqlite" | "postgres";

/** Whether a `DATABASE_URL` names a PostgreSQL database (else the data lives in SQLite under `DATA_DIR`). */
export function isPostgresUrl(url: string | undefined): url is string {
  return !!url && /^postgres(ql)?:\/\//.test(url);
}

/**
 * The tables the code queries, of the engine this process stores in. SQLite's until the composition opens the
 * configured storage (`useEngine`, from `openStorage`); both sets have the same names, columns and JavaScript
 * values, and the type is SQLite's. Every export below is a live binding: code reads a table when it builds a
 * query, never when its module loads, so the choice made at composition reaches every query.
 */
export let onPostgres = false;
export let tables: typeof sqlite = sqlite;
let chosen: Engine | undefined;

/**
 * Makes `engine`'s tables the ones every query uses. A process stores in one engine: choosing the other after
 * a choice was made is refused, since queries already built and cached would mix the two.
 */
export function useEngine(engine: Engine) {
  if (chosen && chosen !== engine) throw new Error(`this process already stores in ${chosen}, not ${engine}`);
  chosen = engine;
  onPostgres = engine === "postgres";
  // PostgreSQL's tables are loaded when chosen: a SQLite server never builds them.
  tables = (onPostgres ? (require("./pg-schema") as typeof pg) : sqlite) as unknown as typeof sqlite;
  ({
    aiCalls,
    chatbots,
    cloudAccounts,
    cloudSentMessages,
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
    jobLanes,
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
    ticketDrafts,
    ticketEvents,
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
  } = tables);
}

/** An instant as raw SQL and placeholders give it to a timestamp column: epoch ms on SQLite, a Date on PostgreSQL. */
export const storedInstant = (at: Date | number): Date | number =>
  onPostgres ? new Date(at) : typeof at === "number" ? at : at.getTime();

/** A timestamp column read as epoch milliseconds, on both engines. */
export const epochMs = (column: SQLWrapper) =>
  onPostgres ? sql<number>`(extract(epoch from ${column}) * 1000)::float8` : sql<number>`${column}`;

export let aiCalls = sqlite.aiCalls;
export let chatbots = sqlite.chatbots;
export let cloudAccounts = sqlite.cloudAccounts;
export let cloudSentMessages = sqlite.cloudSentMessages;
export let clusterSecrets = sqlite.clusterSecrets;
export let connectionCommands = sqlite.connectionCommands;
export let connectionLeases = sqlite.connectionLeases;
export let connectionPhonebook = sqlite.connectionPhonebook;
export let connectionQueues = sqlite.connectionQueues;
export let connections = sqlite.connections;
export let contactExtraInfo = sqlite.contactExtraInfo;
export let contacts = sqlite.contacts;
export let eventPayloads = sqlite.eventPayloads;
export let importedRows = sqlite.importedRows;
export let inboundJournal = sqlite.inboundJournal;
export let jobLanes = sqlite.jobLanes;
export let jobs = sqlite.jobs;
export let massMessages = sqlite.massMessages;
export let messageReactions = sqlite.messageReactions;
export let messages = sqlite.messages;
export let optOuts = sqlite.optOuts;
export let queues = sqlite.queues;
export let quickAnswers = sqlite.quickAnswers;
export let refreshFamilies = sqlite.refreshFamilies;
export let sandboxMessages = sqlite.sandboxMessages;
export let schedules = sqlite.schedules;
export let settings = sqlite.settings;
export let settingsMessage = sqlite.settingsMessage;
export let tags = sqlite.tags;
export let ticketDialogs = sqlite.ticketDialogs;
export let ticketDrafts = sqlite.ticketDrafts;
export let ticketEvents = sqlite.ticketEvents;
export let ticketTags = sqlite.ticketTags;
export let tickets = sqlite.tickets;
export let userQueues = sqlite.userQueues;
export let users = sqlite.users;
export let waAuthCreds = sqlite.waAuthCreds;
export let waAuthKeys = sqlite.waAuthKeys;
export let waSentMessages = sqlite.waSentMessages;
export let webhookAttempts = sqlite.webhookAttempts;
export let webhookDeliveries = sqlite.webhookDeliveries;
export let webhookEndpoints = sqlite.webhookEndpoints;
export let webhookTicketStatus = sqlite.webhookTicketStatus;
