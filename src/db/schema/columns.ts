import { sql } from "drizzle-orm";
import { integer } from "drizzle-orm/sqlite-core";

export const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;
export const createdAt = () => integer("created_at", { mode: "timestamp_ms" }).notNull().default(now);
export const updatedAt = () =>
  integer("updated_at", { mode: "timestamp_ms" })
    .notNull()
    .default(now)
    .$onUpdate(() => new Date());
export const bool = (name: string) => integer(name, { mode: "boolean" });

/**
 * An integer that may pass 2^31, such as epoch milliseconds: every SQLite integer holds 64 bits, PostgreSQL's
 * `integer` only 32, so there it becomes a `bigint` (read as a number).
 */
export const int64 = (name: string) => integer(name);
