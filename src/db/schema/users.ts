import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns";
import { connections } from "./connections";

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  profile: text("profile", { enum: ["admin", "user"] })
    .notNull()
    .default("user"),
  tokenVersion: integer("token_version").notNull().default(0),
  whatsappId: integer("whatsapp_id").references(() => connections.id, { onDelete: "set null" }),
  /** Whether the user takes work now, as everyone sees it (modules/users/availability.ts keeps it). */
  availability: text("availability", { enum: ["online", "away", "offline"] })
    .notNull()
    .default("offline"),
  /**
   * What the user chose: `online` means "as my sockets say" (online while one is open, offline two minutes after
   * the last closed); `away` and `offline` stay until they choose again.
   */
  availabilityChoice: text("availability_choice", { enum: ["online", "away", "offline"] })
    .notNull()
    .default("online"),
  availabilityChangedAt: integer("availability_changed_at", { mode: "timestamp_ms" }),
  /** When a socket of the user was last known open on some node (each node renews it for its own sockets). */
  lastSeenAt: integer("last_seen_at", { mode: "timestamp_ms" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

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

export type RefreshFamilyRow = typeof refreshFamilies.$inferSelect;
