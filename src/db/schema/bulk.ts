import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt, bool, int64 } from "./columns";
import { connections } from "./connections";

/** One bulk-send record per recipient (the shipping report). */
export const massMessages = sqliteTable(
  "mass_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    whatsappId: integer("whatsapp_id").references(() => connections.id, { onDelete: "cascade" }),
    phone: text("phone").notNull(),
    message: text("message").notNull(),
    status: text("status").notNull().default("pending"),
    /** A template (TemplateMessage as JSON) sent instead of the message when the Cloud API's 24-hour window is closed. */
    template: text("template"),
    /** The network id chosen for this record's message before it is stored: decides, after a crash, whether it was. */
    wid: text("wid"),
    /** Epoch ms when the record was sent: the 24 h limit counts these. */
    sentAt: int64("sent_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("mass_messages_sent_idx").on(t.whatsappId, t.sentAt),
    index("mass_messages_whatsapp_status_idx").on(t.whatsappId, t.status, t.id),
    index("mass_messages_created_idx").on(t.createdAt),
  ],
);

/** Bulk-send throttling per connection. */
export const settingsMessage = sqliteTable("settings_message", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  whatsappId: integer("whatsapp_id")
    .notNull()
    .unique()
    .references(() => connections.id, { onDelete: "cascade" }),
  limit: integer("limit").notNull().default(10),
  minutes: integer("minutes").notNull().default(1),
  seconds: integer("seconds").notNull().default(0),
  contacts: bool("contacts").notNull().default(false),
  photo: bool("photo").notNull().default(false),
  random: bool("random").notNull().default(false),
  optOut: text("opt_out").notNull().default(""),
  sendToday: integer("send_today").notNull().default(0),
  status: text("status").notNull().default("active"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Numbers that sent a connection's opt-out keyword: bulk sends skip them. */
export const optOuts = sqliteTable(
  "opt_outs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    number: text("number").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("opt_outs_whatsapp_number_idx").on(t.whatsappId, t.number)],
);

export type MassMessageRow = typeof massMessages.$inferSelect;
