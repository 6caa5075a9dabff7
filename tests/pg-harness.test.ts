// @engine each
import { describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { sql } from "drizzle-orm";
import { execute } from "../src/db/client";
import { settings, tags, users } from "../src/db/tables";
import { testsOnPostgres } from "./test-engine";
import { createUser, makeTestApp } from "./helpers";

/**
 * The suite's PostgreSQL run hands every test the same database, emptied: these tests run in order, each on
 * what the one before left behind.
 */
describe.skipIf(!testsOnPostgres)("the PostgreSQL run's database of each test", () => {
  let leftOpen: SQL | undefined;

  test("a test writes rows, leaves a connection of its own open and drops a table", async () => {
    const ctx = await makeTestApp();
    expect((await createUser(ctx)).id).toBe(1);
    leftOpen = new SQL(ctx.deps.config.databaseUrl!);
    await leftOpen`SELECT 1`;
    await execute(ctx.db, sql`DROP TABLE tags CASCADE`);
  });

  test("the next test finds no row of it, ids from 1 again, every table, and settings seeded by its app", async () => {
    const ctx = await makeTestApp();
    expect(await ctx.db.select().from(users)).toEqual([]);
    expect((await createUser(ctx)).id).toBe(1);
    expect(await ctx.db.select().from(tags)).toEqual([]);
    expect((await ctx.db.select().from(settings)).length).toBeGreaterThan(0);
  });

  test("a connection an earlier test left open can no longer reach the database", async () => {
    await makeTestApp();
    const refused = await leftOpen!`SELECT 1`.catch((error: Error) => error.message);
    expect(refused).toContain("not permitted to log in");
  });

  test("two apps of one test have a database each, unless they name the same databasePath", async () => {
    const [first, second] = [await makeTestApp(), await makeTestApp()];
    await createUser(first);
    expect(await second.db.select().from(users)).toEqual([]);
    const restarted = await makeTestApp({ databasePath: "/nowhere/zapdesk.sqlite" });
    await createUser(restarted);
    const again = await makeTestApp({ databasePath: "/nowhere/zapdesk.sqlite" });
    expect(await again.db.select().from(users)).toHaveLength(1);
  });
});
