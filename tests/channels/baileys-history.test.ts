import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaileysDriver } from "../../src/channels/baileys/driver";
import type { ConnectionRef } from "../../src/channels/types";
import { openDatabase } from "../../src/db/client";
import { runMigrations } from "../../src/db/migrate";
import { createLogger } from "../../src/log";
import { FakeWa } from "./fakewa/server";
import { RecordingSink } from "./fakewa/sink";

const LID = "123456789012345";
let cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

/** A driver on the fake server with Baileys' history sync on, as for a connection that imports it. */
function setup(conn: ConnectionRef) {
  const fake = new FakeWa({ onWhatsApp: ["5511988887777"] });
  const db = openDatabase(":memory:");
  runMigrations(db);
  db.$client.query("INSERT INTO whatsapps (id, name, provider) VALUES (1, 'Main', 'baileys')").run();
  const mediaDir = mkdtempSync(join(tmpdir(), "zapdesk-baileys-"));
  const driver = new BaileysDriver({
    db,
    mediaDir,
    log: createLogger(process.env.FAKEWA_LOG ? "debug" : "silent"),
    waWebSocketUrl: fake.url,
    fetchLatestVersion: false,
    backoff: { baseMs: 20, maxMs: 100 },
    socketConfig: { qrTimeout: 200 },
  });
  const sink = new RecordingSink();
  cleanup.push(async () => {
    await driver.stop(conn.id);
    fake.stop();
    rmSync(mediaDir, { recursive: true, force: true });
  });
  return { fake, driver, sink };
}

async function pair(ctx: ReturnType<typeof setup>, conn: ConnectionRef) {
  await ctx.driver.start(conn, ctx.sink);
  const qr = await ctx.sink.until(() => ctx.sink.statuses.find((s) => s.status === "qrcode")?.info?.qr);
  ctx.fake.scan(qr);
  await ctx.sink.until(() => ctx.sink.statuses.find((s) => s.status === "CONNECTED"));
}

const at = (daysAgo: number) => Math.floor(Date.now() / 1000) - daysAgo * 86_400;

describe("baileys driver and the history sent at pairing, against the fake WhatsApp server", () => {
  const history = () => [
    {
      jid: "5511988887777@s.whatsapp.net",
      messages: [
        { key: { remoteJid: "5511988887777@s.whatsapp.net", id: "H-OLD", fromMe: false }, messageTimestamp: at(30), message: { conversation: "há um mês" } },
        { key: { remoteJid: "5511988887777@s.whatsapp.net", id: "H-1", fromMe: false }, messageTimestamp: at(2), pushName: "Ana", message: { conversation: "pedido 42?" } },
        { key: { remoteJid: "5511988887777@s.whatsapp.net", id: "H-2", fromMe: true }, messageTimestamp: at(2), status: 4, message: { conversation: "saiu hoje" } },
        { key: { remoteJid: "5511988887777@s.whatsapp.net", id: "H-IMG", fromMe: false }, messageTimestamp: at(1), message: { imageMessage: { caption: "foto", mimetype: "image/jpeg" } } },
      ],
    },
    {
      jid: `${LID}@lid`,
      messages: [{ key: { remoteJid: `${LID}@lid`, id: "H-LID", fromMe: false }, messageTimestamp: at(1), message: { conversation: "pelo LID" } }],
    },
  ];

  test("with the import on, the last N days of chats reach onHistory (media not downloaded) and the LID↔phone pairs reach onContacts", async () => {
    const conn: ConnectionRef = { id: 1, name: "Main", provider: "baileys", historyDays: 7 };
    const ctx = setup(conn);
    await pair(ctx, conn);
    ctx.fake.historySync(history(), { [LID]: "5511977776666" });
    await ctx.sink.until(() => ctx.sink.history.length >= 4);
    expect(ctx.sink.history.map((m) => [m.id, m.chatId, m.fromMe, m.body]).sort()).toEqual([
      ["H-1", "5511988887777", false, "pedido 42?"],
      ["H-2", "5511988887777", true, "saiu hoje"],
      ["H-IMG", "5511988887777", false, "foto"],
      ["H-LID", "5511977776666", false, "pelo LID"],
    ]);
    expect(ctx.sink.history.find((m) => m.id === "H-IMG")).toMatchObject({ kind: "image", mediaUnavailable: true });
    expect(ctx.sink.history.find((m) => m.id === "H-2")?.ack).toBe(4);
    await ctx.sink.until(() => ctx.sink.contacts.find((c) => c.lid === LID && c.phone === "5511977776666"));
    expect(ctx.sink.messages).toEqual([]);
  });

  test("with the import off, history messages are not reported, but its chats' LID↔phone pairs are", async () => {
    const conn: ConnectionRef = { id: 1, name: "Main", provider: "baileys" };
    const ctx = setup(conn);
    await pair(ctx, conn);
    ctx.fake.historySync(history(), { [LID]: "5511977776666" });
    await ctx.sink.until(() => ctx.sink.contacts.find((c) => c.lid === LID && c.phone === "5511977776666"));
    expect(ctx.sink.history).toEqual([]);
  });
});
