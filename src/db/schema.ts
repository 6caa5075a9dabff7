import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  blob,
  check,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { PROVIDERS } from "../shared/contracts/providers";

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
const createdAt = () => integer("created_at", { mode: "timestamp_ms" }).notNull().default(now);
const updatedAt = () =>
  integer("updated_at", { mode: "timestamp_ms" })
    .notNull()
    .default(now)
    .$onUpdate(() => new Date());
const bool = (name: string) => integer(name, { mode: "boolean" });

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  profile: text("profile", { enum: ["admin", "user"] })
    .notNull()
    .default("user"),
  tokenVersion: integer("token_version").notNull().default(0),
  whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const whatsapps = sqliteTable("whatsapps", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  provider: text("provider", { enum: PROVIDERS }).notNull().default("baileys"),
  number: text("number").notNull().default(""),
  status: text("status").notNull().default("OPENING"),
  qrcode: text("qrcode").notNull().default(""),
  retries: integer("retries").notNull().default(0),
  isDefault: bool("is_default").notNull().default(false),
  isMultidevice: bool("is_multidevice").notNull().default(true),
  greetingMessage: text("greeting_message").notNull().default(""),
  farewellMessage: text("farewell_message").notNull().default(""),
  transferTicketMessage: text("transfer_ticket_message").notNull().default(""),
  outOfWorkMessage: text("out_of_work_message").notNull().default(""),
  wavoip: text("wavoip").notNull().default(""),
  defineWorkHours: bool("define_work_hours").notNull().default(false),
  startWorkHour: text("start_work_hour").notNull().default("08:00"),
  endWorkHour: text("end_work_hour").notNull().default("17:30"),
  startWorkHourWeekend: text("start_work_hour_weekend").notNull().default("08:00"),
  endWorkHourWeekend: text("end_work_hour_weekend").notNull().default("17:30"),
  monday: bool("monday").notNull().default(true),
  tuesday: bool("tuesday").notNull().default(true),
  wednesday: bool("wednesday").notNull().default(true),
  thursday: bool("thursday").notNull().default(true),
  friday: bool("friday").notNull().default(true),
  saturday: bool("saturday").notNull().default(false),
  sunday: bool("sunday").notNull().default(false),
  /** When the phone sends its chat history after pairing, the last `importHistoryDays` days become closed tickets. */
  importHistory: bool("import_history").notNull().default(false),
  importHistoryDays: integer("import_history_days").notNull().default(7),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const queues = sqliteTable("queues", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  color: text("color").notNull().unique(),
  greetingMessage: text("greeting_message").notNull().default(""),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A chatbot option: first-level options hang off a queue, deeper ones off a parent option. */
export const chatbots = sqliteTable(
  "chatbots",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    greetingMessage: text("greeting_message").notNull().default(""),
    isAgent: bool("is_agent").notNull().default(false),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "cascade" }),
    parentId: integer("parent_id").references((): AnySQLiteColumn => chatbots.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("chatbots_queue_idx").on(t.queueId), index("chatbots_parent_idx").on(t.parentId)],
);

export const userQueues = sqliteTable(
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

export const whatsappQueues = sqliteTable(
  "whatsapp_queues",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    queueId: integer("queue_id")
      .notNull()
      .references(() => queues.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.queueId] }), index("whatsapp_queues_queue_idx").on(t.queueId)],
);

export const contacts = sqliteTable(
  "contacts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    /**
     * Digits of the phone number (or the group id for groups); never LID digits. Null while WhatsApp shows the
     * person only by their LID: such a contact is addressed by `lid` until the phone number becomes known.
     */
    number: text("number").unique(),
    /** WhatsApp's private id for the person (LID digits), when known. */
    lid: text("lid").unique(),
    email: text("email").notNull().default(""),
    profilePicUrl: text("profile_pic_url").notNull().default(""),
    pictureCheckedAt: integer("picture_checked_at", { mode: "timestamp_ms" }),
    isGroup: bool("is_group").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("contacts_name_idx").on(t.name),
    check("contacts_number_or_lid", sql`number IS NOT NULL OR lid IS NOT NULL`),
  ],
);

export const contactExtraInfo = sqliteTable(
  "contact_extra_info",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    value: text("value").notNull().default(""),
  },
  (t) => [index("contact_extra_info_contact_idx").on(t.contactId)],
);

export const tickets = sqliteTable(
  "tickets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    status: text("status", { enum: ["pending", "open", "closed"] })
      .notNull()
      .default("pending"),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    queueId: integer("queue_id").references(() => queues.id, { onDelete: "set null" }),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
    isGroup: bool("is_group").notNull().default(false),
    isBot: bool("is_bot").notNull().default(false),
    unreadMessages: integer("unread_messages").notNull().default(0),
    lastMessage: text("last_message").notNull().default(""),
    channel: text("channel").notNull().default("whatsapp"),
    /** Created closed by the history import to hold a chat's messages from before pairing. */
    fromHistory: bool("from_history").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("tickets_status_updated_idx").on(t.status, t.updatedAt),
    index("tickets_queue_status_updated_idx").on(t.queueId, t.status, t.updatedAt),
    index("tickets_user_status_idx").on(t.userId, t.status),
    index("tickets_contact_whatsapp_status_idx").on(t.contactId, t.whatsappId, t.status),
    index("tickets_created_idx").on(t.createdAt),
    index("tickets_updated_idx").on(t.updatedAt),
  ],
);

/** Where a ticket stands in its queue's chatbot tree (keyed per ticket, cleared on accept/transfer/close). */
export const ticketDialogs = sqliteTable("ticket_dialogs", {
  ticketId: integer("ticket_id")
    .primaryKey()
    .references(() => tickets.id, { onDelete: "cascade" }),
  chatbotId: integer("chatbot_id").references(() => chatbots.id, { onDelete: "set null" }),
  invalidCount: integer("invalid_count").notNull().default(0),
  menuSentAt: integer("menu_sent_at", { mode: "timestamp_ms" }),
  outOfWorkSentAt: integer("out_of_work_sent_at", { mode: "timestamp_ms" }),
  updatedAt: updatedAt(),
});

export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The network's message id (WhatsApp key id); unique per connection so re-deliveries are idempotent. */
    wid: text("wid").notNull(),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "set null" }),
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
    quotedMsgId: integer("quoted_msg_id").references((): AnySQLiteColumn => messages.id, { onDelete: "set null" }),
    remoteJid: text("remote_jid"),
    participant: text("participant"),
    senderName: text("sender_name"),
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
    /** The message this schedule stored in its ticket, so a repeated run never stores a second one. */
    messageId: integer("message_id").references(() => messages.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("schedules_status_send_idx").on(t.status, t.sendAt), index("schedules_created_idx").on(t.createdAt)],
);

/** One bulk-send record per recipient (the shipping report). */
export const massMessages = sqliteTable(
  "mass_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    whatsappId: integer("whatsapp_id").references(() => whatsapps.id, { onDelete: "cascade" }),
    phone: text("phone").notNull(),
    message: text("message").notNull(),
    status: text("status").notNull().default("pending"),
    /** The network id chosen for this record's message before it is stored: decides, after a crash, whether it was. */
    wid: text("wid"),
    /** Epoch ms when the record was sent: the 24 h limit counts these. */
    sentAt: integer("sent_at"),
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
    .references(() => whatsapps.id, { onDelete: "cascade" }),
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

/** Each connection's last bulk send (epoch ms) and the random extra wait drawn for the next one. */
export const bulkLanes = sqliteTable("bulk_lanes", {
  whatsappId: integer("whatsapp_id")
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: "cascade" }),
  lastAt: integer("last_at").notNull(),
  jitterMs: integer("jitter_ms").notNull().default(0),
});

/** Numbers that sent a connection's opt-out keyword: bulk sends skip them. */
export const optOuts = sqliteTable(
  "opt_outs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    number: text("number").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("opt_outs_whatsapp_number_idx").on(t.whatsappId, t.number)],
);

export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const tags = sqliteTable("tags", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  color: text("color").notNull().default("#eee"),
  userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const ticketTags = sqliteTable(
  "ticket_tags",
  {
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    tagId: integer("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.tagId] }), index("ticket_tags_tag_idx").on(t.tagId)],
);

/** Phone book learnt from a connection (contacts.upsert), the source of the contacts import. */
export const whatsappPhonebook = sqliteTable(
  "whatsapp_phonebook",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    jid: text("jid").notNull(),
    phone: text("phone"),
    lid: text("lid"),
    name: text("name"),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.jid] })],
);

/** Baileys credentials, one JSON row per connection (BufferJSON encoded). */
export const waAuthCreds = sqliteTable("wa_auth_creds", {
  whatsappId: integer("whatsapp_id")
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: "cascade" }),
  creds: text("creds").notNull(),
  updatedAt: updatedAt(),
});

/** Baileys signal keys, stored verbatim by (type, id). */
export const waAuthKeys = sqliteTable(
  "wa_auth_keys",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
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
      .references(() => whatsapps.id, { onDelete: "cascade" }),
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
      .references(() => whatsapps.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    /** The Baileys event as JSON (bytes as BufferJSON, Longs as numbers). */
    payload: text("payload").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("inbound_journal_whatsapp_idx").on(t.whatsappId, t.id)],
);

/** The sandbox network's record of every message a simulated phone exchanged with a sandbox connection. */
export const sandboxMessages = sqliteTable(
  "sandbox_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => whatsapps.id, { onDelete: "cascade" }),
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
 * One signed-in device: every login starts a family, every refresh moves it to the next generation, and only the
 * refresh token of the current generation is valid. Presenting an older one means a token was copied, so the
 * family is revoked.
 */
export const refreshFamilies = sqliteTable(
  "refresh_families",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    generation: integer("generation").notNull().default(0),
    rotatedAt: integer("rotated_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("refresh_families_user_idx").on(t.userId), index("refresh_families_rotated_idx").on(t.rotatedAt)],
);

export type UserRow = typeof users.$inferSelect;
export type WhatsappRow = typeof whatsapps.$inferSelect;
export type QueueRow = typeof queues.$inferSelect;
export type ChatbotRow = typeof chatbots.$inferSelect;
export type ContactRow = typeof contacts.$inferSelect;
export type TicketRow = typeof tickets.$inferSelect;
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
export type TagRow = typeof tags.$inferSelect;
export type ScheduleRow = typeof schedules.$inferSelect;
export type MassMessageRow = typeof massMessages.$inferSelect;
export type SettingRow = typeof settings.$inferSelect;
export type RefreshFamilyRow = typeof refreshFamilies.$inferSelect;

/**
 * Timed work (auto-close, backups, and later schedules, campaigns and webhooks): a job runs at `runAt`, is
 * leased by one runner at a time (`leaseUntil`), retried with backoff up to `maxAttempts`; a recurring one
 * (`everyMs`) goes back to pending after each run. `key` keeps one job per purpose.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind").notNull(),
    key: text("key").unique(),
    payload: text("payload").notNull().default("{}"),
    status: text("status", { enum: ["pending", "running", "done", "failed"] })
      .notNull()
      .default("pending"),
    runAt: integer("run_at").notNull(),
    everyMs: integer("every_ms"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    leaseUntil: integer("lease_until"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("jobs_due_idx").on(t.status, t.runAt)],
);

export type JobRow = typeof jobs.$inferSelect;

/** Outbound webhooks: a URL that receives the chosen events, signed with its own secret. */
export const webhookEndpoints = sqliteTable("webhook_endpoints", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  url: text("url").notNull(),
  /** JSON array of event names (src/shared/webhook-events.ts). */
  events: text("events").notNull().default("[]"),
  secret: text("secret").notNull(),
  active: bool("active").notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/** One event for one endpoint: the exact body sent (signed as is) and how its attempts went. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    /** The same change reported twice (an event published again) makes one delivery. */
    dedupeKey: text("dedupe_key").notNull(),
    body: text("body").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    nextAttemptAt: integer("next_attempt_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_dedupe_idx").on(t.endpointId, t.dedupeKey),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Every try of a delivery, for the delivery log. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [uniqueIndex("webhook_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);

/** The last ticket status reported to webhooks, so only real status changes are sent. */
export const webhookTicketStatus = sqliteTable("webhook_ticket_status", {
  ticketId: integer("ticket_id")
    .primaryKey()
    .references(() => tickets.id, { onDelete: "cascade" }),
  status: text("status").notNull(),
});
