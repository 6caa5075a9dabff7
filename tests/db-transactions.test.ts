// @engine once
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { atomically, first, openDatabase } from "../src/db/client";
import { runMigrations } from "../src/db/migrate";
import { tags } from "../src/db/tables";

async function freshDb() {
  const db = openDatabase(":memory:");
  runMigrations(db);
  return db;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("transactions on the one SQLite connection", () => {
  test("a write from outside waits for the open transaction and is not rolled back with it", async () => {
    const db = await freshDb();
    let rolledBack = false;
    const failing = atomically(db, async (tx) => {
      await tx.insert(tags).values({ name: "inside" });
      await tick();
      throw new Error("rolled back");
    }).catch(() => {
      rolledBack = true;
    });
    const outside = db.insert(tags).values({ name: "outside" });
    await Promise.all([failing, outside]);
    expect(rolledBack).toBe(true);
    expect((await db.select({ name: tags.name }).from(tags)).map((t) => t.name)).toEqual(["outside"]);
  });

  test("two transactions started at once run one after the other, each seeing the other's commit", async () => {
    const db = await freshDb();
    await db.insert(tags).values({ name: "counter", color: "0" });
    const bump = () =>
      atomically(db, async (tx) => {
        const row = await first(tx.select().from(tags).where(eq(tags.name, "counter")));
        await tick();
        await tx
          .update(tags)
          .set({ color: String(Number(row!.color) + 1) })
          .where(eq(tags.name, "counter"));
      });
    await Promise.all([bump(), bump(), bump()]);
    expect((await first(db.select().from(tags).where(eq(tags.name, "counter"))))?.color).toBe("3");
  });

  test("a transaction inside a transaction is a savepoint: its failure undoes only its own writes", async () => {
    const db = await freshDb();
    await atomically(db, async (tx) => {
      await tx.insert(tags).values({ name: "kept" });
      await atomically(tx, async (inner) => {
        await inner.insert(tags).values({ name: "undone" });
        throw new Error("inner fails");
      }).catch(() => undefined);
    });
    expect((await db.select({ name: tags.name }).from(tags)).map((t) => t.name)).toEqual(["kept"]);
  });
});
