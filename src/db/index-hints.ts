import { type SQLWrapper, sql } from "drizzle-orm";
import { onPostgres } from "./tables";

/**
 * The column as a value SQLite cannot look up in an index (`+column`), so its planner walks the index that keeps
 * the page order instead; PostgreSQL's planner needs no such hint.
 */
export const unindexed = (column: SQLWrapper) => (onPostgres ? sql`${column}` : sql`+${column}`);
