import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt, bool, int64 } from "./columns";
import { tickets } from "./tickets";

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
    nextAttemptAt: int64("next_attempt_at"),
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
    at: int64("at").notNull(),
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
