// @engine once
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { QueryPromise, sql } from "drizzle-orm";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { atomically, type Db, openDatabase, rowsOf, sqliteClient } from "../src/db/client";

/**
 * The SQLite write gate of src/db/client.ts, tested directly: it replaces drizzle's `QueryPromise.prototype.then`,
 * so a drizzle that moves or renames what it relies on (the classes queries take `then` from, their `session`)
 * would switch the gate off without any error (selects get a copy of its methods, made before the gate is
 * installed). The first tests say which of these changed.
 */

const notes = sqliteTable("notes", { id: integer("id").primaryKey(), body: text("body").notNull() });

function notesDb(): Db {
  const db = openDatabase(":memory:");
  sqliteClient(db).exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  return db;
}

/** A transaction held open until `end` is called (it rolls back when `end` gets an error). */
function openTransaction(db: Db, work: (tx: Db) => Promise<void> = async () => {}) {
  let end!: (error?: Error) => void;
  const ended = new Promise<Error | undefined>((resolve) => {
    end = resolve;
  });
  const done = atomically(db, async (tx) => {
    await work(tx);
    const error = await ended;
    if (error) throw error;
  });
  return { end, done };
}

/** A few turns of the event loop: long enough for a query that is not held back to have answered. */
async function turns(n = 5) {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

const bodies = async (db: Db) => (await db.select({ body: notes.body }).from(notes)).map((n) => n.body);

describe("the write gate is installed where drizzle's queries look for then", () => {
  test("drizzle is pinned to one exact version, the one installed", () => {
    const root = join(import.meta.dir, "..");
    const pinned = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).dependencies["drizzle-orm"];
    const installed = JSON.parse(readFileSync(join(root, "node_modules/drizzle-orm/package.json"), "utf8")).version;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(pinned);
  });

  test("QueryPromise.prototype.then is the gate's", () => {
    expect(QueryPromise.prototype.then.name).toBe("admitted");
  });

  test("every kind of query answers then with the gate, and carries the session the gate is found by", () => {
    const db = notesDb();
    const session = (db as unknown as { session: object }).session;
    expect(session).toBeDefined();
    const queries = {
      select: db.select().from(notes),
      insert: db.insert(notes).values({ body: "a" }),
      insertReturning: db.insert(notes).values({ body: "a" }).returning(),
      update: db.update(notes).set({ body: "b" }),
      delete: db.delete(notes),
    };
    for (const [kind, query] of Object.entries(queries)) {
      // Selects are not QueryPromises: drizzle copies QueryPromise's methods onto them when it loads.
      expect([kind, query.then.name]).toEqual([kind, "admitted"]);
      expect([kind, (query as unknown as { session?: object }).session === session]).toEqual([kind, true]);
    }
  });
});

describe("the write gate on the one SQLite connection", () => {
  test("a read awaited outside an open transaction waits for its end, and then sees what it committed", async () => {
    const db = notesDb();
    const open = openTransaction(db, async (tx) => {
      await tx.insert(notes).values({ body: "inside" });
    });
    let read: string[] | undefined;
    const outside = bodies(db).then((rows) => {
      read = rows;
    });
    await turns();
    expect(read).toBeUndefined();
    open.end();
    await Promise.all([open.done, outside]);
    expect(read).toEqual(["inside"]);
  });

  test("a write awaited outside waits too, and is not rolled back with the transaction", async () => {
    const db = notesDb();
    const open = openTransaction(db, async (tx) => {
      await tx.insert(notes).values({ body: "inside" });
    });
    let written = false;
    const outside = db
      .insert(notes)
      .values({ body: "outside" })
      .then(() => {
        written = true;
      });
    await turns();
    expect(written).toBe(false);
    open.end(new Error("rolled back"));
    await expect(open.done).rejects.toThrow("rolled back");
    await outside;
    expect(await bodies(db)).toEqual(["outside"]);
  });

  test("raw statements from outside (rowsOf) wait as drizzle's queries do", async () => {
    const db = notesDb();
    const open = openTransaction(db, async (tx) => {
      await tx.insert(notes).values({ body: "inside" });
    });
    let count: number | undefined;
    const outside = rowsOf<{ n: number }>(db, sql`select count(*) as n from notes`).then((rows) => {
      count = rows[0]!.n;
    });
    await turns();
    expect(count).toBeUndefined();
    open.end();
    await Promise.all([open.done, outside]);
    expect(count).toBe(1);
  });

  test("statements of the open transaction pass at once, however deep in its async work and whichever handle made them", async () => {
    const db = notesDb();
    const seen: string[][] = [];
    const open = openTransaction(db, async () => {
      await db.insert(notes).values({ body: "first" });
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.resolve().then(async () => {
        await db.insert(notes).values({ body: "second" });
        seen.push(await bodies(db));
      });
    });
    await turns();
    expect(seen).toEqual([["first", "second"]]);
    open.end();
    await open.done;
  });

  test("the gate's then answers drizzle's results, chains, and passes errors to rejection handlers, catch and finally", async () => {
    const db = notesDb();
    expect(await db.insert(notes).values({ body: "a" }).returning({ id: notes.id })).toEqual([{ id: 1 }]);
    expect(
      await db
        .select({ body: notes.body })
        .from(notes)
        .then((rows) => rows.length),
    ).toBe(1);
    const duplicate = () => db.insert(notes).values({ id: 1, body: "again" });
    expect(await duplicate().then(undefined, (error: Error) => error.message)).toMatch(/UNIQUE constraint failed/);
    expect(await duplicate().catch(() => "caught")).toBe("caught");
    let finished = false;
    await expect(
      duplicate().finally(() => {
        finished = true;
      }),
    ).rejects.toThrow(/UNIQUE constraint failed/);
    expect(finished).toBe(true);
  });

  test("a query that waited answers its own error once the transaction ended", async () => {
    const db = notesDb();
    await db.insert(notes).values({ id: 1, body: "a" });
    const open = openTransaction(db);
    const outside = db
      .insert(notes)
      .values({ id: 1, body: "again" })
      .then(
        () => "inserted",
        () => "refused",
      );
    await turns();
    open.end();
    await open.done;
    expect(await outside).toBe("refused");
  });
});
