// @engine each
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { version } from "../package.json";
import { closeDatabase, type Db, execute, rowsOf } from "../src/db/client";
import { newestMigration, newestRecorded } from "../src/db/schema-version";
import { startupFailure } from "../src/data-dirs";
import { StartupError } from "../src/errors";
import { createLogger } from "../src/log";
import { openStorage } from "../src/ops/storage";
import { MIGRATIONS_DIR, PG_MIGRATIONS_DIR } from "../src/paths";
import { freshPgUrl } from "./pg-harness";
import { testsOnPostgres } from "./test-engine";

const log = createLogger("silent");
const newest = newestMigration(testsOnPostgres ? PG_MIGRATIONS_DIR : MIGRATIONS_DIR)!;
const journal = testsOnPostgres ? sql.raw("drizzle.__drizzle_migrations") : sql.raw("__drizzle_migrations");

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** Where a server of this run's engine keeps its database: a new SQLite file, or a new PostgreSQL database. */
async function storage() {
  const dataDir = mkdtempSync(join(tmpdir(), "zapdesk-schema-"));
  dirs.push(dataDir);
  const databaseUrl = testsOnPostgres ? await freshPgUrl() : undefined;
  return { dataDir, databasePath: join(dataDir, "zapdesk.sqlite"), databaseUrl };
}

const recorded = (db: Db) =>
  rowsOf<{ version: string; schema: string }>(db, sql`SELECT version, schema FROM app_versions ORDER BY version`);

describe("schema versions", () => {
  test("a start records this build's version with the newest migration it knows", async () => {
    const db = await openStorage(await storage(), log);
    expect(await recorded(db)).toEqual([{ version, schema: newest.tag }]);
    await closeDatabase(db);
  });

  test("a database a newer Zapdesk migrated is refused with one line naming the version to run", async () => {
    const config = await storage();
    const db = await openStorage(config, log);
    // What a newer build leaves: one migration this build does not know, and its version.
    await execute(db, sql`INSERT INTO ${journal} (hash, created_at) VALUES ('future', ${newest.when + 60_000})`);
    await execute(db, sql`INSERT INTO app_versions (version, schema) VALUES ('9.1.0', '0099_future')`);
    await closeDatabase(db);

    const refusal = await openStorage(config, log).then(
      (opened) => closeDatabase(opened),
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(StartupError);
    expect((refusal as Error).message).toBe(
      `the database was migrated by Zapdesk 9.1.0 (schema 0099_future), newer than this Zapdesk ${version} (schema ${newest.tag}): run Zapdesk 9.1.0 or newer, or restore a backup taken before that upgrade`,
    );
    expect(startupFailure(refusal)!.split("\n")).toHaveLength(1);
  });

  test("a newer migration with no newer version recorded is refused as a newer Zapdesk's", async () => {
    const config = await storage();
    const db = await openStorage(config, log);
    await execute(db, sql`INSERT INTO ${journal} (hash, created_at) VALUES ('future', ${newest.when + 60_000})`);
    await closeDatabase(db);

    const refusal = await openStorage(config, log).then(closeDatabase, (error: unknown) => error);
    expect((refusal as Error).message).toStartWith(
      `the database was migrated by a newer Zapdesk, newer than this Zapdesk ${version} (schema ${newest.tag}): run that version or newer`,
    );
  });
});

test("the version follows semver and has moved past 0.1.0, the version of every earlier schema", () => {
  expect(version).toMatch(/^\d+\.\d+\.\d+$/);
  expect(version).not.toBe("0.1.0");
});

test("the build that migrated a database is the newest recorded version by semver, whatever order the rows came in", () => {
  const rows = [
    { version: "0.10.0", schema: "0040_x" },
    { version: "0.9.3", schema: "0031_y" },
    { version: "0.2.0", schema: "0023_z" },
  ];
  expect(newestRecorded(rows)?.version).toBe("0.10.0");
  expect(newestRecorded([...rows].reverse())?.version).toBe("0.10.0");
  expect(newestRecorded([])).toBeUndefined();
});
