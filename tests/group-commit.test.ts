// @engine each
import { atomically, closeDatabase, dialectOf, execute, first, openDatabase, sqliteClient } from "../src/db/client";
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { messages, tags, tickets } from "../src/db/tables";
import { LocalEventBus } from "../src/events/bus";
import type { DomainEvent } from "../src/events/catalogue";
import { createLogger } from "../src/log";
import { GroupCommit } from "../src/modules/inbound/group-commit";
import { createSandboxConnection, makeTestApp, type TestContext } from "./helpers";

/** A database with a parent/child pair whose foreign key is only checked at commit. */
function deferredDb(path = ":memory:") {
  const db = openDatabase(path);
  sqliteClient(db).exec("CREATE TABLE parent (id INTEGER PRIMARY KEY)");
  sqliteClient(db).exec(
    "CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)",
  );
  const events = new LocalEventBus(createLogger("silent"));
  const heard: { name: string; inTransaction: boolean }[] = [];
  events.subscribe((event) => heard.push({ name: event.name, inTransaction: sqliteClient(db).inTransaction }));
  const rows = () => sqliteClient(db).query("SELECT id FROM child ORDER BY id").all() as { id: number }[];
  return { db, events, heard, rows, commits: new GroupCommit(db, events) };
}

/** The statements run on `db` through `exec` from now on (transaction control, savepoints, pragmas). */
function execsOn(db: ReturnType<typeof openDatabase>): string[] {
  const statements: string[] = [];
  const exec = sqliteClient(db).exec.bind(sqliteClient(db));
  sqliteClient(db).exec = ((sql: string) => {
    statements.push(sql);
    return exec(sql);
  }) as typeof exec;
  return statements;
}

const anEvent = { name: "tag.deleted", payload: { tagId: 1 } } as const satisfies DomainEvent;

describe("group commit", () => {
  test("a batch that fails after its commit answers its callers and the next batch still commits", async () => {
    const { db, events, rows } = deferredDb();
    sqliteClient(db).exec("INSERT INTO parent (id) VALUES (1)");
    let failEmits = 1;
    const failingBus = {
      ...events,
      emit: (name: DomainEvent["name"], payload: DomainEvent["payload"]) => {
        if (failEmits-- > 0) throw new Error("publishing failed");
        events.emit(name as never, payload as never);
      },
      subscribe: events.subscribe.bind(events),
      subscribeAll: events.subscribeAll.bind(events),
    };
    const commits = new GroupCommit(db, failingBus as never);
    const first = commits.run(async (bus) => {
      sqliteClient(db).exec("INSERT INTO child (id, parent_id) VALUES (1, 1)");
      bus.emit(anEvent.name, anEvent.payload);
    });
    await expect(first).rejects.toThrow("publishing failed");
    await commits.run(async () => {
      sqliteClient(db).exec("INSERT INTO child (id, parent_id) VALUES (2, 1)");
    });
    expect(rows().map((r) => r.id)).toEqual([1, 2]);
  });

  test("writes asked for together share one transaction; each caller hears back after the commit, with its events published then, in order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "group-commit-"));
    const { db, commits, heard, rows } = deferredDb(join(dir, "db.sqlite"));
    sqliteClient(db).exec("INSERT INTO parent (id) VALUES (1)");
    // Another connection sees only what is committed.
    const other = new Database(join(dir, "db.sqlite"));
    const seenByOther = () => (other.query("SELECT count(*) AS n FROM child").get() as { n: number }).n;
    const seenDuringWrites: number[] = [];
    const answers = await Promise.all(
      [1, 2, 3].map((id) =>
        commits.run(async (events) => {
          sqliteClient(db).run("INSERT INTO child (id, parent_id) VALUES (?, 1)", [id]);
          events.emit(anEvent.name, { tagId: id });
          seenDuringWrites.push(seenByOther());
          return id * 10;
        }),
      ),
    );
    expect(answers).toEqual([10, 20, 30]);
    expect(seenDuringWrites).toEqual([0, 0, 0]);
    expect(seenByOther()).toBe(3);
    expect(rows().map((r) => r.id)).toEqual([1, 2, 3]);
    expect(heard).toEqual([1, 2, 3].map(() => ({ name: "tag.deleted", inTransaction: false })));
    other.close();
    sqliteClient(db).close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a write that throws is rolled back alone and its events are dropped; the others of its batch commit", async () => {
    const { db, commits, heard, rows } = deferredDb();
    sqliteClient(db).exec("INSERT INTO parent (id) VALUES (1)");
    const results = await Promise.allSettled(
      [1, 2, 3].map((id) =>
        commits.run(async (events) => {
          sqliteClient(db).run("INSERT INTO child (id, parent_id) VALUES (?, 1)", [id]);
          events.emit(anEvent.name, { tagId: id });
          if (id === 2) throw new Error("refused");
          return id;
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(rows().map((r) => r.id)).toEqual([1, 3]);
    expect(heard).toHaveLength(2);
  });

  test("a batch written side by side opens no savepoint; written again in turn, it keeps its savepoints' pages in memory, and the connection's temporary storage is as it was once it is committed", async () => {
    const { db, commits } = deferredDb();
    const tempStore = () => (sqliteClient(db).query("PRAGMA temp_store").get() as { temp_store: number }).temp_store;
    const before = tempStore();
    const statements = execsOn(db);
    expect(await Promise.all([commits.run(async () => tempStore()), commits.run(async () => tempStore())])).toEqual([
      before,
      before,
    ]);
    expect(statements.filter((sql) => /SAVEPOINT|PRAGMA/i.test(sql))).toEqual([]);
    // A write that throws sends its batch in turn, one savepoint each.
    const during: number[] = [];
    const failing = commits.run(async () => {
      during.push(tempStore());
      throw new Error("refused");
    });
    await commits.run(async () => during.push(tempStore()));
    await expect(failing).rejects.toThrow("refused");
    expect(during.slice(2)).toEqual([2, 2]);
    expect(tempStore()).toBe(before);
  });

  test("a write alone in its batch is the transaction itself: no savepoint, rolled back whole when it throws", async () => {
    const { db, commits, heard, rows } = deferredDb();
    sqliteClient(db).exec("INSERT INTO parent (id) VALUES (1)");
    const statements = execsOn(db);
    await expect(
      commits.run(async (events) => {
        sqliteClient(db).run("INSERT INTO child (id, parent_id) VALUES (1, 1)");
        events.emit(anEvent.name, anEvent.payload);
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(
      await commits.run(async () => sqliteClient(db).run("INSERT INTO child (id, parent_id) VALUES (2, 1)")),
    ).toBeTruthy();
    expect(rows().map((r) => r.id)).toEqual([2]);
    expect(heard).toEqual([]);
    expect(statements.filter((sql) => /SAVEPOINT|PRAGMA/i.test(sql))).toEqual([]);
  });

  test("beforeCommit runs once per batch inside its transaction, after every write", async () => {
    const { db, events } = deferredDb();
    sqliteClient(db).exec("INSERT INTO parent (id) VALUES (1)");
    const seen: { children: number; inTransaction: boolean }[] = [];
    const commits = new GroupCommit(db, events, async (tx) => {
      seen.push({
        children: (sqliteClient(tx).query("SELECT count(*) AS n FROM child").get() as { n: number }).n,
        inTransaction: sqliteClient(tx).inTransaction,
      });
    });
    await Promise.all(
      [1, 2, 3].map((id) =>
        commits.run(async () => sqliteClient(db).run("INSERT INTO child (id, parent_id) VALUES (?, 1)", [id])),
      ),
    );
    expect(seen).toEqual([{ children: 3, inTransaction: true }]);
  });

  test("when the commit fails every caller of the batch gets the error and nothing of it is stored or announced; a retry stores each write once", async () => {
    const { db, commits, heard, rows } = deferredDb();
    const write = (id: number, parent: number) =>
      commits.run(async (events) => {
        sqliteClient(db).run("INSERT OR IGNORE INTO child (id, parent_id) VALUES (?, ?)", [id, parent]);
        events.emit(anEvent.name, { tagId: id });
      });
    // Child 2 points at a parent that does not exist yet: the deferred foreign key fails the commit.
    const failed = await Promise.allSettled([write(1, 1), write(2, 2)]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(rows()).toEqual([]);
    expect(heard).toEqual([]);
    sqliteClient(db).exec("INSERT INTO parent (id) VALUES (1), (2)");
    await Promise.all([write(1, 1), write(2, 2), write(1, 1)]);
    expect(rows().map((r) => r.id)).toEqual([1, 2]);
  });
});

describe("inbound messages committed in groups", () => {
  test("a concurrent burst over many chats, with every message delivered twice, stores each message once, in each chat's order", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx);
    const chats = 20;
    const perChat = 10;
    const sends: Promise<string>[] = [];
    for (let n = 0; n < perChat; n++)
      for (let c = 0; c < chats; c++)
        for (let copy = 0; copy < 2; copy++)
          sends.push(
            ctx.sandbox.inbound(conn.id, {
              from: `55119${String(c).padStart(8, "0")}`,
              id: `C${c}-M${n}`,
              body: `${n}`,
            }),
          );
    await Promise.all(sends);
    const stored = await ctx.db.select().from(messages).orderBy(asc(messages.id));
    expect(stored).toHaveLength(chats * perChat);
    for (let c = 0; c < chats; c++) {
      const ofChat = stored.filter((m) => m.wid.startsWith(`C${c}-`));
      expect(ofChat.map((m) => m.body)).toEqual(Array.from({ length: perChat }, (_, n) => `${n}`));
      expect(new Set(ofChat.map((m) => m.ticketId)).size).toBe(1);
      const ticket = (await first(ctx.db.select().from(tickets).where(eq(tickets.id, ofChat[0]!.ticketId))))!;
      expect(ticket.unreadMessages).toBe(perChat);
      expect(ticket.lastMessage).toBe(`${perChat - 1}`);
    }
    const announced = ctx.hub.named("appMessage").filter((e) => e.payload.action === "create");
    expect(new Set(announced.map((e) => e.payload.message.id)).size).toBe(chats * perChat);
  });

  test("atomic blocks inside a write share its savepoint: one that fails fails the whole write, even when caught", async () => {
    const ctx = await makeTestApp();
    try {
      const commits = new GroupCommit(ctx.db, ctx.deps.events);
      const tag = (name: string) => ctx.db.insert(tags).values({ name, color: "#000000" });
      const failing = commits.run(async () => {
        await tag("kept-if-alone");
        await atomically(ctx.db, async () => {
          await tag("inner");
          throw new Error("inner block failed");
        }).catch(() => undefined);
        return "looked fine";
      });
      const other = commits.run(async () => {
        await atomically(ctx.db, async () => await tag("other"));
        return "stored";
      });
      await expect(failing).rejects.toThrow("inner block failed");
      expect(await other).toBe("stored");
      expect((await ctx.db.select().from(tags)).map((t) => t.name)).toEqual(["other"]);
    } finally {
      await closeDatabase(ctx.db);
    }
  });

  test("a batch with a write that fails in the database stores every other write once, answers and announces each once, in order; the failing write alone is refused", async () => {
    const ctx = await makeTestApp();
    try {
      const commits = new GroupCommit(ctx.db, ctx.deps.events);
      const heard: number[] = [];
      ctx.deps.events.subscribe((event) => {
        if (event.name === "tag.deleted") heard.push(event.payload.tagId);
      });
      await ctx.db.insert(tags).values({ name: "taken", color: "#000000" });
      // The duplicate name is refused by the database itself, which on PostgreSQL aborts the whole transaction.
      const write = (name: string, n: number) =>
        commits.run(async (events) => {
          await ctx.db.insert(tags).values({ name, color: "#000000" });
          events.emit("tag.deleted", { tagId: n });
          return n;
        });
      const answers = await Promise.allSettled([
        write("one", 1),
        write("taken", 2),
        write("three", 3),
        write("four", 4),
      ]);
      expect(answers.map((a) => (a.status === "fulfilled" ? a.value : "refused"))).toEqual([1, "refused", 3, 4]);
      const names = (await ctx.db.select().from(tags).orderBy(asc(tags.id))).map((t) => t.name);
      expect(names).toEqual(["taken", "one", "three", "four"]);
      expect(heard).toEqual([1, 3, 4]);
    } finally {
      await closeDatabase(ctx.db);
    }
  });

  test("a message the database refuses in a burst over many chats loses no other message: each is stored once, in its chat's order, and only its sender hears the error", async () => {
    const ctx = await makeTestApp();
    const conn = await createSandboxConnection(ctx);
    const allow = await refuseMessagesReading(ctx.db, "poison");
    try {
      await burstWithRefusedMessage(ctx, conn.id);
    } finally {
      await allow();
    }
  });
});

/** 12 chats of 4 messages, each delivered twice, where the database refuses the second message of chat 5. */
async function burstWithRefusedMessage(ctx: TestContext, connectionId: number) {
  const chats = 12;
  const perChat = 4;
  const sends: { chat: number; n: number; sent: Promise<string> }[] = [];
  for (let n = 0; n < perChat; n++)
    for (let c = 0; c < chats; c++)
      for (let copy = 0; copy < 2; copy++)
        sends.push({
          chat: c,
          n,
          sent: ctx.sandbox.inbound(connectionId, {
            from: `55119${String(c).padStart(8, "0")}`,
            id: `C${c}-M${n}`,
            body: c === 5 && n === 1 ? "poison" : `${n}`,
          }),
        });
  const outcomes = await Promise.allSettled(sends.map((s) => s.sent));
  const refused = sends.filter((_, i) => outcomes[i]!.status === "rejected").map((s) => `C${s.chat}-M${s.n}`);
  expect(refused).toEqual(["C5-M1", "C5-M1"]);
  const stored = await ctx.db.select().from(messages).orderBy(asc(messages.id));
  expect(stored).toHaveLength(chats * perChat - 1);
  for (let c = 0; c < chats; c++) {
    const expected = Array.from({ length: perChat }, (_, n) => `${n}`).filter((n) => c !== 5 || n !== "1");
    expect(stored.filter((m) => m.wid.startsWith(`C${c}-`)).map((m) => m.body)).toEqual(expected);
  }
  const announced = ctx.hub.named("appMessage").filter((e) => e.payload.action === "create");
  // Each message is announced to each of its rooms.
  const announcedIds = [...new Set(announced.map((e) => e.payload.message.id))].sort((a, b) => a - b);
  expect(announcedIds).toEqual(stored.map((m) => m.id));
}

/**
 * Makes the database itself refuse to store a message whose body is `body` (a trigger on either engine); returns
 * what removes the trigger again (a PostgreSQL test database is reused by the next test).
 */
async function refuseMessagesReading(db: Parameters<typeof execute>[0], body: string): Promise<() => Promise<void>> {
  if (dialectOf(db) === "postgres") {
    await execute(
      db,
      sql.raw(`CREATE OR REPLACE FUNCTION refuse_message() RETURNS trigger AS $$ BEGIN
        IF NEW.body = '${body}' THEN RAISE EXCEPTION 'message refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`),
    );
    await execute(
      db,
      sql.raw("CREATE TRIGGER refuse_message BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION refuse_message()"),
    );
    return async () => {
      await execute(db, sql.raw("DROP TRIGGER refuse_message ON messages"));
      await execute(db, sql.raw("DROP FUNCTION refuse_message()"));
    };
  }
  await execute(
    db,
    sql.raw(`CREATE TRIGGER refuse_message BEFORE INSERT ON messages WHEN NEW.body = '${body}'
      BEGIN SELECT RAISE(ABORT, 'message refused'); END`),
  );
  return async () => await execute(db, sql.raw("DROP TRIGGER refuse_message"));
}
