import { sql } from "drizzle-orm";
import { dialectOf, execute, type Writer } from "./client";

/**
 * After a row of `table` was given the id `id` by hand: on PostgreSQL the table's id sequence moves past it, so
 * the ids it hands out later never meet it; SQLite already hands out ids past the largest one stored.
 */
export async function keepIdsPast(db: Writer, table: string, id: number) {
  if (dialectOf(db) === "postgres")
    await execute(
      db,
      sql`SELECT setval(pg_get_serial_sequence(${`"${table}"`}, 'id'), greatest(${id}, (SELECT coalesce(max(id), 0) FROM ${sql.identifier(table)})))`,
    );
}
