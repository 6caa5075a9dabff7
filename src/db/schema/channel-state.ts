import { blob, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { connections } from "./connections";

/** Baileys credentials, one JSON row per connection (BufferJSON encoded). */
export const waAuthCreds = sqliteTable("wa_auth_creds", {
  whatsappId: integer("whatsapp_id")
    .primaryKey()
    .references(() => connections.id, { onDelete: "cascade" }),
  creds: text("creds").notNull(),
  updatedAt: updatedAt(),
});

/** Baileys signal keys, stored verbatim by (type, id). */
export const waAuthKeys = sqliteTable(
  "wa_auth_keys",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    keyId: text("key_id").notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.type, t.keyId] })],
);

/** What a Baileys connection sent (proto.Message bytes), kept 30 days to answer WhatsApp's retry receipts. */
export const waSentMessages = sqliteTable(
  "wa_sent_messages",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    wid: text("wid").notNull(),
    content: blob("content", { mode: "buffer" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.wid] }), index("wa_sent_messages_created_idx").on(t.createdAt)],
);

/**
 * Every inbound WhatsApp event of a Baileys connection, written as it is received and before WhatsApp is told it
 * arrived where Baileys allows it. A row is deleted once the event is handled (its message stored and its media
 * settled); rows left by a stop or a crash are handled again at the next start, and handling is idempotent.
 */
export const inboundJournal = sqliteTable(
  "inbound_journal",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** The Baileys event as JSON (bytes as BufferJSON, Longs as numbers). */
    payload: text("payload").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("inbound_journal_whatsapp_idx").on(t.whatsappId, t.id)],
);

/**
 * The id the Cloud API gave (`wamid…`) each message a cloud connection sent, by the id it was stored under here:
 * statuses name the former, quotes and reactions the latter; a message found here is never sent again.
 */
export const cloudSentMessages = sqliteTable(
  "wa_cloud_sent_messages",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    wid: text("wid").notNull(),
    wamid: text("wamid").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.wid] }),
    index("wa_cloud_sent_messages_wamid_idx").on(t.whatsappId, t.wamid),
  ],
);

/** The sandbox network's record of every message a simulated phone exchanged with a sandbox connection. */
export const sandboxMessages = sqliteTable(
  "sandbox_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    wid: text("wid").notNull().unique(),
    direction: text("direction", { enum: ["in", "out"] }).notNull(),
    peer: text("peer").notNull(),
    groupId: text("group_id"),
    body: text("body").notNull().default(""),
    mediaType: text("media_type"),
    fileName: text("file_name"),
    mediaPath: text("media_path"),
    quotedId: text("quoted_id"),
    ack: integer("ack").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index("sandbox_messages_peer_idx").on(t.whatsappId, t.peer, t.id)],
);

/**
 * Which node runs each WhatsApp connection when several share the database: the holder renews its lease every
 * few seconds; a lease left to expire (its node died) or released (its node stopped) is taken by another node.
 */
export const connectionLeases = sqliteTable("connection_leases", {
  whatsappId: integer("whatsapp_id")
    .primaryKey()
    .references(() => connections.id, { onDelete: "cascade" }),
  nodeId: text("node_id").notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * What a node asked of a connection another node runs (a restart, a logout, a simulated phone's message): the
 * node holding the connection's lease carries each out, oldest first, and deletes it once done.
 */
export const connectionCommands = sqliteTable(
  "connection_commands",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    payload: text("payload").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("connection_commands_whatsapp_idx").on(t.whatsappId, t.id)],
);
