// Generated from src/db/schema/contacts.ts by scripts/pg-schema.ts (npm run db:generate): do not edit by hand.
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, date, updatedAt, bool } from "./columns";

export const contacts = pgTable(
  "contacts",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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
    pictureCheckedAt: date("picture_checked_at"),
    isGroup: bool("is_group").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("contacts_name_idx").on(t.name),
    check("contacts_number_or_lid", sql`number IS NOT NULL OR lid IS NOT NULL`),
  ],
);

export const contactExtraInfo = pgTable(
  "contact_extra_info",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    value: text("value").notNull().default(""),
  },
  (t) => [index("contact_extra_info_contact_idx").on(t.contactId)],
);

export type ContactRow = typeof contacts.$inferSelect;
