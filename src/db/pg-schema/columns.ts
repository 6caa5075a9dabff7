import { boolean, customType, timestamp } from "drizzle-orm/pg-core";

/**
 * PostgreSQL spellings of the SQLite columns, chosen so the app reads the same JavaScript values from both:
 * a Date for every `timestamp_ms` column (kept to the millisecond), a boolean for every 0/1 flag, a Buffer for bytes.
 * Written by hand, unlike the rest of this folder: scripts/pg-schema-rules.ts turns the SQLite spellings into these.
 */
const instant = (name: string) => timestamp(name, { withTimezone: true, mode: "date", precision: 3 });

export const createdAt = () => instant("created_at").notNull().defaultNow();
export const updatedAt = () =>
  instant("updated_at")
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
export const date = instant;
export const bool = (name: string) => boolean(name);

export const bytes = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});
