import type { Config } from "../../config";
import { closeDatabase } from "../../db/client";
import { createLogger, type Logger } from "../../log";
import { openStorage } from "../storage";
import { importContacts, importMessages, importSchedules, importTickets } from "./conversation-steps";
import { Ledger, type TableCount } from "./ledger";
import {
  importChatbots,
  importConnections,
  importQueues,
  importQuickAnswers,
  importSettings,
  importTags,
  importUsers,
  type StepContext,
} from "./setup-steps";
import { WhaticketSource } from "./source";

export interface ImportReport {
  /** Per whaticket table: rows brought in, rows that were here already, rows left out (no number, no ticket, ...). */
  tables: Record<string, TableCount>;
}

/**
 * Copies a whaticket installation (its PostgreSQL or MySQL database, and optionally its public media folder) into
 * this inbox's database (SQLite or PostgreSQL). Tables go in dependency order, each page in one transaction that
 * also records what it brought, so running it again (after a stop, or to pick up what changed) adds only what is
 * new.
 */
export async function importWhaticket(
  config: Pick<Config, "databasePath" | "dataDir" | "mediaDir"> & Partial<Pick<Config, "databaseUrl">>,
  url: string,
  opts: { mediaDir?: string; now?: Date; onTable?: (table: string) => void; log?: Logger } = {},
): Promise<ImportReport> {
  const source = new WhaticketSource(url);
  const db = await openStorage(config, opts.log ?? createLogger("info"));
  try {
    const ledger = new Ledger(db);
    const ctx: StepContext = { db, source, ledger, now: opts.now ?? new Date() };
    const steps: [string, () => Promise<void>][] = [
      ["connections", () => importConnections(ctx)],
      ["queues", () => importQueues(ctx)],
      ["users", () => importUsers(ctx)],
      ["chatbot options", () => importChatbots(ctx)],
      ["quick answers", () => importQuickAnswers(ctx)],
      ["tags", () => importTags(ctx)],
      ["settings", () => importSettings(ctx)],
      ["contacts", () => importContacts(ctx)],
      ["tickets", () => importTickets(ctx)],
      ["messages", () => importMessages(ctx, { from: opts.mediaDir, to: config.mediaDir })],
      ["schedules", () => importSchedules(ctx)],
    ];
    for (const [name, step] of steps) {
      opts.onTable?.(name);
      await step();
    }
    return { tables: ledger.counts };
  } finally {
    await source.close();
    await closeDatabase(db);
  }
}
