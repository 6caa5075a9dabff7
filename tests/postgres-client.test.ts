// @engine once
import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase, openDatabase } from "../src/db/client";
import { runMigrations } from "../src/db/migrate";
import * as pgSchema from "../src/db/pg-schema";
import {
  closePostgres,
  MIGRATION_LOCK,
  openPostgres,
  type PgDb,
  postgresAddress,
  postgresOptions,
  runPgMigrations,
} from "../src/db/postgres";
import * as schema from "../src/db/schema";
import { StartupError } from "../src/errors";
import { PG_MIGRATIONS_DIR } from "../src/paths";
import { emptyPgUrl, freshPgUrl, pgServer } from "./pg-harness";
import { hasPostgres } from "./sql-servers";
import { JOB_COLUMNS, jobsAfterJobLanes, laneAfterJobLanes, rowsBeforeJobLanes } from "./fixtures/before-job-lanes";

const journal = JSON.parse(readFileSync(join(PG_MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as {
  entries: { tag: string; when: number }[];
};

describe("postgresOptions", () => {
  test("a TCP URL names its database and pools ten connections unless ?max= says otherwise", () => {
    expect(postgresOptions("postgres://zap:s%40cret@db.local:6432/zap%20desk")).toEqual({
      url: "postgres://zap:s%40cret@db.local:6432/zap%20desk",
      database: "zap desk",
      max: 10,
    });
    expect(postgresOptions("postgresql://zap@db.local/zapdesk?max=25&sslmode=require")).toMatchObject({
      database: "zapdesk",
      max: 25,
    });
  });

  test("a unix-socket URL, with no host before the database, names its database", () => {
    expect(postgresOptions("postgres://zap@/zapdesk?host=/var/run/postgresql&max=4")).toMatchObject({
      database: "zapdesk",
      max: 4,
    });
    expect(postgresOptions("postgresql:///zapdesk?host=/var/run/postgresql")).toMatchObject({ database: "zapdesk" });
  });

  test("the address a log shows is the host and port, or the socket file, without user, password or database", () => {
    expect(postgresAddress("postgres://zap:s@cret@db.local:6432/zapdesk")).toBe("db.local:6432");
    expect(postgresAddress("postgresql://zap@db.local/zapdesk?max=25")).toBe("db.local:5432");
    expect(postgresAddress("postgres://zap:pw@[::1]:6432/zapdesk")).toBe("[::1]:6432");
    expect(postgresAddress("postgres://zap@/zapdesk?host=/var/run/postgresql")).toBe(
      "/var/run/postgresql/.s.PGSQL.5432",
    );
    expect(postgresAddress("postgresql:///zapdesk?host=/run/pg&port=6000")).toBe("/run/pg/.s.PGSQL.6000");
  });

  test("other URLs and pool sizes that are not whole numbers are refused", () => {
    expect(() => postgresOptions("mysql://root@localhost/zapdesk")).toThrow("postgres:// or postgresql://");
    expect(() => postgresOptions("/var/lib/zapdesk.sqlite")).toThrow("postgres:// or postgresql://");
    expect(() => postgresOptions("postgres://zap@db/zapdesk?max=0")).toThrow("whole number");
    expect(() => postgresOptions("postgres://zap@db/zapdesk?max=ten")).toThrow("whole number");
  });
});

async function one<T>(db: PgDb, query: string): Promise<T> {
  const rows = (await db.$client.unsafe(query)) as T[];
  return rows[0]!;
}

async function appliedMigrations(db: PgDb): Promise<number[]> {
  const rows = (await db.$client.unsafe(
    "SELECT created_at::float8 AS at FROM drizzle.__drizzle_migrations ORDER BY created_at",
  )) as { at: number }[];
  return rows.map((r) => r.at);
}

async function hasTable(db: PgDb, name: string): Promise<boolean> {
  return (await one<{ yes: boolean }>(db, `SELECT to_regclass('public.${name}') IS NOT NULL AS yes`)).yes;
}

describe.skipIf(!hasPostgres)("PostgreSQL client", () => {
  // Bun fills a pool as soon as it is used: each test closes its pools, or the cluster runs out of connections.
  let opened: PgDb[] = [];
  const open = (url: string) => {
    const db = openPostgres(url);
    opened.push(db);
    return db;
  };

  beforeAll(() => {
    pgServer();
  });

  afterEach(async () => {
    await Promise.all(opened.map(closePostgres));
    opened = [];
  });

  test("connects by TCP and through the unix socket, under both URL schemes", async () => {
    const { port, socketDir } = pgServer();
    const name = new URL(await freshPgUrl()).pathname.slice(1);
    const urls = {
      tcp: `postgres://postgres@127.0.0.1:${port}/${name}`,
      socket: `postgres://postgres@/${name}?host=${socketDir}&port=${port}`,
      socketPostgresql: `postgresql://postgres@/${name}?host=${socketDir}&port=${port}`,
    };
    const seen: Record<string, unknown> = {};
    for (const [kind, url] of Object.entries(urls))
      seen[kind] = await one(open(url), "SELECT current_database() AS db, host(inet_server_addr()) AS address");
    expect(seen).toEqual({
      tcp: { db: name, address: "127.0.0.1" },
      socket: { db: name, address: null },
      socketPostgresql: { db: name, address: null },
    });
  });

  test("the URL's database wins over a PGDATABASE in the environment", async () => {
    const url = await freshPgUrl();
    const before = process.env.PGDATABASE;
    process.env.PGDATABASE = "postgres";
    try {
      const db = open(url);
      expect((await one<{ db: string }>(db, "SELECT current_database() AS db")).db).toBe(
        new URL(url).pathname.slice(1),
      );
    } finally {
      if (before === undefined) delete process.env.PGDATABASE;
      else process.env.PGDATABASE = before;
    }
  });

  test("nodes migrating one new database at once leave one applied set and no error", async () => {
    const url = await emptyPgUrl();
    const nodes = [open(url), open(url), open(url)];
    await Promise.all(nodes.map((db) => runPgMigrations(db)));
    expect(await appliedMigrations(nodes[0]!)).toEqual(journal.entries.map((e) => e.when));
    expect(await hasTable(nodes[0]!, "tickets")).toBe(true);

    await runPgMigrations(nodes[1]!);
    expect(await appliedMigrations(nodes[0]!)).toEqual(journal.entries.map((e) => e.when));
  });

  test("a node finding migrations pending waits for the node holding the lock", async () => {
    const url = await emptyPgUrl();
    const holder = await open(url).$client.reserve();
    const watcher = open(url);
    await holder`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    let done = false;
    const migrating = runPgMigrations(open(url)).then(() => {
      done = true;
    });
    // Waiting shows in pg_stat_activity as a backend blocked on an advisory lock.
    for (;;) {
      const waiting = await one<{ n: number }>(
        watcher,
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'advisory'",
      );
      if (waiting.n > 0) break;
    }
    expect(done).toBe(false);
    expect(await hasTable(watcher, "tickets")).toBe(false);
    await holder`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`;
    holder.release();
    await migrating;
    expect(await hasTable(watcher, "tickets")).toBe(true);
  });

  test("a database whose encoding is not UTF8 is refused before anything is written, saying how to make one", async () => {
    for (const encoding of ["SQL_ASCII", "LATIN1"]) {
      const url = await emptyPgUrl(encoding);
      const name = new URL(url).pathname.slice(1);
      const db = open(url);
      const refusal = await runPgMigrations(db).catch((error: Error) => error);
      expect(refusal).toBeInstanceOf(StartupError);
      expect((refusal as Error).message).toBe(
        `the PostgreSQL database ${name} uses the encoding ${encoding}; Zapdesk needs UTF8: create it with createdb -E UTF8 -T template0 ${name} (or move its data into such a database with pg_dump and pg_restore)`,
      );
      expect(await hasTable(db, "tickets")).toBe(false);
    }
  });

  test("an up-to-date database is checked without waiting for the lock", async () => {
    const url = await freshPgUrl();
    const holder = await open(url).$client.reserve();
    await holder`SELECT pg_advisory_lock(${MIGRATION_LOCK})`;
    try {
      await runPgMigrations(open(url));
    } finally {
      await holder`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`;
      holder.release();
    }
  });

  test("rows read back as the same JavaScript values as from SQLite: dates, booleans, bytes", async () => {
    const pg = open(await freshPgUrl());
    const sqlite = openDatabase(":memory:");
    runMigrations(sqlite);
    const at = new Date("2026-03-04T05:06:07.089Z");
    const later = new Date("2026-03-05T00:00:00.001Z");
    const rows = {
      connection: { name: "Loja", createdAt: at, updatedAt: later },
      contact: {
        name: "Ana",
        number: "5511988887777",
        isGroup: true,
        pictureCheckedAt: at,
        createdAt: at,
        updatedAt: at,
      },
      ticket: { contactId: 1, whatsappId: 1, status: "open" as const, isBot: true, createdAt: at, updatedAt: later },
      sent: { whatsappId: 1, wid: "ABC", content: Buffer.from([0, 1, 254, 255]), createdAt: later },
    };
    try {
      await pg.insert(pgSchema.connections).values(rows.connection);
      await pg.insert(pgSchema.contacts).values(rows.contact);
      await pg.insert(pgSchema.tickets).values(rows.ticket);
      await pg.insert(pgSchema.waSentMessages).values(rows.sent);
      await sqlite.insert(schema.connections).values(rows.connection);
      await sqlite.insert(schema.contacts).values(rows.contact);
      await sqlite.insert(schema.tickets).values(rows.ticket);
      await sqlite.insert(schema.waSentMessages).values(rows.sent);

      const fromPg = {
        connections: await pg.select().from(pgSchema.connections),
        contacts: await pg.select().from(pgSchema.contacts),
        tickets: await pg.select().from(pgSchema.tickets),
        sent: await pg.select().from(pgSchema.waSentMessages),
      };
      const fromSqlite = {
        connections: await sqlite.select().from(schema.connections),
        contacts: await sqlite.select().from(schema.contacts),
        tickets: await sqlite.select().from(schema.tickets),
        sent: await sqlite.select().from(schema.waSentMessages),
      };
      expect(fromPg).toEqual(fromSqlite);
      expect(fromPg.tickets[0]).toMatchObject({ createdAt: at, updatedAt: later, isBot: true, isGroup: false });
      expect(fromPg.contacts[0]!.pictureCheckedAt).toBeInstanceOf(Date);
      expect(Buffer.isBuffer(fromPg.sent[0]!.content)).toBe(true);
    } finally {
      await closeDatabase(sqlite);
    }
  });

  test("each fresh database is migrated and shares no rows with another", async () => {
    const [a, b] = [open(await freshPgUrl()), open(await freshPgUrl())];
    await a.insert(pgSchema.contacts).values({ name: "Ana", number: "5511988887777" });
    expect(await a.select().from(pgSchema.contacts)).toHaveLength(1);
    expect(await b.select().from(pgSchema.contacts)).toEqual([]);
    expect(await appliedMigrations(b)).toEqual(journal.entries.map((e) => e.when));
  });

  test("moving bulk sends and schedules onto the job runner queues each pending recipient in its connection's lane, keeps each connection's wait and last day of sends, and drops the pollers", async () => {
    const before = mkdtempSync(join(tmpdir(), "zapdesk-pg-migrations-"));
    try {
      cpSync(PG_MIGRATIONS_DIR, before, { recursive: true });
      writeFileSync(
        join(before, "meta", "_journal.json"),
        // The installation as it was: every migration before job_lanes, none after it.
        JSON.stringify({
          ...journal,
          entries: journal.entries.slice(
            0,
            journal.entries.findIndex((e) => e.tag.endsWith("job_lanes")),
          ),
        }),
      );
      const db = open(await emptyPgUrl());
      await runPgMigrations(db, before);
      const now = Date.now();
      for (const statement of rowsBeforeJobLanes(now, `to_timestamp(${now / 1000})`))
        await db.$client.unsafe(statement);

      await runPgMigrations(db);

      const jobs = JOB_COLUMNS.replace("counted_at", "counted_at::float8");
      expect([...(await db.$client.unsafe(`SELECT ${jobs} FROM jobs ORDER BY id`))]).toEqual(jobsAfterJobLanes(now));
      expect(
        await one(db, `SELECT lane, last_at::float8 AS "lastAt", jitter_ms::float8 AS "jitterMs" FROM job_lanes`),
      ).toEqual(laneAfterJobLanes(now));
      expect(await hasTable(db, "bulk_lanes")).toBe(false);
    } finally {
      rmSync(before, { recursive: true, force: true });
    }
  });

  test("each ticket's message count is filled in from the messages it holds, and kept from then on", async () => {
    const before = mkdtempSync(join(tmpdir(), "zapdesk-pg-migrations-"));
    try {
      cpSync(PG_MIGRATIONS_DIR, before, { recursive: true });
      const at = journal.entries.findIndex((e) => e.tag.endsWith("ticket_message_count"));
      writeFileSync(
        join(before, "meta", "_journal.json"),
        JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }),
      );
      const db = open(await emptyPgUrl());
      await runPgMigrations(db, before);
      await db.$client.unsafe("INSERT INTO contacts (id, name, number) VALUES (1, 'Ana', '5511988887777')");
      await db.$client.unsafe("INSERT INTO tickets (id, contact_id) VALUES (1, 1), (2, 1), (3, 1)");
      await db.$client.unsafe(
        "INSERT INTO messages (wid, ticket_id, body) VALUES ('A', 1, 'a'), ('B', 2, 'b'), ('C', 1, 'c')",
      );

      await runPgMigrations(db);
      await db.$client.unsafe("INSERT INTO messages (wid, ticket_id, body) VALUES ('D', 2, 'd')");

      expect([...(await db.$client.unsafe("SELECT id, message_count AS n FROM tickets ORDER BY id"))]).toEqual([
        { id: 1, n: 2 },
        { id: 2, n: 2 },
        { id: 3, n: 0 },
      ]);
    } finally {
      rmSync(before, { recursive: true, force: true });
    }
  });

  test("the pool opens at most as many connections as ?max= asks", async () => {
    const url = await freshPgUrl();
    const backends = async (max: string) => {
      const db = open(`${url}?max=${max}`);
      const rows = await Promise.all(
        Array.from({ length: 8 }, () => db.$client`SELECT pg_backend_pid() AS pid, pg_sleep(0.02)`),
      );
      return new Set(rows.map((r) => r[0].pid)).size;
    };
    expect(await backends("2")).toBe(2);
    expect(await backends("8")).toBeGreaterThan(2);
  });
});
