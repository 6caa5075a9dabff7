import { expect, test } from "bun:test";
import type { Table } from "drizzle-orm";
import type * as pg from "../src/db/pg-schema";
import type * as sqlite from "../src/db/schema";
import type { Same } from "../src/shared/same-type";

type Tables<S> = { [K in keyof S as S[K] extends Table ? K : never]: S[K] };
type Rows<S, Kind extends "$inferSelect" | "$inferInsert"> = {
  [K in keyof Tables<S>]: Tables<S>[K] extends Record<Kind, infer R> ? Fields<R> : never;
};
/**
 * Written rows are compared field by field, optional or not: SQLite lets an INTEGER PRIMARY KEY be left out
 * (it becomes the rowid) where PostgreSQL's plain integer key must be given (wa_auth_creds, keyed by its
 * connection); the code always gives it, and a missing value fails the PostgreSQL run's NOT NULL.
 */
type Fields<R> = { [F in keyof R]-?: Exclude<R[F], undefined> };

/**
 * Code is typed against SQLite's tables (src/db/tables.ts) and runs on PostgreSQL's too: that is sound because
 * both schemas have the same tables and every row reads and writes as the same TypeScript type. Checked by tsc
 * (`npm test` runs it first): a column whose type differs on one engine fails the build here.
 */
const sameTables: Same<keyof Tables<typeof sqlite>, keyof Tables<typeof pg>> = true;
const sameRowsRead: Same<Rows<typeof sqlite, "$inferSelect">, Rows<typeof pg, "$inferSelect">> = true;
const sameRowsReadExactly: Same<
  { [K in keyof Tables<typeof sqlite>]: Tables<typeof sqlite>[K]["$inferSelect"] },
  { [K in keyof Tables<typeof pg>]: Tables<typeof pg>[K]["$inferSelect"] }
> = true;
const sameRowsWritten: Same<Rows<typeof sqlite, "$inferInsert">, Rows<typeof pg, "$inferInsert">> = true;

test("both engines' schemas have the same tables, read and written as the same row types", () => {
  expect([sameTables, sameRowsRead, sameRowsReadExactly, sameRowsWritten]).toEqual([true, true, true, true]);
});
