// @engine once
import { afterEach, describe, expect, test } from "bun:test";
import type { ConnectionRef } from "../../src/channels/types";
import { driverOnFake, pair } from "./fakewa/driver";

const LID = "123456789012345";
let cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

/** A driver on the fake server with Baileys' history sync on, as for a connection that imports it. */
function setup() {
  const ctx = driverOnFake({ onWhatsApp: ["5511988887777"] }, { socketConfig: { qrTimeout: 200 } });
  cleanup.push(ctx.dispose);
  return ctx;
}

const at = (daysAgo: number) => Math.floor(Date.now() / 1000) - daysAgo * 86_400;

describe("baileys driver and the history sent at pairing, against the fake WhatsApp server", () => {
  const history = () => [
    {
      jid: "5511988887777@s.whatsapp.net",
      messages: [
        {
          key: { remoteJid: "5511988887777@s.whatsapp.net", id: "H-OLD", fromMe: false },
          messageTimestamp: at(30),
          message: { conversation: "há um mês" },
        },
        {
          key: { remoteJid: "5511988887777@s.whatsapp.net", id: "H-1", fromMe: false },
          messageTimestamp: at(2),
          pushName: "Ana",
          message: { conversation: "pedido 42?" },
        },
        {
          key: { remoteJid: "5511988887777@s.whatsapp.net", id: "H-2", fromMe: true },
          messageTimestamp: at(2),
          status: 4,
          message: { conversation: "saiu hoje" },
        },
        {
          key: { remoteJid: "5511988887777@s.whatsapp.net", id: "H-IMG", fromMe: false },
          messageTimestamp: at(1),
          message: { imageMessage: { caption: "foto", mimetype: "image/jpeg" } },
        },
      ],
    },
    {
      jid: `${LID}@lid`,
      messages: [
        {
          key: { remoteJid: `${LID}@lid`, id: "H-LID", fromMe: false },
          messageTimestamp: at(1),
          message: { conversation: "pelo LID" },
        },
      ],
    },
  ];

  test("with the import on, the last N days of chats reach onHistory (media not downloaded) and the LID↔phone pairs reach onContacts", async () => {
    const conn: ConnectionRef = { id: 1, name: "Main", provider: "baileys", historyDays: 7 };
    const ctx = setup();
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

  test("history chunks are imported one after the other, so a chat spread over two is never imported twice at once", async () => {
    const conn: ConnectionRef = { id: 1, name: "Main", provider: "baileys", historyDays: 7 };
    const ctx = setup();
    await pair(ctx, conn);
    let importing = 0;
    let most = 0;
    const record = ctx.sink.onHistory.bind(ctx.sink);
    // Each import takes a while, as storing a chunk does.
    ctx.sink.onHistory = async (id, messages) => {
      most = Math.max(most, ++importing);
      await new Promise((resolve) => setTimeout(resolve, 30));
      importing--;
      await record(id, messages);
    };
    const [phoneChat, lidChat] = history();
    ctx.fake.historySync([phoneChat!], {});
    ctx.fake.historySync([lidChat!], { [LID]: "5511977776666" });
    await ctx.sink.until(() => ctx.sink.history.length >= 4);
    expect(most).toBe(1);
  });

  test("with the import off, history messages are not reported, but its chats' LID↔phone pairs are", async () => {
    const conn: ConnectionRef = { id: 1, name: "Main", provider: "baileys" };
    const ctx = setup();
    await pair(ctx, conn);
    ctx.fake.historySync(history(), { [LID]: "5511977776666" });
    await ctx.sink.until(() => ctx.sink.contacts.find((c) => c.lid === LID && c.phone === "5511977776666"));
    expect(ctx.sink.history).toEqual([]);
  });
});
