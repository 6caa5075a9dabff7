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

/** A driver on the fake server. */
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
    socketConfig: { shouldSyncHistoryMessage: () => false, qrTimeout: 200 },
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

describe("baileys driver and LID-only senders, against the fake WhatsApp server", () => {
  test("a message from a sender shown only by a LID reaches the sink addressed by the LID, and a reply goes to that LID", async () => {
    const conn: ConnectionRef = { id: 1, name: "Main", provider: "baileys" };
    const ctx = setup(conn);
    await pair(ctx, conn);
    ctx.fake.deliver("unused", "IN-LID", { conversation: "oi" }, { from: `${LID}@lid`, notify: "Duda" });
    const m = await ctx.sink.until(() => ctx.sink.messages.find((x) => x.id === "IN-LID"));
    expect(m).toMatchObject({ chatId: `lid:${LID}`, lid: LID, pushName: "Duda", isGroup: false, body: "oi" });

    const id = ctx.driver.newMessageId(conn.id);
    await ctx.driver.sendText(conn.id, `lid:${LID}`, false, "Olá", { messageId: id });
    const stanza = await ctx.fake.waitFor((n) => n.tag === "message" && n.attrs.id === id);
    expect(stanza.attrs.to).toBe(`${LID}@lid`);
  });

  test("a LID-addressed message that carries the sender's phone number is addressed by the number, with the LID beside it", async () => {
    const conn: ConnectionRef = { id: 1, name: "Main", provider: "baileys" };
    const ctx = setup(conn);
    await pair(ctx, conn);
    ctx.fake.deliver("unused", "IN-ALT", { conversation: "oi" }, { from: `${LID}@lid`, sender_pn: "5511977776666@s.whatsapp.net" });
    const m = await ctx.sink.until(() => ctx.sink.messages.find((x) => x.id === "IN-ALT"));
    expect(m).toMatchObject({ chatId: "5511977776666", lid: LID });
  });
});
