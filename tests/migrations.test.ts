// @engine once
import type { Database } from "bun:sqlite";
import { openDatabase, sqliteClient } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pendingMigrations, runMigrations } from "../src/db/migrate";
import { MIGRATIONS_DIR } from "../src/paths";
import { JOB_COLUMNS, jobsAfterJobLanes, laneAfterJobLanes, rowsBeforeJobLanes } from "./fixtures/before-job-lanes";

/** A copy of the migrations that stops before the one tagged `tag`. */
function migrationsBefore(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-migrations-"));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = join(dir, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(tag));
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/**
 * A database migrated up to the migration tagged `tag`, given rows by `seed`, then migrated to the newest: its
 * SQLite connection.
 */
function upgradedFrom(tag: string, seed: (sqlite: Database) => void): Database {
  const before = migrationsBefore(tag);
  try {
    const db = openDatabase(":memory:");
    runMigrations(db, before);
    seed(sqliteClient(db));
    runMigrations(db);
    return sqliteClient(db);
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
}

describe("migrations", () => {
  test("marking first agents marks, in events recorded before, each ticket's first change that gave it an agent, and no later one", () => {
    const sqlite = upgradedFrom("first_agent_events_index", (sqlite) => {
      sqlite.run("INSERT INTO contacts (id, name, number) VALUES (1, 'Ana', '5511988887777')");
      sqlite.run("INSERT INTO tickets (id, contact_id) VALUES (1, 1), (2, 1)");
      const event = (id: number, ticket: number, kind: string, from: number | null, to: number | null) =>
        sqlite.run(
          "INSERT INTO ticket_events (id, ticket_id, kind, cause, at, from_user_id, to_user_id) VALUES (?, ?, ?, 'agent', 0, ?, ?)",
          [id, ticket, kind, from, to],
        );
      event(1, 1, "created", null, null);
      event(2, 1, "accepted", null, 7);
      event(3, 1, "transferred", 7, null);
      event(4, 1, "accepted", null, 8);
      event(5, 2, "created", null, 7);
      event(6, 2, "transferred", null, 8);
    });

    const marked = sqlite.query("SELECT id FROM ticket_events WHERE value = 1 ORDER BY id").all();
    expect(marked).toEqual([{ id: 2 }]);
  });

  test("rebuilding the contacts table (number made optional) keeps every contact's tickets, messages and extra info", () => {
    const before = migrationsBefore("lid_contacts_and_history");
    try {
      const db = openDatabase(":memory:");
      runMigrations(db, before);
      sqliteClient(db).run("INSERT INTO contacts (id, name, number) VALUES (1, 'Ana', '5511988887777')");
      sqliteClient(db).run("INSERT INTO contact_extra_info (contact_id, name, value) VALUES (1, 'cpf', '123')");
      sqliteClient(db).run("INSERT INTO tickets (id, contact_id) VALUES (1, 1)");
      sqliteClient(db).run("INSERT INTO messages (wid, ticket_id, contact_id, body) VALUES ('W1', 1, 1, 'olá')");

      runMigrations(db);

      const count = (table: string) =>
        (sqliteClient(db).query(`SELECT count(*) n FROM ${table}`).get() as { n: number }).n;
      expect([count("contacts"), count("contact_extra_info"), count("tickets"), count("messages")]).toEqual([
        1, 1, 1, 1,
      ]);
      expect(sqliteClient(db).query("PRAGMA foreign_keys").get()).toEqual({ foreign_keys: 1 });
      // A contact needs a phone number or a LID.
      expect(() => sqliteClient(db).run("INSERT INTO contacts (name) VALUES ('nobody')")).toThrow();
      sqliteClient(db).run("INSERT INTO contacts (name, lid) VALUES ('LID only', '123456789012345')");
    } finally {
      rmSync(before, { recursive: true, force: true });
    }
  });

  test("moving bulk sends and schedules onto the job runner queues each pending recipient in its connection's lane, keeps each connection's wait and last day of sends, and drops the pollers", () => {
    const now = Date.now();
    const sqlite = upgradedFrom("job_lanes", (sqlite) => {
      for (const statement of rowsBeforeJobLanes(now, String(now))) sqlite.run(statement);
    });

    expect(sqlite.query(`SELECT ${JOB_COLUMNS} FROM jobs ORDER BY id`).all()).toEqual(jobsAfterJobLanes(now));
    expect(sqlite.query(`SELECT lane, last_at AS "lastAt", jitter_ms AS "jitterMs" FROM job_lanes`).all()).toEqual([
      laneAfterJobLanes(now),
    ]);
    expect(sqlite.query("SELECT name FROM sqlite_master WHERE name = 'bulk_lanes'").all()).toEqual([]);
  });

  test("ticket previews are filled in from each ticket's last message a person wrote, skipping automatic, deleted and private ones", () => {
    const sqlite = upgradedFrom("ticket_previews", (sqlite) => {
      const run = (sql: string) => sqlite.run(sql);
      run("INSERT INTO contacts (id, name, number) VALUES (1, 'Ana', '5511988887777')");
      run("INSERT INTO tickets (id, contact_id) VALUES (1, 1), (2, 1), (3, 1)");
      const message = (id: number, ticket: number, values: string) =>
        run(
          `INSERT INTO messages (id, wid, ticket_id, created_at, body, from_me, media_type, file_name, ack, is_deleted, is_private) VALUES (${id}, 'W${id}', ${ticket}, ${id}, ${values})`,
        );
      message(1, 1, "'invoice.pdf', 0, 'document', 'invoice.pdf', 0, 0, 0");
      message(2, 1, "'‎Hello! Choose:', 1, 'chat', NULL, 2, 0, 0");
      message(3, 2, "'Oi', 0, 'chat', NULL, 0, 0, 0");
      message(4, 2, "'Already there', 1, 'chat', NULL, 3, 0, 0");
      message(5, 2, "'oops', 1, 'chat', NULL, 3, 1, 0");
      message(6, 2, "'note', 0, 'chat', NULL, 0, 0, 1");
    });

    const previews = sqlite
      .query(
        "SELECT id, preview_kind k, preview_text t, preview_detail d, preview_from_me me, preview_ack ack, preview_message_id m FROM tickets ORDER BY id",
      )
      .all();
    expect(previews).toEqual([
      { id: 1, k: "document", t: "", d: "invoice.pdf", me: 0, ack: 0, m: 1 },
      { id: 2, k: "chat", t: "Already there", d: null, me: 1, ack: 3, m: 4 },
      { id: 3, k: null, t: "", d: null, me: 0, ack: 0, m: null },
    ]);
  });

  test("each ticket's message count is filled in from the messages it holds, and kept from then on", () => {
    const sqlite = upgradedFrom("ticket_message_count", (sqlite) => {
      sqlite.run("INSERT INTO contacts (id, name, number) VALUES (1, 'Ana', '5511988887777')");
      sqlite.run("INSERT INTO tickets (id, contact_id) VALUES (1, 1), (2, 1), (3, 1)");
      sqlite.run("INSERT INTO messages (wid, ticket_id, body) VALUES ('A', 1, 'a'), ('B', 2, 'b'), ('C', 1, 'c')");
    });
    sqlite.run("INSERT INTO messages (wid, ticket_id, body) VALUES ('D', 2, 'd')");

    expect(sqlite.query("SELECT id, message_count n FROM tickets ORDER BY id").all()).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
      { id: 3, n: 0 },
    ]);
  });

  test("an up-to-date database is left alone: no migration and no foreign key check run on start", () => {
    const db = openDatabase(":memory:");
    runMigrations(db);
    // A dangling key the check would refuse: only a run that skips the check starts.
    sqliteClient(db).exec("PRAGMA foreign_keys = OFF");
    sqliteClient(db).run("INSERT INTO tickets (id, contact_id) VALUES (1, 999)");
    sqliteClient(db).exec("PRAGMA foreign_keys = ON");
    const applied = () => sqliteClient(db).query("SELECT count(*) AS n FROM __drizzle_migrations").get();
    const before = applied();

    expect(() => runMigrations(db)).not.toThrow();
    expect(applied()).toEqual(before);
  });

  test("a database missing the newest migration gets it, checked", () => {
    const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as {
      entries: { tag: string }[];
    };
    const newest = journal.entries.at(-1)!.tag;
    const before = migrationsBefore(newest);
    try {
      const db = openDatabase(":memory:");
      runMigrations(db, before);
      expect(pendingMigrations(db)).toEqual([newest]);
      runMigrations(db);
      expect(pendingMigrations(db)).toEqual([]);
    } finally {
      rmSync(before, { recursive: true, force: true });
    }
  });
});
