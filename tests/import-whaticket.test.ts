// @engine each
import { closeDatabase, type Db, first, openDatabase } from "../src/db/client";
import { openMigratedPostgres } from "../src/db/postgres";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { eq } from "drizzle-orm";
import { runCommand } from "../src/cli";
import { chatbots, contacts, messages, schedules, tickets, users } from "../src/db/tables";
import { testsOnPostgres } from "./test-engine";
import { importWhaticket } from "../src/ops/import-whaticket";
import { call, makeTestApp } from "./helpers";
import { freshPgUrl } from "./pg-harness";
import { hasMariadb, hasPostgres, startMariadb, startPostgres } from "./sql-servers";

const NOW = new Date("2026-11-20T12:00:00Z");
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** A small whaticket-free installation: two queues, an admin and an agent, three customers and their chats. */
async function seedWhaticket(url: string, dialect: (statement: string) => string) {
  const sql = new SQL(url);
  const run = async (script: string) => {
    for (const statement of script.split(/;\s*\n/).map((s) => s.replace(/^\s*--.*$/gm, "").trim()))
      if (statement) await sql.unsafe(dialect(statement));
  };
  await run(readFileSync(join(import.meta.dir, "fixtures", "whaticket-free.sql"), "utf8"));
  const ts = `'2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z'`;
  const adminHash = await Bun.password.hash("senha-antiga", { algorithm: "bcrypt", cost: 4 });
  const agentHash = (await Bun.password.hash("outra-senha", { algorithm: "bcrypt", cost: 4 })).replace("$2b$", "$2a$");
  await run(`
    INSERT INTO "Whatsapps" (id, name, session, status, "isDefault", "greetingMessage", "startWorkHour", "endWorkHour",
      "defineWorkHours", saturday, "createdAt", "updatedAt")
      VALUES (3, 'Comercial', 'creds-secret', 'CONNECTED', true, 'Olá! Escolha uma opção', '09:00', '18:00', 'true', true, ${ts});
    INSERT INTO "Queues" (id, name, color, "greetingMessage", "createdAt", "updatedAt")
      VALUES (1, 'Vendas', '#ff0000', 'Bem-vindo às vendas', ${ts}), (2, 'Suporte', '#00ff00', '', ${ts});
    INSERT INTO "WhatsappQueues" ("whatsappId", "queueId", "createdAt", "updatedAt") VALUES (3, 1, ${ts}), (3, 2, ${ts});
    INSERT INTO "Users" (id, name, email, "passwordHash", profile, "whatsappId", "createdAt", "updatedAt")
      VALUES (1, 'Ana Admin', 'Ana@Loja.com', '${adminHash}', 'admin', NULL, ${ts}),
             (5, 'Bruno Agente', 'bruno@loja.com', '${agentHash}', 'user', 3, ${ts});
    INSERT INTO "UserQueues" ("userId", "queueId", "createdAt", "updatedAt") VALUES (5, 2, ${ts});
    INSERT INTO "Chatbots" (id, name, "queueId", "chatbotId", "greetingMessage", "isAgent", "createdAt", "updatedAt")
      VALUES (2, 'Planos', 1, NULL, 'Qual plano?', false, ${ts}), (1, 'Plano anual', NULL, 2, 'Ótima escolha', true, ${ts});
    INSERT INTO "Contacts" (id, name, number, email, "isGroup", "createdAt", "updatedAt")
      VALUES (10, 'João Cliente', '5511988887777', 'joao@example.com', false, ${ts}),
             (11, 'Maria', '5521977776666', '', false, ${ts}),
             (12, 'Sem número', '', '', false, ${ts});
    INSERT INTO "ContactCustomFields" (name, value, "contactId", "createdAt", "updatedAt") VALUES ('CPF', '123', 10, ${ts});
    INSERT INTO "Tickets" (id, status, "lastMessage", "contactId", "userId", "whatsappId", "queueId", "unreadMessages",
      "createdAt", "updatedAt")
      VALUES (7, 'open', 'Segue o comprovante', 10, 5, 3, 2, 2, ${ts}),
             (8, 'pending', 'Oi', 11, NULL, 3, NULL, 1, ${ts}),
             (9, 'closed', 'Obrigado', 10, 1, 3, 1, 0, '2026-10-01T10:00:00Z', '2026-10-02T10:00:00Z'),
             (13, 'open', 'sem contato', 12, NULL, 3, NULL, 0, ${ts});
    INSERT INTO "Tags" (id, name, color, "createdAt", "updatedAt") VALUES (4, 'VIP', '#ffd700', ${ts});
    INSERT INTO "TicketTags" ("ticketId", "tagId", "createdAt", "updatedAt") VALUES (7, 4, ${ts});
    INSERT INTO "Messages" (id, body, ack, "read", "mediaType", "mediaUrl", "ticketId", "contactId", "fromMe",
      "quotedMsgId", "createdAt", "updatedAt")
      VALUES ('3EB0AAA1', 'Bom dia, quero pagar', 0, true, 'conversation', NULL, 7, 10, false, NULL,
                '2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z'),
             ('3EB0AAA2', 'Pode enviar o comprovante', 3, true, 'extendedTextMessage', NULL, 7, NULL, true, '3EB0AAA1',
                '2026-11-01T10:01:00Z', '2026-11-01T10:01:00Z'),
             ('3EB0AAA3', 'Segue o comprovante', 0, false, 'imageMessage', '1699999999-comprovante.png', 7, 10, false, NULL,
                '2026-11-01T10:02:00Z', '2026-11-01T10:02:00Z'),
             ('3EB0AAA4', '', 0, false, 'audioMessage', '1699999999-audio.ogg', 7, 10, false, NULL,
                '2026-11-01T10:03:00Z', '2026-11-01T10:03:00Z'),
             ('3EB0AAA5', 'BEGIN:VCARD\nFN:Carla\nTEL:5511966665555\nEND:VCARD', 0, true, 'contactMessage', NULL, 9, 10, false, NULL,
                '2026-10-01T10:00:00Z', '2026-10-01T10:00:00Z'),
             ('3EB0AAA6', 'Oi', 0, false, 'conversation', NULL, 8, 11, false, NULL,
                '2026-11-01T11:00:00Z', '2026-11-01T11:00:00Z');
    INSERT INTO "QuickAnswers" (shortcut, message, "createdAt", "updatedAt")
      VALUES ('pix', 'Nossa chave PIX é loja@example.com', ${ts});
    INSERT INTO "Settings" ("key", value, "createdAt", "updatedAt")
      VALUES ('userCreation', 'enabled', ${ts}), ('userApiToken', 'token-da-integracao', ${ts}),
             ('chatBotType', 'text', ${ts}), ('call', 'sometimes', ${ts});
    INSERT INTO "Schedules" (body, "sendAt", "sentAt", "contactId", "ticketId", "userId", status, "createdAt", "updatedAt")
      VALUES ('Lembrete da renovação', '2026-12-01T12:00:00Z', NULL, 10, 7, 5, 'PENDENTE', ${ts}),
             ('Atrasado', '2026-11-10T12:00:00Z', NULL, 11, NULL, 1, 'PENDENTE', ${ts}),
             ('Já foi', '2026-11-02T12:00:00Z', '2026-11-02T12:00:01Z', 10, 9, 1, 'ENVIADA', ${ts});
  `);
  await sql.close();
}

/** MySQL's spelling of the PostgreSQL fixture: backquoted names, its types, timestamps without a zone. */
function toMysql(statement: string): string {
  return statement
    .replace(/"(\w+)"/g, "`$1`")
    .replace(/SERIAL PRIMARY KEY/g, "INT AUTO_INCREMENT PRIMARY KEY")
    .replace(/TIMESTAMPTZ/g, "DATETIME")
    .replace(/BOOLEAN/g, "TINYINT(1)")
    .replace(/TEXT UNIQUE/g, "VARCHAR(255) UNIQUE")
    .replace(/'(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)Z'/g, "'$1 $2'");
}

const ENGINES = [
  { name: "PostgreSQL", available: hasPostgres, start: async () => startPostgres(), dialect: (s: string) => s },
  { name: "MySQL (MariaDB)", available: hasMariadb, start: startMariadb, dialect: toMysql },
];

for (const engine of ENGINES)
  describe.skipIf(!engine.available)(`importing a whaticket installation from ${engine.name}`, () => {
    let server: { url: string; stop(): unknown };
    let dir: string;
    let publicDir: string;
    /** In the suite's PostgreSQL run the import goes into a PostgreSQL database. */
    let targetUrl: string | undefined;
    const config = () => ({
      dataDir: dir,
      databasePath: join(dir, "zapdesk.sqlite"),
      mediaDir: join(dir, "media"),
      ...(targetUrl ? { databaseUrl: targetUrl } : {}),
    });
    const env = () => ({ DATA_DIR: dir, LOG_LEVEL: "silent", ...(targetUrl ? { DATABASE_URL: targetUrl } : {}) });
    const openTarget = async (): Promise<Db> =>
      targetUrl ? await openMigratedPostgres(targetUrl) : openDatabase(config().databasePath);

    beforeAll(async () => {
      server = await engine.start();
      if (testsOnPostgres) targetUrl = await freshPgUrl();
      await seedWhaticket(server.url, engine.dialect);
      dir = mkdtempSync(join(tmpdir(), "zapdesk-import-"));
      publicDir = join(dir, "whaticket-public");
      mkdirSync(publicDir);
      writeFileSync(join(publicDir, "1699999999-comprovante.png"), PNG);
    }, 60_000);

    afterAll(async () => {
      await server?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test("copies every table, reports its counts, and leaves out what cannot be kept", async () => {
      const report = await importWhaticket(config(), server.url, { mediaDir: publicDir, now: NOW });
      const imported = Object.fromEntries(Object.entries(report.tables).map(([table, n]) => [table, n.imported]));
      expect(imported).toEqual({
        Whatsapps: 1,
        Queues: 2,
        WhatsappQueues: 2,
        Users: 2,
        UserQueues: 1,
        Chatbots: 2,
        QuickAnswers: 1,
        Tags: 1,
        Settings: 3,
        Contacts: 2,
        ContactCustomFields: 1,
        Tickets: 3,
        TicketTags: 1,
        Messages: 6,
        Schedules: 3,
      });
      // The contact without a number, its ticket, and the setting with a value Zapdesk does not know.
      expect(report.tables.Contacts!.skipped).toBe(1);
      expect(report.tables.Tickets!.skipped).toBe(1);
      expect(report.tables.Settings!.skipped).toBe(1);
    });

    test("a second run adds nothing and says every row is already here", async () => {
      const report = await importWhaticket(config(), server.url, { mediaDir: publicDir, now: NOW });
      expect(Object.values(report.tables).reduce((sum, n) => sum + n.imported, 0)).toBe(0);
      expect(report.tables.Messages).toEqual({ imported: 0, existing: 6, skipped: 0 });
      expect(report.tables.Tickets).toEqual({ imported: 0, existing: 3, skipped: 1 });
      const db = await openTarget();
      expect(await db.select().from(messages)).toHaveLength(6);
      expect(await db.select().from(tickets)).toHaveLength(3);
      await closeDatabase(db);
    });

    test("tickets keep their numbers, links and statuses; messages their WhatsApp ids, quotes, kinds and files", async () => {
      const db = await openTarget();
      const open = (await first(db.select().from(tickets).where(eq(tickets.id, 7))))!;
      const bruno = (await first(db.select().from(users).where(eq(users.email, "bruno@loja.com"))))!;
      expect(open).toMatchObject({ status: "open", userId: bruno.id, whatsappId: 3, unreadMessages: 2 });
      expect((await first(db.select().from(contacts).where(eq(contacts.id, open.contactId))))!.name).toBe(
        "João Cliente",
      );
      const byWid = Object.fromEntries((await db.select().from(messages)).map((m) => [m.wid, m]));
      expect(byWid["3EB0AAA2"]!.quotedMsgId).toBe(byWid["3EB0AAA1"]!.id);
      expect(byWid["3EB0AAA1"]!.mediaType).toBe("chat");
      expect(byWid["3EB0AAA5"]!.mediaType).toBe("vcard");
      expect(byWid["3EB0AAA3"]).toMatchObject({ mediaType: "image", fileName: "1699999999-comprovante.png" });
      expect(readFileSync(join(config().mediaDir, byWid["3EB0AAA3"]!.mediaUrl!))).toEqual(PNG);
      expect(byWid["3EB0AAA4"]).toMatchObject({ mediaType: "audio", mediaUrl: null, mediaState: "unavailable" });
      const options = await db.select().from(chatbots);
      const parent = options.find((o) => o.name === "Planos")!;
      expect(options.find((o) => o.name === "Plano anual")).toMatchObject({ parentId: parent.id, isAgent: true });
      // A waiting schedule whose time passed before the import is not sent late: it waits for a person.
      expect(Object.fromEntries((await db.select().from(schedules)).map((s) => [s.body, s.status]))).toEqual({
        "Lembrete da renovação": "PENDENTE",
        Atrasado: "ERRO",
        "Já foi": "ENVIADA",
      });
      await closeDatabase(db);
    });

    test("the inbox serves the imported data: a migrated user logs in with the old password, which is rehashed", async () => {
      const ctx = await makeTestApp(config());
      const login = await call(ctx.app, "POST", "/api/auth/login", {
        body: { email: "bruno@loja.com", password: "outra-senha" },
      });
      expect(login.status).toBe(200);
      const token = login.json.token;
      const hash = (await first(ctx.db.select().from(users).where(eq(users.email, "bruno@loja.com"))))!.passwordHash;
      expect(hash.startsWith("$argon2")).toBe(true);
      const again = await call(ctx.app, "POST", "/api/auth/login", {
        body: { email: "bruno@loja.com", password: "outra-senha" },
      });
      expect(again.status).toBe(200);

      const list = await call(ctx.app, "GET", "/api/tickets?status=open", { token });
      expect(list.json.tickets.map((t: { id: number }) => t.id)).toEqual([7]);
      const history = await call(ctx.app, "GET", "/api/messages/7", { token });
      expect(history.json.messages).toHaveLength(4);
      const ana = await call(ctx.app, "POST", "/api/auth/login", {
        body: { email: "ana@loja.com", password: "senha-antiga" },
      });
      expect(ana.status).toBe(200);
      const adminToken = ana.json.token;
      const connection = await call(ctx.app, "GET", "/api/whatsapp/3", { token: adminToken });
      expect(connection.json).toMatchObject({ name: "Comercial", status: "DISCONNECTED", isDefault: true });
      const settings = await call(ctx.app, "GET", "/api/settings", { token: adminToken });
      expect(settings.json).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ key: "userCreation", value: "enabled" }),
          expect.objectContaining({ key: "userApiToken", value: "token-da-integracao" }),
          expect.objectContaining({ key: "call", value: "enabled" }),
        ]),
      );
      const wrong = await call(ctx.app, "POST", "/api/auth/login", {
        body: { email: "ana@loja.com", password: "errada" },
      });
      expect(wrong.status).toBe(401);
      // Rows created after the import get ids of their own, past the copied ones (Ana kept id 1).
      const created = await call(ctx.app, "POST", "/api/users", {
        token: adminToken,
        body: { name: "Carla Nova", email: "carla@loja.com", password: "nova-senha" },
      });
      expect(created.status).toBe(200);
      expect(created.json.id).toBeGreaterThan(5);
      await closeDatabase(ctx.db);
    });

    test("the command line runs the import and prints each table's counts", async () => {
      const lines: string[] = [];
      const code = await runCommand(["import-whaticket", "--from", server.url], env(), {
        out: (l) => lines.push(l),
        err: (l) => lines.push(l),
      });
      expect(code).toBe(0);
      expect(lines).toContain("Messages             0 imported, 6 already here, 0 left out");
      expect(lines.at(-1)).toContain("pair each WhatsApp connection again");
    });

    test("a URL that is neither PostgreSQL nor MySQL is refused with a clear message", async () => {
      const lines: string[] = [];
      const code = await runCommand(["import-whaticket", "--from", "sqlite:///tmp/x"], env(), {
        out: (l) => lines.push(l),
        err: (l) => lines.push(l),
      });
      expect(code).toBe(1);
      expect(lines.join("\n")).toContain("--from must be a postgres:// or mysql:// URL");
    });
  });
