import { onPostgres } from "./tables";

/**
 * The select, locking on PostgreSQL the rows it answers until the transaction ends (`for update`): a row another
 * transaction changes meanwhile is read again once that one commits, and left out if it no longer qualifies, so a
 * `limit` takes the next one. SQLite's single writer needs no such lock.
 */
export function lockingRows<Q extends object>(select: Q): Q {
  return onPostgres ? (select as unknown as { for(strength: "update"): Q }).for("update") : select;
}
