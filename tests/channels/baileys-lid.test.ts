// @engine once
import { afterEach, describe, expect, test } from "bun:test";
import type { ConnectionRef } from "../../src/channels/types";
import { readKey } from "../../src/channels/baileys/jid";
import { driverOnFake, pair } from "./fakewa/driver";

const LID = "123456789012345";
let cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

/** A driver on the fake server. */
function setup() {
  const ctx = driverOnFake({ onWhatsApp: ["5511988887777"] });
  cleanup.push(ctx.dispose);
  return ctx;
}

describe("baileys driver and LID-only senders, against the fake WhatsApp server", () => {
  test("a message from a sender shown only by a LID reaches the sink addressed by the LID, and a reply goes to that LID", async () => {
    const conn: ConnectionRef = { id: 1, name: "Main", provider: "baileys" };
    const ctx = setup();
    await pair(ctx, conn);
    ctx.fake.deliver("unused", "IN-LID", { conversation: "oi" }, { from: `${LID}@lid`, notify: "Duda" });
    const m = await ctx.sink.until(() => ctx.sink.messages.find((x) => x.id === "IN-LID"));
    expect(m).toMatchObject({ chatId: `lid:${LID}`, lid: LID, pushName: "Duda", isGroup: false, body: "oi" });

    const id = ctx.driver.newMessageId(conn.id);
    await ctx.driver.sendText(conn.id, `lid:${LID}`, false, "Olá", { messageId: id });
    const stanza = await ctx.fake.waitFor((n) => n.tag === "message" && n.attrs.id === id);
    expect(stanza.attrs.to).toBe(`${LID}@lid`);
  });

  test("new senders whose stanzas carry no LID are looked up side by side, not each after the message before was receipted", async () => {
    const ctx = setup();
    await pair(ctx);
    const phones = Array.from({ length: 5 }, (_, i) => `551197777000${i}`);
    const usyncs = () => ctx.fake.sent.filter((n) => n.tag === "iq" && n.attrs.xmlns === "usync").length;
    const before = usyncs();
    let atFirstReceipt: number | undefined;
    ctx.fake.onReceipted = () => void (atFirstReceipt ??= usyncs() - before);
    // Naming the sender leaves out the LID WhatsApp puts beside a phone number.
    for (const phone of phones)
      ctx.fake.deliver(phone, `NEW-${phone}`, { conversation: "oi" }, { from: `${phone}@s.whatsapp.net` });
    await ctx.sink.until(() => ctx.sink.messages.length === phones.length);
    expect(atFirstReceipt).toBe(phones.length);
    expect(usyncs() - before).toBe(phones.length);
  });

  test("a status update from a new number is not looked up: it is dropped unread", async () => {
    const ctx = setup();
    await pair(ctx);
    const usyncs = () => ctx.fake.sent.filter((n) => n.tag === "iq" && n.attrs.xmlns === "usync").length;
    const before = usyncs();
    ctx.fake.deliver(
      "unused",
      "STATUS-1",
      { conversation: "meu status" },
      { from: "status@broadcast", participant: "5511977770009@s.whatsapp.net" },
    );
    ctx.fake.deliver("5511977770008", "AFTER-STATUS", { conversation: "oi" });
    await ctx.sink.until(() => ctx.sink.messages.find((m) => m.id === "AFTER-STATUS"));
    expect(usyncs()).toBe(before);
  });

  test("a LID-addressed message that carries the sender's phone number is addressed by the number, with the LID beside it", async () => {
    const conn: ConnectionRef = { id: 1, name: "Main", provider: "baileys" };
    const ctx = setup();
    await pair(ctx, conn);
    ctx.fake.deliver(
      "unused",
      "IN-ALT",
      { conversation: "oi" },
      { from: `${LID}@lid`, sender_pn: "5511977776666@s.whatsapp.net" },
    );
    const m = await ctx.sink.until(() => ctx.sink.messages.find((x) => x.id === "IN-ALT"));
    expect(m).toMatchObject({ chatId: "5511977776666", lid: LID });
  });

  test("read receipts go to the chat each message came in on: a LID's chat for a contact since merged into their phone number", async () => {
    const conn: ConnectionRef = { id: 1, name: "Main", provider: "baileys" };
    const ctx = setup();
    await pair(ctx, conn);
    await ctx.driver.markRead(conn.id, "5511977776666", false, [
      { id: "FROM-LID", remoteJid: `${LID}@lid` },
      { id: "FROM-PHONE", remoteJid: "5511977776666@s.whatsapp.net" },
      { id: "NOT-STORED", remoteJid: null },
    ]);
    const receiptTo = async (id: string) =>
      (
        await ctx.fake.waitFor(
          (n) => n.tag === "receipt" && (n.attrs.id === id || JSON.stringify(n.content ?? "").includes(id)),
        )
      ).attrs.to;
    expect(await receiptTo("FROM-LID")).toBe(`${LID}@lid`);
    expect(await receiptTo("FROM-PHONE")).toBe("5511977776666@s.whatsapp.net");
    expect(await receiptTo("NOT-STORED")).toBe("5511977776666@s.whatsapp.net");
  });

  test("a receipt's key keeps a stored chat of the same kind, else the contact's chat, and names a group message's sender", () => {
    const phone = "5511977776666@s.whatsapp.net";
    expect(readKey({ id: "A", remoteJid: `${LID}@lid` }, phone, false)).toEqual({
      remoteJid: `${LID}@lid`,
      id: "A",
      fromMe: false,
    });
    // Imported rows may carry the old client's `@c.us` form; a group's jid is not a person's chat.
    expect(readKey({ id: "B", remoteJid: "5511977776666@c.us" }, phone, false).remoteJid).toBe(phone);
    expect(readKey({ id: "C", remoteJid: "1203630@g.us" }, phone, false).remoteJid).toBe(phone);
    expect(readKey({ id: "D", remoteJid: "1203630@g.us", participant: `${LID}@lid` }, "1203630@g.us", true)).toEqual({
      remoteJid: "1203630@g.us",
      id: "D",
      fromMe: false,
      participant: `${LID}@lid`,
    });
  });
});
