// @engine once
import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { atomically, openDatabase, sqliteClient } from "../src/db/client";
import { runMigrations } from "../src/db/migrate";
import { prepared } from "../src/db/prepared";
import { tags } from "../src/db/tables";

function migrated() {
  const db = openDatabase(":memory:");
  runMigrations(db);
  return db;
}

const tagByName = prepared((db) =>
  db
    .select()
    .from(tags)
    .where(eq(tags.name, sql.placeholder("name")))
    .prepare(),
);

describe("statements", () => {
  test("a query's compiled statement is reused for the same SQL text; schema changes are compiled each time", () => {
    const client = sqliteClient(openDatabase(":memory:"));
    expect(client.prepare("SELECT 1 AS one")).toBe(client.prepare("SELECT 1 AS one"));
    expect(client.prepare("CREATE TABLE t (x)")).not.toBe(client.prepare("CREATE TABLE t (x)"));
  });

  test("a prepared query belongs to its database and sees the open transaction's writes", async () => {
    const one = migrated();
    const other = migrated();
    await atomically(one, async (tx) => {
      await tx.insert(tags).values({ name: "vip", color: "#000" });
      expect((await tagByName(tx).get({ name: "vip" }))?.name).toBe("vip");
    });
    expect((await tagByName(one).get({ name: "vip" }))?.name).toBe("vip");
    expect(await tagByName(other).get({ name: "vip" })).toBeUndefined();
  });

  test("atomically rolls back what it wrote when its work throws, and nests as a savepoint", async () => {
    const db = migrated();
    await atomically(db, async () => {
      await db.insert(tags).values({ name: "kept", color: "#000" });
      expect(
        async () =>
          await atomically(db, async () => {
            await db.insert(tags).values({ name: "dropped", color: "#000" });
            throw new Error("refused");
          }),
      ).toThrow("refused");
    });
    expect((await db.select({ name: tags.name }).from(tags)).map((t) => t.name)).toEqual(["kept"]);
  });
});
