import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { is, type Table } from "drizzle-orm";
import { getTableConfig as pgConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as pgSchema from "../src/db/pg-schema";
import * as sqliteSchema from "../src/db/schema";
import { PG_MIGRATIONS_DIR } from "../src/paths";
import { DIALECT_FILES, PG_SCHEMA_DIR, pgSchemaFiles } from "../scripts/pg-schema";
import { toPostgres } from "../scripts/pg-schema-rules";

/** What both dialects must agree on for one table, in plain data that `toEqual` compares and prints. */
interface TableShape {
  name: string;
  columns: Record<
    string,
    { reads: string; notNull: boolean; primary: boolean; hasDefault: boolean; generatedId: boolean }
  >;
  primaryKey: string[];
  unique: string[];
  indexes: string[];
  foreignKeys: string[];
  checks: string[];
}

type AnyConfig = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>;

/**
 * The kind of JavaScript value the app reads from a column (number, string, boolean, date, bytes), with a text
 * column's allowed values: the same on both sides, so one service layer can run on either database.
 */
function readsAs(column: AnyConfig["columns"][number]): string {
  const kind = column.columnType === "PgCustomColumn" && column.getSQLType() === "bytea" ? "buffer" : column.dataType;
  return column.enumValues ? `${kind} (${column.enumValues.join(" | ")})` : kind;
}

function shapeOf(config: AnyConfig): TableShape {
  const names = (columns: { name: string }[]) => columns.map((c) => c.name).join(", ");
  const columns = Object.fromEntries(
    config.columns.map((c) => {
      // SQLite numbers an integer primary key by itself (AUTOINCREMENT or not); PostgreSQL only an identity.
      const generatedId =
        ("autoIncrement" in c && c.autoIncrement === true) || ("generatedIdentity" in c && !!c.generatedIdentity);
      const shape = { notNull: c.notNull, primary: c.primary, hasDefault: c.primary ? false : c.hasDefault };
      return [c.name, { reads: readsAs(c), ...shape, generatedId }];
    }),
  );
  const primaryKey = [
    ...config.columns.filter((c) => c.primary).map((c) => c.name),
    ...config.primaryKeys.map((pk) => `(${names(pk.columns)})`),
  ];
  const unique = [
    ...config.columns.filter((c) => c.isUnique).map((c) => `${c.uniqueName} (${c.name})`),
    ...config.uniqueConstraints.map((u) => `${u.getName()} (${names(u.columns)})`),
  ].sort();
  const indexes = config.indexes
    .map((i) => {
      const columns = (i.config.columns as { name?: string }[]).map((c) => c.name ?? "<expression>");
      return `${i.config.name}${i.config.unique ? " unique" : ""} (${columns.join(", ")})`;
    })
    .sort();
  const foreignKeys = config.foreignKeys
    .map((fk) => {
      const ref = fk.reference();
      const target = ref.foreignTable as Table;
      const targetName = (is(target, PgTable) ? pgConfig(target) : sqliteConfig(target as SQLiteTable)).name;
      return `(${names(ref.columns)}) → ${targetName}(${names(ref.foreignColumns)}) on delete ${fk.onDelete ?? "no action"}`;
    })
    .sort();
  const checks = config.checks.map((c) => c.name).sort();
  return { name: config.name, columns, primaryKey, unique, indexes, foreignKeys, checks };
}

function tablesOf(schema: Record<string, unknown>, kind: typeof PgTable | typeof SQLiteTable) {
  return Object.fromEntries(Object.entries(schema).filter(([, value]) => is(value, kind))) as Record<string, Table>;
}

const sqliteTables = tablesOf(sqliteSchema, SQLiteTable);
const pgTables = tablesOf(pgSchema, PgTable);
const sqliteShape = (name: string) => shapeOf(sqliteConfig(sqliteTables[name] as SQLiteTable));
const pgShape = (name: string) => shapeOf(pgConfig(pgTables[name] as PgTable));

describe("src/db/pg-schema is generated from src/db/schema", () => {
  test("every file is what scripts/pg-schema.ts writes from the SQLite schema as it is now", () => {
    const stale = "is not generated from src/db/schema as it is now: run `npm run db:generate`";
    const generated = pgSchemaFiles();
    const onDisk = readdirSync(PG_SCHEMA_DIR).filter((file) => !DIALECT_FILES.includes(file));
    expect(onDisk.sort(), `src/db/pg-schema ${stale}`).toEqual([...generated.keys()]);
    for (const [file, text] of generated)
      expect(readFileSync(join(PG_SCHEMA_DIR, file), "utf8"), `src/db/pg-schema/${file} ${stale}`).toBe(text);
  });

  test("a SQLite spelling with no PostgreSQL rule stops the generator, naming the file and line", () => {
    const table = (column: string) =>
      `import { integer, sqliteTable } from "drizzle-orm/sqlite-core";\n\nexport const t = sqliteTable("t", {\n  ${column},\n});\n`;
    expect(toPostgres(table('at: integer("at", { mode: "timestamp_ms" })'), "t.ts")).toContain('at: date("at")');
    expect(() => toPostgres(table('at: integer("at", { mode: "timestamp" })'), "t.ts")).toThrow(
      't.ts:4: no PostgreSQL rule for this SQLite spelling: at: integer("at", { mode: "timestamp" })',
    );
    expect(() => toPostgres(table('data: text("data", { mode: "json" })'), "t.ts")).toThrow("t.ts:4");
    const real = 'import { real, sqliteTable } from "drizzle-orm/sqlite-core";\n';
    expect(() => toPostgres(real, "t.ts")).toThrow("t.ts: no PostgreSQL rule for `real` from drizzle-orm/sqlite-core");
  });
});

describe("the PostgreSQL schema is the SQLite schema's twin", () => {
  test("both export the same tables under the same names", () => {
    expect(Object.keys(pgTables).sort()).toEqual(Object.keys(sqliteTables).sort());
    expect(Object.keys(sqliteTables).length).toBeGreaterThan(30);
  });

  for (const name of Object.keys(sqliteTables).sort())
    test(`${name}: same SQL name, columns, keys, unique constraints, indexes, foreign keys and checks`, () => {
      expect(pgTables[name]).toBeDefined();
      expect(pgShape(name)).toEqual(sqliteShape(name));
    });
});

describe("the PostgreSQL migrations", () => {
  test("create the schema as it is written: no change waits for `npm run db:generate`", async () => {
    const { generateDrizzleJson, generateMigration } = await import("drizzle-kit/api");
    const journal = JSON.parse(readFileSync(join(PG_MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as {
      entries: { idx: number }[];
    };
    const last = String(journal.entries.at(-1)!.idx).padStart(4, "0");
    const snapshot = JSON.parse(readFileSync(join(PG_MIGRATIONS_DIR, "meta", `${last}_snapshot.json`), "utf8"));
    const pending = await generateMigration(snapshot, generateDrizzleJson(pgSchema));
    expect(pending).toEqual([]);
  });
});

describe("the comparison notices a difference", () => {
  const base = sqliteShape("messages");

  test("a column, an index or a foreign key present on one side only", async () => {
    const { index, integer, sqliteTable, text } = await import("drizzle-orm/sqlite-core");
    const { tickets } = sqliteSchema;
    const withColumn = sqliteTable("messages", { id: integer("id").primaryKey(), extra: text("extra") });
    expect(shapeOf(sqliteConfig(withColumn)).columns).not.toEqual(
      shapeOf(sqliteConfig(sqliteTable("messages", { id: integer("id").primaryKey() }))).columns,
    );
    const indexed = sqliteTable("t", { a: integer("a"), b: integer("b") }, (t) => [index("t_a_idx").on(t.a)]);
    const otherColumns = sqliteTable("t", { a: integer("a"), b: integer("b") }, (t) => [index("t_a_idx").on(t.b)]);
    const bare = sqliteTable("t", { a: integer("a"), b: integer("b") });
    expect(shapeOf(sqliteConfig(indexed)).indexes).toEqual(["t_a_idx (a)"]);
    expect(shapeOf(sqliteConfig(otherColumns))).not.toEqual(shapeOf(sqliteConfig(indexed)));
    expect(shapeOf(sqliteConfig(bare))).not.toEqual(shapeOf(sqliteConfig(indexed)));
    const cascading = sqliteTable("r", {
      ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "cascade" }),
    });
    const settingNull = sqliteTable("r", {
      ticketId: integer("ticket_id").references(() => tickets.id, { onDelete: "set null" }),
    });
    expect(shapeOf(sqliteConfig(cascading)).foreignKeys).toEqual(["(ticket_id) → tickets(id) on delete cascade"]);
    expect(shapeOf(sqliteConfig(cascading))).not.toEqual(shapeOf(sqliteConfig(settingNull)));
    expect(base.indexes).toContain("messages_whatsapp_wid_unique unique (whatsapp_id, wid)");
    expect(base.columns.created_at!.reads).toBe("date");
    expect(base.columns.from_me!.reads).toBe("boolean");
    expect(base.columns.send_state!.reads).toBe("string (queued | sending | sent | failed)");
    expect(sqliteShape("waSentMessages").columns.content!.reads).toBe("buffer");
  });
});
