import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { int64 } from "./columns";

/**
 * One request to the AI endpoint (epoch ms): what it was for, the model, the tokens its answer reported (or
 * estimated from the text when it reported none), how long it took and how it ended. A row is written when the
 * call starts (`running`), so the per-minute limit counts calls still in flight.
 */
export const aiCalls = sqliteTable(
  "ai_calls",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    feature: text("feature").notNull(),
    model: text("model").notNull(),
    ticketId: integer("ticket_id"),
    userId: integer("user_id"),
    status: text("status", { enum: ["running", "ok", "error"] })
      .notNull()
      .default("running"),
    error: text("error"),
    promptTokens: integer("prompt_tokens").notNull().default(0),
    completionTokens: integer("completion_tokens").notNull().default(0),
    durationMs: integer("duration_ms").notNull().default(0),
    startedAt: int64("started_at").notNull(),
  },
  (t) => [index("ai_calls_started_idx").on(t.startedAt)],
);

export type AiCallRow = typeof aiCalls.$inferSelect;
