// @engine once
import { atomically, closeDatabase, first, openDatabase, sqliteClient } from "../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { type Column, eq, getTableColumns, is, type Table } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sql";
import { getTableConfig as sqliteConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { runCommand } from "../src/cli";
import * as pgSchema from "../src/db/pg-schema";
import * as schema from "../src/db/schema";
import { call, createSandboxConnection, createUser, loginAs, makeTestApp } from "./helpers";
import { hasPostgres, startPostgres } from "./sql-servers";

const BYTES = Buffer.from([0, 1, 2, 127, 128, 254, 255]);
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
/** Enough messages for several INSERT batches. */
const EXTRA_MESSAGES = 2_500;

/** An installation used for a while, built through the app: people, queues, conversations with media, hooks, jobs. */
async function seedInstallation(dir: string) {
  const ctx = await makeTestApp({
    databasePath: join(dir, "zapdesk.sqlite"),
    mediaDir: join(dir, "media"),
    // The hook below points at this machine, where nothing listens: its attempt is a row to migrate.
    webhookAllowPrivate: true,
  });
  const { user: admin, token } = await loginAs(ctx, { profile: "admin", email: "ana@example.com" });
  const queue = await call(ctx.app, "POST", "/api/queue", {
    token,
    body: { name: "Vendas", color: "#ff0000", greetingMessage: "Olá" },
  });
  expect(queue.status).toBe(200);
  const agent = await loginAs(ctx, { name: "Bia", queueIds: [queue.json.id] });
  await createUser(ctx, { profile: "user", name: "Caio" });
  expect((await call(ctx.app, "POST", "/api/tags", { token, body: { name: "VIP", color: "#f00" } })).status).toBe(200);
  const answer = await call(ctx.app, "POST", "/api/quickAnswers", {
    token,
    body: { shortcut: "pix", message: "Nossa chave PIX é loja@example.com" },
  });
  expect(answer.status).toBe(200);
  const hook = await call(ctx.app, "POST", "/api/webhooks", {
    token,
    body: { url: "http://127.0.0.1:9/hook", events: ["message.received"] },
  });
  expect(hook.status).toBe(200);

  const wa = await createSandboxConnection(ctx, { isDefault: true });
  await ctx.sandbox.inbound(wa.id, { from: "5511988887777", name: "Ana", body: "Bom dia, meu pedido" });
  await ctx.sandbox.inbound(wa.id, {
    from: "5511988887777",
    name: "Ana",
    body: "foto",
    mediaType: "image",
    mediaBase64: PNG,
  });
  await ctx.sandbox.inbound(wa.id, { from: "5511977776666", name: "Caio", body: "Oi" });
  const ticket = (await ctx.db.select().from(schema.tickets))[0]!;
  const accept = await call(ctx.app, "PUT", `/api/tickets/${ticket.id}`, {
    token,
    body: { status: "open", userId: admin.id },
  });
  expect(accept.status).toBe(200);
  const reply = await call(ctx.app, "POST", `/api/messages/${ticket.id}`, {
    token,
    body: { body: "Já vejo", quotedMsg: { id: (await ctx.db.select().from(schema.messages))[0]!.id } },
  });
  expect(reply.status).toBe(200);
  await call(ctx.app, "POST", `/api/messages/${ticket.id}`, { token, body: { body: "nota", isPrivate: true } });
  await ctx.deps.outbox.idle(wa.id);
  await ctx.sandbox.network.settle();
  const schedule = await call(ctx.app, "POST", "/api/schedules", {
    token: agent.token,
    body: {
      sendAt: new Date(ctx.clock.now() + 3_600_000).toISOString(),
      body: "Lembrete",
      contactId: ticket.contactId,
    },
  });
  expect(schedule.status).toBe(200);
  await ctx.deps.jobs.tick();

  // What the API has no door for: a chatbot option listed before its parent, bytes a Baileys connection sent,
  // a bulk record, a job, and a long history.
  await ctx.db.insert(schema.chatbots).values({ id: 20, name: "Planos", queueId: queue.json.id });
  await ctx.db.insert(schema.chatbots).values({ id: 10, name: "Anual", parentId: 20, isAgent: true });
  await ctx.db.insert(schema.waSentMessages).values({ whatsappId: wa.id, wid: "3EB0", content: BYTES });
  await ctx.db.insert(schema.waAuthKeys).values({ whatsappId: wa.id, type: "pre-key", keyId: "1", value: "{}" });
  await ctx.db
    .insert(schema.connectionPhonebook)
    .values({ whatsappId: wa.id, jid: "5511@s.whatsapp.net", name: "Ana" });
  await ctx.db.insert(schema.ticketTags).values({ ticketId: ticket.id, tagId: 1 });
  await ctx.db.insert(schema.messageReactions).values({ messageId: 1, reactor: "me", emoji: "👍" });
  await ctx.db.insert(schema.contactExtraInfo).values({ contactId: ticket.contactId, name: "CPF", value: "123" });
  await ctx.db.insert(schema.ticketDialogs).values({ ticketId: ticket.id, menuSentAt: new Date(1_763_000_000_789) });
  await ctx.db
    .insert(schema.massMessages)
    .values({ whatsappId: wa.id, phone: "5511", message: "promo", status: "sent", sentAt: 1_763_000_000_123 });
  await ctx.db.insert(schema.jobs).values({ kind: "probe", key: "probe", runAt: 1_763_000_000_456, everyMs: 60_000 });
  const at = Date.UTC(2026, 0, 1);
  await atomically(ctx.db, async (tx) => {
    for (let i = 0; i < EXTRA_MESSAGES; i++)
      await tx.insert(schema.messages).values({
        wid: `OLD${i}`,
        ticketId: ticket.id,
        body: `mensagem ${i}`,
        fromMe: i % 2 === 0,
        ack: i % 4,
        createdAt: new Date(at + i * 1_001),
        updatedAt: new Date(at + i * 1_001 + 7),
      });
  });
  // A quote of a message copied in a later batch.
  const last = (await first(
    ctx.db
      .select()
      .from(schema.messages)
      .where(eq(schema.messages.wid, `OLD${EXTRA_MESSAGES - 1}`)),
  ))!;
  await ctx.db.update(schema.messages).set({ quotedMsgId: last.id }).where(eq(schema.messages.wid, "OLD0"));
  await closeDatabase(ctx.db);
}

const sqliteTables = (Object.entries(schema) as [string, unknown][]).filter((e): e is [string, SQLiteTable] =>
  is(e[1], SQLiteTable),
);

/** A table's rows in a stable order (by primary key), the same on both sides whatever each database's collation. */
function sorted<T extends Record<string, unknown>>(rows: T[], table: SQLiteTable): T[] {
  const config = sqliteConfig(table);
  const keyColumns = [
    ...config.columns.filter((c) => c.primary),
    ...config.primaryKeys.flatMap((pk) => pk.columns),
  ].map((c) => c.name);
  const keys = Object.entries(getTableColumns(table) as Record<string, Column>)
    .filter(([, c]) => keyColumns.includes(c.name))
    .map(([key]) => key);
  const keyOf = (row: T) => JSON.stringify(keys.map((k) => row[k]));
  return [...rows].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}

describe.skipIf(!hasPostgres)("zapdesk migrate-to-postgres", () => {
  let server: ReturnType<typeof startPostgres>;
  let dir: string;
  let pg: SQL;
  const lines: string[] = [];
  const errors: string[] = [];
  const io = { out: (l: string) => lines.push(l), err: (l: string) => errors.push(l) };
  const migrate = (url: string) => runCommand(["migrate-to-postgres", "--to", url], { DATA_DIR: dir }, io);

  beforeAll(async () => {
    server = startPostgres();
    pg = new SQL(server.url);
    dir = mkdtempSync(join(tmpdir(), "zapdesk-to-pg-"));
    await seedInstallation(dir);
  }, 60_000);

  afterAll(async () => {
    await pg?.close();
    server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("copies every table, prints each table's counts and exits 0 when they all match", async () => {
    expect(await migrate(server.url)).toBe(0);
    expect(errors).toEqual([]);
    expect(lines[0]).toContain("the server must be stopped");
    expect(lines.at(-1)).toMatch(/^done: \d+ rows in \d+ tables copied and counted/);
    const sqlite = openDatabase(join(dir, "zapdesk.sqlite"));
    try {
      for (const [, table] of sqliteTables) {
        const name = sqliteConfig(table).name;
        const { n } = sqliteClient(sqlite).query(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number };
        const [row] = (await pg.unsafe(`SELECT count(*)::int AS n FROM "${name}"`)) as { n: number }[];
        expect({ name, n: row!.n }).toEqual({ name, n });
        expect(lines.some((l) => new RegExp(`^${name} +${n} in SQLite +${n} in PostgreSQL$`).test(l))).toBe(true);
      }
    } finally {
      await closeDatabase(sqlite);
    }
  }, 60_000);

  test("every row reads back with the same values: ids, dates to the millisecond, booleans, numbers, bytes", async () => {
    const sqlite = openDatabase(join(dir, "zapdesk.sqlite"));
    const target = drizzle({ client: pg, schema: pgSchema });
    const pgTables = pgSchema as unknown as Record<string, Table>;
    try {
      for (const [name, table] of sqliteTables) {
        const copied = (await target.select().from(pgTables[name] as never)) as Record<string, unknown>[];
        const original = (await sqlite.select().from(table)) as Record<string, unknown>[];
        expect(original.length).toBeGreaterThanOrEqual(name === "messages" ? EXTRA_MESSAGES : 0);
        expect(sorted(copied, table)).toEqual(sorted(original, table));
      }
      const [sent] = await target.select().from(pgSchema.waSentMessages);
      expect(Buffer.isBuffer(sent!.content) && sent!.content.equals(BYTES)).toBe(true);
      const [old] = await pg`SELECT from_me, created_at, updated_at FROM messages WHERE wid = 'OLD1'`;
      expect(old).toEqual({
        from_me: false,
        created_at: new Date(Date.UTC(2026, 0, 1) + 1_001),
        updated_at: new Date(Date.UTC(2026, 0, 1) + 1_008),
      });
      const chatbots = await target.select().from(pgSchema.chatbots);
      expect(chatbots.find((c) => c.id === 10)).toMatchObject({ parentId: 20, isAgent: true });
      const [quoting] = await target.select().from(pgSchema.messages).where(eq(pgSchema.messages.wid, "OLD0"));
      expect(quoting!.quotedMsgId).toBeGreaterThan(quoting!.id + 2_000);
      const [job] = await target.select().from(pgSchema.jobs).where(eq(pgSchema.jobs.key, "probe"));
      expect(job).toMatchObject({ runAt: 1_763_000_000_456, everyMs: 60_000 });
      const counted = await pg`SELECT count(*)::int AS n FROM sandbox_messages WHERE media_path IS NOT NULL`;
      expect(counted[0].n).toBeGreaterThan(0);
    } finally {
      await closeDatabase(sqlite);
    }
  });

  test("a row added after the copy gets the id after the highest copied one", async () => {
    const [{ max }] = await pg`SELECT max(id)::int AS max FROM messages`;
    const [ticket] = await pg`SELECT id FROM tickets LIMIT 1`;
    const [added] = await pg`INSERT INTO messages (wid, ticket_id) VALUES ('NEW', ${ticket.id}) RETURNING id`;
    expect(added.id).toBe(max + 1);
    const [bot] = await pg`INSERT INTO chatbots (name) VALUES ('Novo') RETURNING id`;
    expect(bot.id).toBe(21);
  });

  test("a second run into the filled database is refused and changes nothing", async () => {
    const [before] = await pg`SELECT count(*)::int AS n FROM messages`;
    errors.length = 0;
    expect(await migrate(server.url)).toBe(1);
    expect(errors.join("\n")).toContain("the target database already holds Zapdesk data");
    expect(errors.join("\n")).toContain("migrate into an empty database");
    const [after] = await pg`SELECT count(*)::int AS n FROM messages`;
    expect(after.n).toBe(before.n);
  });

  test("the socket-directory form of the URL (?host=/dir) reaches the server too", async () => {
    await pg`CREATE DATABASE via_socket`;
    const [{ unix_socket_directories: socketDir }] = await pg`SHOW unix_socket_directories`;
    const port = new URL(server.url).port;
    lines.length = 0;
    expect(await migrate(`postgres://postgres@/via_socket?host=${socketDir}&port=${port}`)).toBe(0);
    const other = new SQL(server.url.replace(/\/postgres$/, "/via_socket"));
    const [copied] = await other`SELECT count(*)::int AS n FROM messages`;
    await other.close();
    expect(copied.n).toBeGreaterThanOrEqual(EXTRA_MESSAGES);
  }, 60_000);

  test("a copy that fails names the table and the reason, keeps nothing, and can be run again once fixed", async () => {
    const small = mkdtempSync(join(tmpdir(), "zapdesk-to-pg-"));
    try {
      const ctx = await makeTestApp({ databasePath: join(small, "zapdesk.sqlite"), mediaDir: join(small, "media") });
      const wa = await createSandboxConnection(ctx);
      await ctx.sandbox.inbound(wa.id, { from: "5511988887777", name: "Ana", body: "Oi" });
      // SQLite keeps whatever it is given; PostgreSQL does not take text for a number.
      sqliteClient(ctx.db).run("UPDATE messages SET ack = 'lido'");
      await closeDatabase(ctx.db);
      await pg`CREATE DATABASE broken`;
      const url = server.url.replace(/\/postgres$/, "/broken");
      const run = () => runCommand(["migrate-to-postgres", "--to", url], { DATA_DIR: small }, io);
      errors.length = 0;
      expect(await run()).toBe(1);
      expect(errors.join("\n")).toContain("copying messages: invalid input syntax for type integer");
      expect(errors.join("\n").length).toBeLessThan(300);
      const target = new SQL(url);
      const [kept] =
        await target`SELECT (SELECT count(*) FROM whatsapps)::int + (SELECT count(*) FROM contacts)::int AS n`;
      expect(kept.n).toBe(0);
      const fix = openDatabase(join(small, "zapdesk.sqlite"));
      sqliteClient(fix).run("UPDATE messages SET ack = 3");
      await closeDatabase(fix);
      expect(await run()).toBe(0);
      const [copied] = await target`SELECT ack FROM messages`;
      await target.close();
      expect(copied.ack).toBe(3);
    } finally {
      rmSync(small, { recursive: true, force: true });
    }
  }, 60_000);

  test("a URL that is not PostgreSQL's is refused with a clear message", async () => {
    errors.length = 0;
    expect(await migrate("mysql://root@127.0.0.1/x")).toBe(1);
    expect(errors.join("\n")).toContain("--to must be a postgres:// URL");
  });
});

describe("zapdesk migrate-to-postgres on the command line", () => {
  test("is listed in the help, and without --to exits 2 saying what it needs", async () => {
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    expect(await runCommand(["--help"], {}, io)).toBe(0);
    expect(lines.join("\n")).toContain("zapdesk migrate-to-postgres --to URL");
    lines.length = 0;
    expect(await runCommand(["migrate-to-postgres"], {}, io)).toBe(2);
    expect(lines[0]).toContain("migrate-to-postgres needs --to postgres://");
  });
});
