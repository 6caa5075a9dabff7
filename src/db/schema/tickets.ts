import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { TICKET_EVENT_CAUSES, TICKET_EVENT_KINDS } from "../../shared/contracts/ticket-events";
import { TICKET_PREVIEW_KINDS, TICKET_STATUSES } from "../../shared/contracts/tickets";
import { createdAt, updatedAt, bool, int64 } from "./columns";
import { connections } from "./connections";
import { users } from "./users";
import { queues, chatbots } from "./queues";
import { contacts } from "./contacts";

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
    whatsappId: integer("whatsapp_id").references(() => connections.id, { onDelete: "set null" }),
    isGroup: bool("is_group").notNull().default(false),
    isBot: bool("is_bot").notNull().default(false),
    unreadMessages: integer("unread_messages").notNull().default(0),
    lastMessage: text("last_message").notNull().default(""),
    channel: text("channel").notNull().default("whatsapp"),
    /** Created closed by the history import to hold a chat's messages from before pairing. */
    fromHistory: bool("from_history").notNull().default(false),
    /** When the current episode began: its reopening; null while it is the first (it began at `createdAt`). */
    episodeStartedAt: integer("episode_started_at", { mode: "timestamp_ms" }),
    /** The time of the customer's oldest message no agent has answered yet; null when none is waiting. */
    waitingSince: integer("waiting_since", { mode: "timestamp_ms" }),
    /** When an agent first answered the customer in this episode; null until then. */
    firstResponseAt: integer("first_response_at", { mode: "timestamp_ms" }),
    /** The episode passed its queue's first-response target, resp. its resolution target. */
    firstResponseBreached: bool("first_response_breached").notNull().default(false),
    resolutionBreached: bool("resolution_breached").notNull().default(false),
    /** Out of the In service and Waiting lists until then (a job wakes it, or the customer writing). */
    snoozedUntil: integer("snoozed_until", { mode: "timestamp_ms" }),
    /** When the satisfaction survey was sent, after an agent resolved the ticket; answers count for 24 h. */
    csatAskedAt: integer("csat_asked_at", { mode: "timestamp_ms" }),
    csatRating: integer("csat_rating"),
    csatComment: text("csat_comment"),
    csatAnsweredAt: integer("csat_answered_at", { mode: "timestamp_ms" }),
    /**
     * What the list shows of the last message a person wrote (automatic messages, notes and deleted messages are
     * skipped): its kind (TICKET_PREVIEW_KINDS), text (message, caption, contact or place name), detail (file name,
     * voice seconds), whether it was ours and its delivery status. Null kind: nothing written yet.
     */
    previewKind: text("preview_kind", { enum: TICKET_PREVIEW_KINDS }),
    previewText: text("preview_text").notNull().default(""),
    previewDetail: text("preview_detail"),
    previewFromMe: bool("preview_from_me").notNull().default(false),
    previewAck: integer("preview_ack").notNull().default(0),
    /** The message the preview shows (no foreign key: messages already point at their ticket). */
    previewMessageId: integer("preview_message_id"),
    /**
     * How many messages the ticket holds (notes included), kept by the database: triggers on `messages` add each
     * insert and take each delete (migration 0038); tickets folded into one add their counts (tickets/records.ts
     * fold), the one place messages change ticket.
     */
    messageCount: integer("message_count").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The list pages newest activity first (updated_at, id) under every filter: each index below starts with what a
  // filter pins and then holds the page order, and carries the columns the visibility rule, the unread filter and
  // the snoozed test read, so pages and capped counts are read from the index without visiting the rows.
  (t) => [
    index("tickets_status_updated_idx").on(
      t.status,
      t.updatedAt,
      t.id,
      t.queueId,
      t.userId,
      t.unreadMessages,
      t.snoozedUntil,
    ),
    index("tickets_queue_status_updated_idx").on(t.queueId, t.status, t.updatedAt),
    index("tickets_user_status_idx").on(
      t.userId,
      t.status,
      t.updatedAt,
      t.id,
      t.queueId,
      t.unreadMessages,
      t.snoozedUntil,
    ),
    index("tickets_contact_whatsapp_status_idx").on(t.contactId, t.whatsappId, t.status),
    index("tickets_created_idx").on(t.createdAt),
    index("tickets_updated_idx").on(t.updatedAt, t.id, t.status, t.queueId, t.userId, t.unreadMessages, t.snoozedUntil),
    // Few tickets have unread messages: the unread filter reads only those, in page order.
    index("tickets_unread_idx")
      .on(t.updatedAt, t.id, t.status, t.queueId, t.userId, t.unreadMessages, t.snoozedUntil)
      .where(sql`unread_messages > 0`),
    // The admins' bell after a reload: the few unresolved tickets past a target, in page order.
    index("tickets_sla_breached_idx")
      .on(t.updatedAt, t.id, t.status, t.queueId, t.userId, t.unreadMessages, t.snoozedUntil)
      .where(sql`(first_response_breached = true OR resolution_breached = true) AND status <> 'closed'`),
    // The SLA sweep: per queue, the active tickets still short of a first response resp. of a resolution, oldest
    // first, without visiting the rows; answered, resolved and already breached tickets leave these indexes.
    index("tickets_sla_first_response_idx")
      .on(t.queueId, t.waitingSince)
      .where(sql`first_response_at IS NULL AND first_response_breached = false AND status <> 'closed'`),
    index("tickets_sla_resolution_idx")
      .on(t.queueId, t.episodeStartedAt, t.createdAt)
      .where(sql`resolution_breached = false AND status <> 'closed'`),
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

/** A reply an agent started typing in a ticket and has not sent yet: one per ticket and user. */
export const ticketDrafts = sqliteTable(
  "ticket_drafts",
  {
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.ticketId, t.userId] }), index("ticket_drafts_user_idx").on(t.userId)],
);

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
  (t) => [primaryKey({ columns: [t.ticketId, t.tagId] }), index("ticket_tags_tag_idx").on(t.tagId, t.ticketId)],
);

/**
 * A ticket's history: one row per change, written in the transaction of the change, kept as long as the ticket.
 * Each row says where the ticket stood before (`from_*`) and after (`to_*`), so reports group by kind, agent, queue
 * and day from this table alone. The user, queue and connection ids carry no foreign key: the history keeps who
 * and where even after they are deleted (their names are then unknown), and deleting one rewrites no history.
 */
export const ticketEvents = sqliteTable(
  "ticket_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ticketId: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: TICKET_EVENT_KINDS }).notNull(),
    cause: text("cause", { enum: TICKET_EVENT_CAUSES }).notNull(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    actorUserId: integer("actor_user_id"),
    fromStatus: text("from_status", { enum: TICKET_STATUSES }),
    toStatus: text("to_status", { enum: TICKET_STATUSES }),
    fromUserId: integer("from_user_id"),
    toUserId: integer("to_user_id"),
    fromQueueId: integer("from_queue_id"),
    toQueueId: integer("to_queue_id"),
    fromWhatsappId: integer("from_whatsapp_id"),
    toWhatsappId: integer("to_whatsapp_id"),
    /**
     * The figure the kind measures: `first_response` and `resolved`, the milliseconds waited (from the customer's
     * first message of the ticket or its reopening, resp. from creation or reopening); `rated`, the rating 1–5;
     * `accepted`, `assigned` and `transferred`: 1 when the change gave the ticket its first agent.
     */
    value: int64("value"),
  },
  (t) => [
    // A ticket's history in order (the chat, the API).
    index("ticket_events_ticket_at_idx").on(t.ticketId, t.at, t.id),
    // Reports: one kind over a span of days, counted per agent and queue from the index alone.
    index("ticket_events_kind_at_idx").on(t.kind, t.at, t.toUserId, t.toQueueId),
    // Reports: the changes that gave tickets their first agent, over a span of days.
    index("ticket_events_first_agent_idx")
      .on(t.at, t.toUserId, t.toQueueId, t.fromQueueId, t.kind)
      .where(sql`value = 1 and kind in ('accepted', 'assigned', 'transferred')`),
  ],
);

export type TicketEventRow = typeof ticketEvents.$inferSelect;

export type TicketRow = typeof tickets.$inferSelect;

export type TagRow = typeof tags.$inferSelect;
