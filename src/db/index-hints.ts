import { inArray, type SQLWrapper, sql } from "drizzle-orm";
import { pgArray } from "./pg-array";
import { onPostgres } from "./tables";

/**
 * The column as a value SQLite cannot look up in an index (`+column`), so its planner walks the index that keeps
 * the page order instead; PostgreSQL's planner needs no such hint.
 */
export const unindexed = (column: SQLWrapper) => (onPostgres ? sql`${column}` : sql`+${column}`);

/**
 * That `column` is one of `ids` (not empty), each looked up by the column's index. PostgreSQL gets them as one
 * array parameter: a list of 2,000 parameters is a statement of its own for each length, parsed and planned each
 * time (10–20 ms for a search's stretch of tickets).
 */
export const amongIds = (column: SQLWrapper, ids: number[]) =>
  onPostgres ? sql`${column} = any(${pgArray(ids)}::int[])` : inArray(column, ids);

/**
 * That `column` is one of the ids a prepared query gets as its `name` value, given as `idList(ids)`: a list of
 * any length reuses one statement, built once (building an `IN` of 40 parameters through drizzle cost more
 * than PostgreSQL took to answer it). SQLite reads the list with `json_each`.
 */
export const amongIdList = (column: SQLWrapper, name: string) =>
  onPostgres
    ? sql`${column} = any(${sql.placeholder(name)}::int[])`
    : sql`${column} in (select value from json_each(${sql.placeholder(name)}))`;

/** The value of an `amongIdList` placeholder. */
export const idList = (ids: readonly number[]) => (onPostgres ? pgArray(ids) : JSON.stringify(ids));
