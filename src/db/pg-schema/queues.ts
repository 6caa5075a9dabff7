// Generated from src/db/schema/queues.ts by scripts/pg-schema.ts (npm run db:generate): do not edit by hand.
import { type AnyPgColumn, index, integer, primaryKey, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, updatedAt, bool } from "./columns";
import { connections } from "./connections";
import { users } from "./users";

export const queues = pgTable("queues", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  name: text("name").notNull().unique(),
  color: text("color").notNull().unique(),
  greetingMessage: text("greeting_message").notNull().default(""),
  /** SLA targets in minutes, 0 = none: an agent's first reply to the customer, the resolve (see tickets' SLA). */
  firstResponseMinutes: integer("first_response_minutes").notNull().default(0),
  resolutionMinutes: integer("resolution_minutes").notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A chatbot option: first-level options hang off a queue, deeper ones off a parent option. */
export const chatbots = pgTable(
  "chatbots",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    name: text("name").notNull(),
    greetingMessage: text("greeting_message").notNull().default(""),
    isAgent: bool("is_agent").notNull().default(false),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "cascade" }),
    parentId: integer("parent_id").references((): AnyPgColumn => chatbots.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("chatbots_queue_idx").on(t.queueId), index("chatbots_parent_idx").on(t.parentId)],
);

export const userQueues = pgTable(
  "user_queues",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.queueId] }), index("user_queues_queue_idx").on(t.queueId)],
);

export const connectionQueues = pgTable(
  "whatsapp_queues",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.queueId] }), index("whatsapp_queues_queue_idx").on(t.queueId)],
);

export type QueueRow = typeof queues.$inferSelect;

export type ChatbotRow = typeof chatbots.$inferSelect;
