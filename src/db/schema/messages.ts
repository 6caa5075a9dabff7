import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt, bool } from "./columns";
import { connections } from "./connections";
import { users } from "./users";
import { contacts } from "./contacts";
import { tickets } from "./tickets";

export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The network's message id (WhatsApp key id); unique per connection so re-deliveries are idempotent. */
    wid: text("wid").notNull(),
    whatsappId: integer("whatsapp_id").references(() => connections.id, { onDelete: "set null" }),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    body: text("body").notNull().default(""),
    fromMe: bool("from_me").notNull().default(false),
    read: bool("read").notNull().default(false),
    ack: integer("ack").notNull().default(0),
    mediaType: text("media_type").notNull().default("chat"),
    mediaUrl: text("media_url"),
    mediaMime: text("media_mime"),
    fileName: text("file_name"),
    /** Inbound media not in `mediaUrl` yet: `downloading` until its file is stored, `unavailable` when it could not be. */
    mediaState: text("media_state", { enum: ["downloading", "unavailable"] }),
    isDeleted: bool("is_deleted").notNull().default(false),
    /** The sender edited the text after sending it. */
    isEdited: bool("is_edited").notNull().default(false),
    /** An agent's private note on the ticket: shown to the team in the history, never sent to the contact. */
    isPrivate: bool("is_private").notNull().default(false),
    quotedMsgId: integer("quoted_msg_id").references((): AnySQLiteColumn => messages.id, { onDelete: "set null" }),
    remoteJid: text("remote_jid"),
    participant: text("participant"),
    senderName: text("sender_name"),
    /** The agent who typed this message in the panel (not the bot, greetings, farewells, surveys or the phone). */
    userId: integer("user_id"),
    dataJson: text("data_json"),
    /**
     * Delivery of a message sent from here: `queued` waits for its connection, `sending` is being handed to the
     * network, `sent` was handed over, `failed` waits for a retry. Null for everything the network reported.
     */
    sendState: text("send_state", { enum: ["queued", "sending", "sent", "failed"] }),
    /** Why the last send failed: an error code (ERR_SENDING_WAPP_MSG, ERR_WAPP_MSG_REJECTED). */
    sendError: text("send_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("messages_whatsapp_wid_unique").on(t.whatsappId, t.wid),
    index("messages_send_state_idx").on(t.sendState, t.whatsappId),
    index("messages_ticket_created_idx").on(t.ticketId, t.createdAt),
    index("messages_ticket_read_idx").on(t.ticketId, t.read),
    // Reports: the agents' messages over a span of days, counted per agent and ticket from the index alone.
    index("messages_agent_created_idx")
      .on(t.createdAt, t.userId, t.ticketId, t.isPrivate)
      .where(sql`user_id is not null`),
  ],
);

export const quickAnswers = sqliteTable("quick_answers", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  shortcut: text("shortcut").notNull().unique(),
  message: text("message").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const schedules = sqliteTable(
  "schedules",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    body: text("body").notNull(),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    sendAt: integer("send_at", { mode: "timestamp_ms" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    status: text("status", { enum: ["PENDENTE", "AGENDADA", "ENVIADA", "ERRO"] })
      .notNull()
      .default("PENDENTE"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** A template (TemplateMessage as JSON) sent instead of the body when the Cloud API's 24-hour window is closed. */
    template: text("template"),
    /** The message this schedule stored in its ticket, so a repeated run never stores a second one. */
    messageId: integer("message_id").references(() => messages.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("schedules_status_send_idx").on(t.status, t.sendAt), index("schedules_created_idx").on(t.createdAt)],
);

/** Emoji reactions to a message: one per reactor (the contact's phone digits, or "me" for this connection). */
export const messageReactions = sqliteTable(
  "message_reactions",
  {
    messageId: integer("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    reactor: text("reactor").notNull(),
    emoji: text("emoji").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.reactor] })],
);

export type MessageRow = typeof messages.$inferSelect;

export type ScheduleRow = typeof schedules.$inferSelect;
