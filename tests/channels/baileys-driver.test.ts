// @engine once
import { sqliteClient } from "../../src/db/client";
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { join } from "node:path";
import type { BaileysDriverOptions } from "../../src/channels/baileys/driver";
import { encryptedStream, proto, type BinaryNode } from "baileys";
import { readdirSync, readFileSync } from "node:fs";
import type { FakeWa } from "./fakewa/server";
import { driverOnFake, pair } from "./fakewa/driver";
import * as authStore from "../../src/channels/baileys/auth-store";
import { createLogger } from "../../src/log";

const CONN = { id: 1, name: "Main", provider: "baileys" as const };
let cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

function setup(fakeOpts: ConstructorParameters<typeof FakeWa>[0] = {}, driverOpts: Partial<BaileysDriverOptions> = {}) {
  const ctx = driverOnFake(fakeOpts, driverOpts);
  cleanup.push(ctx.dispose);
  return ctx;
}

/** Resolves after `n` turns of the event loop. */
async function eventLoopTurns(n: number) {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

const credsCount = (db: ReturnType<typeof setup>["db"]) =>
  (sqliteClient(db).query("SELECT count(*) n FROM wa_auth_creds WHERE whatsapp_id = 1").get() as { n: number }).n;

describe("baileys driver against the fake WhatsApp server", () => {
  test("QR pairing, the 515 restart and login end CONNECTED with our number and saved creds", async () => {
    const ctx = setup();
    await pair(ctx);
    const seq = ctx.sink.statuses.map((s) => s.status);
    expect(seq[0]).toBe("OPENING");
    expect(seq).toContain("qrcode");
    expect(seq).toContain("PAIRING");
    expect(seq.filter((s) => s === "OPENING").length).toBe(2); // the 515 restart opened a second socket
    expect(ctx.sink.lastStatus()).toEqual({
      status: "CONNECTED",
      info: { qr: "", number: ctx.fake.phone, retries: 0 },
    });
    expect(credsCount(ctx.db)).toBe(1);
    expect(ctx.driver.isRunning(CONN.id)).toBe(true);
  });

  test("a 515 restart asked for before the pairing's credentials are saved logs in with them, without a new QR", async () => {
    let restarting = () => {};
    const restart = new Promise<void>((resolve) => (restarting = resolve));
    const log = createLogger("info", (line) => line.includes("baileys connection restarting") && restarting());
    const ctx = setup({}, { log });
    const reopened = () => ctx.sink.until(() => ctx.sink.statuses.filter((s) => s.status === "OPENING").length === 2);
    // A busy database server: the save of the paired credentials ends only after the restart has begun, and after
    // the new socket opened if it does not wait for the save (or after a few turns of the event loop if it does).
    const authState = authStore.useSqliteAuthState;
    const spy = spyOn(authStore, "useSqliteAuthState").mockImplementation(async (...args) => {
      const auth = await authState(...args);
      const saveCreds = async () => {
        if (auth.state.creds.me) await restart.then(() => Promise.race([reopened(), eventLoopTurns(20)]));
        await auth.saveCreds();
      };
      return { ...auth, saveCreds };
    });
    cleanup.push(() => spy.mockRestore());
    await ctx.driver.start(CONN, ctx.sink);
    ctx.fake.scan(await ctx.sink.until(() => ctx.sink.statuses.find((s) => s.status === "qrcode")?.info?.qr));
    await ctx.sink.until(() => ["CONNECTED", "DISCONNECTED"].includes(ctx.sink.lastStatus()?.status ?? ""));
    const restarted = ctx.sink.statuses.findLastIndex((s) => s.status === "OPENING");
    expect(ctx.sink.statuses.slice(restarted).map((s) => s.status)).toEqual(["OPENING", "CONNECTED"]);
  });

  test("a pairing code is requested from the server and the status goes PAIRING", async () => {
    const ctx = setup();
    await ctx.driver.start(CONN, ctx.sink);
    const code = await ctx.driver.requestPairingCode!(CONN.id, "+55 11 90000-0000");
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    const iq = await ctx.fake.waitFor(
      (n) => (n.content as { tag: string }[] | undefined)?.[0]?.tag === "link_code_companion_reg",
    );
    expect(iq.tag).toBe("iq");
    expect(ctx.sink.lastStatus()?.status).toBe("PAIRING");
  });

  test("unscanned QRs end DISCONNECTED with an empty QR and no creds", async () => {
    const ctx = setup({ refs: 6 });
    await ctx.driver.start(CONN, ctx.sink);
    const last = await ctx.sink.until(() => ctx.sink.statuses.find((s) => s.status === "DISCONNECTED"));
    expect(ctx.sink.statuses.filter((s) => s.status === "qrcode").length).toBe(3);
    expect(last.info).toMatchObject({ qr: "", unpaired: true });
    expect(credsCount(ctx.db)).toBe(0);
    expect(ctx.driver.isRunning(CONN.id)).toBe(false);
  });

  test("an inbound text reaches the sink normalised", async () => {
    const ctx = setup();
    await pair(ctx);
    ctx.fake.deliver("5511988887777", "IN-1", {
      extendedTextMessage: { text: "olá", contextInfo: { stanzaId: "Q-9" } },
    });
    const m = await ctx.sink.until(() => ctx.sink.messages.find((x) => x.id === "IN-1"));
    expect(m).toMatchObject({
      chatId: "5511988887777",
      isGroup: false,
      fromMe: false,
      kind: "chat",
      body: "olá",
      quotedId: "Q-9",
      pushName: "Contato",
    });
  });

  test("logout unlinks, wipes creds and reports DISCONNECTED", async () => {
    const ctx = setup();
    await pair(ctx);
    await ctx.driver.logout(CONN.id);
    await ctx.fake.waitFor(
      (n) => n.tag === "iq" && (n.content as { tag: string }[] | undefined)?.[0]?.tag === "remove-companion-device",
    );
    expect(ctx.sink.lastStatus()).toMatchObject({ status: "DISCONNECTED", info: { unpaired: true } });
    expect(credsCount(ctx.db)).toBe(0);
    expect(ctx.driver.isRunning(CONN.id)).toBe(false);
  });

  test("logged out from the phone (401): creds wiped, reported DISCONNECTED as a pairing that ended", async () => {
    const ctx = setup();
    await pair(ctx);
    ctx.fake.streamError(401);
    await ctx.sink.until(() => ctx.sink.lastStatus()?.status === "DISCONNECTED");
    expect(ctx.sink.lastStatus()?.info).toMatchObject({ qr: "", unpaired: true });
    expect(credsCount(ctx.db)).toBe(0);
  });

  test("a replaced connection (440) goes DISCONNECTED and keeps creds", async () => {
    const ctx = setup();
    await pair(ctx);
    ctx.fake.streamError(440);
    await ctx.sink.until(() => ctx.sink.lastStatus()?.status === "DISCONNECTED");
    expect(ctx.sink.lastStatus()?.info?.unpaired).toBeUndefined();
    expect(credsCount(ctx.db)).toBe(1);
  });
});

describe("baileys driver reconnects", () => {
  test("a transient close goes TIMEOUT, then reconnects with the stored creds", async () => {
    const ctx = setup();
    await pair(ctx);
    const before = ctx.sink.statuses.length;
    ctx.fake.streamError(503);
    await ctx.sink.until(() => ctx.sink.statuses.slice(before).find((s) => s.status === "CONNECTED"));
    expect(ctx.sink.statuses.slice(before).map((s) => s.status)).toEqual(["TIMEOUT", "OPENING", "CONNECTED"]);
    expect(ctx.sink.statuses.slice(before)[0]!.info).toEqual({ retries: 1 });
  });

  test("stop ends the session without unlinking; start logs in again without a QR", async () => {
    const ctx = setup();
    await pair(ctx);
    await ctx.driver.stop(CONN.id);
    expect(ctx.driver.isRunning(CONN.id)).toBe(false);
    expect(
      ctx.fake.sent.some((n) => (n.content as { tag: string }[] | undefined)?.[0]?.tag === "remove-companion-device"),
    ).toBe(false);
    const before = ctx.sink.statuses.length;
    await ctx.driver.start(CONN, ctx.sink);
    await ctx.sink.until(() => ctx.sink.statuses.slice(before).find((s) => s.status === "CONNECTED"));
    expect(ctx.sink.statuses.slice(before).some((s) => s.status === "qrcode")).toBe(false);
  });
});

describe("baileys driver sending against the fake WhatsApp server", () => {
  test("a send goes out under the pre-generated id and its acks reach the sink in order", async () => {
    const ctx = setup({ onWhatsApp: ["5511988887777"] });
    await pair(ctx);
    const id = ctx.driver.newMessageId(CONN.id);
    await ctx.driver.sendText(CONN.id, "5511988887777", false, "Olá, como posso ajudar?", { messageId: id });
    const stanza = await ctx.fake.waitFor((n) => n.tag === "message" && n.attrs.id === id);
    expect(stanza.attrs.to).toBe("5511988887777@s.whatsapp.net");
    ctx.fake.receipt("5511988887777", id);
    await ctx.sink.until(() => ctx.sink.acks.find((a) => a.id === id && a.ack === 3));
    ctx.fake.receipt("5511988887777", id, "read");
    await ctx.sink.until(() => ctx.sink.acks.find((a) => a.id === id && a.ack === 4));
    const seen = ctx.sink.acks.filter((a) => a.id === id).map((a) => a.ack);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  test("a quoted reply and a delete for everyone go out", async () => {
    const ctx = setup({ onWhatsApp: ["5511988887777"] });
    await pair(ctx);
    ctx.fake.deliver("5511988887777", "IN-Q", { conversation: "pergunta" });
    const inbound = await ctx.sink.until(() => ctx.sink.messages.find((x) => x.id === "IN-Q"));
    const id = ctx.driver.newMessageId(CONN.id);
    await ctx.driver.sendText(CONN.id, "5511988887777", false, "resposta", {
      messageId: id,
      quoted: { id: inbound.id, fromMe: false, raw: inbound.raw, remoteJid: inbound.remoteJid },
    });
    await ctx.fake.waitFor((n) => n.tag === "message" && n.attrs.id === id);
    await ctx.driver.deleteForEveryone(CONN.id, { id, chatId: "5511988887777", isGroup: false, fromMe: true });
    const del = await ctx.fake.waitFor((n) => n.tag === "message" && n.attrs.edit === "7");
    expect(del.attrs.to).toBe("5511988887777@s.whatsapp.net");
  });

  test("a retry receipt after a reconnect is answered with the agent message's content", async () => {
    const ctx = setup({ onWhatsApp: ["5511988887777"] });
    await pair(ctx);
    const id = ctx.driver.newMessageId(CONN.id);
    await ctx.driver.sendText(CONN.id, "5511988887777", false, "*Ana:* seu pedido saiu para entrega", {
      messageId: id,
    });
    const first = await ctx.fake.waitFor((n) => n.tag === "message" && n.attrs.id === id);
    const content = await ctx.fake.decryptFor(first, "5511988887777");
    expect(content.extendedTextMessage?.text).toBe("*Ana:* seu pedido saiu para entrega");

    // A new socket starts with an empty recent-message cache: only the stored content can answer.
    await ctx.driver.stop(CONN.id);
    // libsignal prints every session it replaces, and answering a retry replaces one on both sides.
    const quiet = [spyOn(console, "info"), spyOn(console, "warn")].map((spy) => spy.mockImplementation(() => {}));
    cleanup.push(() => quiet.forEach((spy) => spy.mockRestore()));
    const before = ctx.sink.statuses.length;
    await ctx.driver.start(CONN, ctx.sink);
    await ctx.sink.until(() => ctx.sink.statuses.slice(before).find((s) => s.status === "CONNECTED"));
    ctx.fake.retryReceipt("5511988887777", id);
    const again = await ctx.fake.waitFor((n) => n.tag === "message" && n.attrs.id === id && n !== first);
    expect(proto.Message.create(await ctx.fake.decryptFor(again, "5511988887777")).toJSON()).toEqual(
      proto.Message.create(content).toJSON(),
    );
  });

  test("retry counts outlive the socket: once Baileys stops re-sending a message, a reconnect does not start over", async () => {
    const ctx = setup({ onWhatsApp: ["5511988887777"] });
    await pair(ctx);
    const quiet = [spyOn(console, "info"), spyOn(console, "warn")].map((spy) => spy.mockImplementation(() => {}));
    cleanup.push(() => quiet.forEach((spy) => spy.mockRestore()));
    const id = ctx.driver.newMessageId(CONN.id);
    await ctx.driver.sendText(CONN.id, "5511988887777", false, "olá", { messageId: id });
    const isSend = (n: BinaryNode) => n.tag === "message" && n.attrs.id === id;
    const isReceiptAck = (n: BinaryNode) => n.tag === "ack" && n.attrs.class === "receipt" && n.attrs.id === id;
    // rc14 counts each answered retry twice against its limit of 5, so it answers two retry receipts.
    for (let retry = 1; retry <= 3; retry++) {
      ctx.fake.retryReceipt("5511988887777", id, retry);
      await ctx.fake.waitForNth(isReceiptAck, retry);
    }
    expect(ctx.fake.sent.filter(isSend).length).toBe(1 + 2);

    await ctx.driver.stop(CONN.id);
    const before = ctx.sink.statuses.length;
    await ctx.driver.start(CONN, ctx.sink);
    await ctx.sink.until(() => ctx.sink.statuses.slice(before).find((s) => s.status === "CONNECTED"));
    ctx.fake.retryReceipt("5511988887777", id, 4);
    await ctx.fake.waitForNth(isReceiptAck, 4);
    expect(ctx.fake.sent.filter(isSend).length).toBe(1 + 2);
  });

  test("a retry receipt for a message this connection never sent is not answered", async () => {
    const ctx = setup({ onWhatsApp: ["5511988887777"] });
    await pair(ctx);
    ctx.fake.retryReceipt("5511988887777", "3EB0NEVERSENT");
    await ctx.fake.waitFor((n) => n.tag === "ack" && n.attrs.id === "3EB0NEVERSENT");
    expect(ctx.fake.sent.some((n) => n.tag === "message" && n.attrs.id === "3EB0NEVERSENT")).toBe(false);
  });

  test("sends to a group use the members announced by groups.upsert and group-participants.update, with no metadata query", async () => {
    const members = ["5511988887777", "5511977776666"];
    const ctx = setup({ onWhatsApp: [...members, "5511966665555"] });
    await pair(ctx);
    const gid = "120363000000000001";
    const inGroup = (id: string) =>
      ctx.fake.deliver(
        members[1]!,
        id,
        { conversation: "oi" },
        { from: `${gid}@g.us`, participant: `${members[1]}@s.whatsapp.net` },
      );
    const recipients = (n: BinaryNode) => findAll(n, "to").map((t) => t.attrs.jid!.split("@")[0]);
    // An inbound group message after each notification: events are handled in order, so once it reached the
    // sink the notification has been applied.
    ctx.fake.groupCreated(gid, "Suporte", members);
    inGroup("G-1");
    await ctx.sink.until(() => ctx.sink.messages.find((m) => m.id === "G-1"));
    const first = ctx.driver.newMessageId(CONN.id);
    await ctx.driver.sendText(CONN.id, gid, true, "Bom dia, grupo", { messageId: first });
    const sent = await ctx.fake.waitFor((n) => n.tag === "message" && n.attrs.id === first);
    expect(sent.attrs.to).toBe(`${gid}@g.us`);
    expect(recipients(sent)).toEqual(expect.arrayContaining(members));

    ctx.fake.groupParticipants(gid, "add", ["5511966665555"], members[0]!);
    inGroup("G-2");
    await ctx.sink.until(() => ctx.sink.messages.find((m) => m.id === "G-2"));
    const second = ctx.driver.newMessageId(CONN.id);
    await ctx.driver.sendText(CONN.id, gid, true, "Bem-vinda", { messageId: second });
    const again = await ctx.fake.waitFor((n) => n.tag === "message" && n.attrs.id === second);
    expect(recipients(again)).toContain("5511966665555");
    expect(ctx.fake.sent.some((n) => n.tag === "iq" && n.attrs.xmlns === "w:g2")).toBe(false);
  });

  test("checkNumber returns the canonical digits, or null when not on WhatsApp", async () => {
    const ctx = setup({ onWhatsApp: ["5511988887777"] });
    await pair(ctx);
    expect(await ctx.driver.checkNumber(CONN.id, "+55 (11) 98888-7777")).toBe("5511988887777");
    expect(await ctx.driver.checkNumber(CONN.id, "5511900001111")).toBeNull();
  });
});

describe("baileys driver inbound media and calls", () => {
  test("an inbound image is reported at once with its media pending, then its file is streamed into the media dir under a random name", async () => {
    const ctx = setup();
    await pair(ctx);
    const bytes = Buffer.from("fake-jpeg-bytes-".repeat(50));
    const enc = await encryptedStream(bytes, "image");
    const cdn = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(Bun.file(enc.encFilePath)) });
    cleanup.push(() => cdn.stop(true));
    ctx.fake.deliver("5511988887777", "IMG-1", {
      imageMessage: {
        url: `http://127.0.0.1:${cdn.port}/img.enc`,
        mimetype: "image/jpeg",
        caption: "comprovante",
        mediaKey: enc.mediaKey,
        fileEncSha256: enc.fileEncSha256,
        fileSha256: enc.fileSha256,
        fileLength: enc.fileLength,
      },
    });
    const m = await ctx.sink.until(() => ctx.sink.messages.find((x) => x.id === "IMG-1"));
    expect(m).toMatchObject({
      kind: "image",
      body: "comprovante",
      mediaPending: { mimetype: "image/jpeg", originalName: "IMG-1.jpeg" },
    });
    expect(m.media).toBeUndefined();
    const outcome = await ctx.sink.until(() => ctx.sink.media.get("IMG-1"));
    if (!("media" in outcome)) throw new Error(`no file: ${JSON.stringify(outcome)}`);
    expect(outcome.media).toMatchObject({ mimetype: "image/jpeg", originalName: "IMG-1.jpeg" });
    expect(outcome.media.fileName).toMatch(/^[0-9a-f-]{36}\.jpeg$/);
    expect(readFileSync(join(ctx.mediaDir, outcome.media.fileName)).equals(bytes)).toBe(true);
  });

  test("media that cannot be downloaded is reported unavailable", async () => {
    const ctx = setup();
    await pair(ctx);
    const cdn = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("gone", { status: 500 }) });
    cleanup.push(() => cdn.stop(true));
    ctx.fake.deliver("5511988887777", "DOC-1", {
      documentMessage: {
        url: `http://127.0.0.1:${cdn.port}/d.enc`,
        mimetype: "application/pdf",
        fileName: "nota.pdf",
        mediaKey: Buffer.alloc(32, 1),
      },
    });
    const m = await ctx.sink.until(() => ctx.sink.messages.find((x) => x.id === "DOC-1"));
    expect(m).toMatchObject({ kind: "document", body: "nota.pdf", mediaPending: { originalName: "nota.pdf" } });
    expect(await ctx.sink.until(() => ctx.sink.media.get("DOC-1"))).toEqual({ unavailable: true });
  });

  test("a call offer and its timeout reach the sink as offer and missed", async () => {
    const ctx = setup();
    await pair(ctx);
    ctx.fake.call("5511988887777", "CALL-1", "offer", true);
    await ctx.sink.until(() => ctx.sink.calls.find((c) => c.kind === "offer"));
    ctx.fake.call("5511988887777", "CALL-1", "timeout");
    await ctx.sink.until(() => ctx.sink.calls.find((c) => c.kind === "missed"));
    expect(ctx.sink.calls.map((c) => [c.id, c.kind, c.from])).toEqual([
      ["CALL-1", "offer", "5511988887777"],
      ["CALL-1", "missed", "5511988887777"],
    ]);
    expect(ctx.sink.calls[0]!.isVideo).toBe(true);
  });
});

describe("baileys driver inbound lines", () => {
  test("a message whose handling never ends holds up only its own chat", async () => {
    const ctx = setup({}, { drainTimeoutMs: 50 });
    await pair(ctx);
    const record = ctx.sink.onMessage.bind(ctx.sink);
    const seen: string[] = [];
    ctx.sink.onMessage = async (id, m) => {
      seen.push(m.id);
      if (m.id === "A-1") return new Promise(() => {});
      return record(id, m);
    };
    ctx.fake.deliver("5511911111111", "A-1", { conversation: "primeira" });
    ctx.fake.deliver("5511911111111", "A-2", { conversation: "segunda" });
    ctx.fake.deliver("5511922222222", "B-1", { conversation: "outra conversa" });
    await ctx.sink.until(() => ctx.sink.messages.find((m) => m.id === "B-1"));
    expect(seen).toContain("A-1");
    expect(seen).not.toContain("A-2");
  });

  test("a call whose handling never ends does not hold up the messages after it", async () => {
    const ctx = setup({}, { drainTimeoutMs: 50 });
    await pair(ctx);
    ctx.sink.onCall = () => new Promise(() => {});
    ctx.fake.call("5511988887777", "CALL-H", "offer");
    ctx.fake.deliver("5511988887777", "AFTER-CALL", { conversation: "liguei" });
    await ctx.sink.until(() => ctx.sink.messages.find((m) => m.id === "AFTER-CALL"));
  });
});

describe("baileys driver inbound media size", () => {
  test("L9: media over the size limit is reported oversized, never stored, whether its declared length or the download shows it", async () => {
    const ctx = setup({}, { maxMediaBytes: 1000 });
    await pair(ctx);
    const bytes = Buffer.from("x".repeat(3000));
    const enc = await encryptedStream(bytes, "document");
    let fetched = 0;
    const cdn = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => (fetched++, new Response(Bun.file(enc.encFilePath))),
    });
    cleanup.push(() => cdn.stop(true));
    const doc = (fileLength: number) => ({
      documentMessage: {
        url: `http://127.0.0.1:${cdn.port}/d.enc`,
        mimetype: "application/pdf",
        fileName: "big.pdf",
        mediaKey: enc.mediaKey,
        fileEncSha256: enc.fileEncSha256,
        fileSha256: enc.fileSha256,
        fileLength,
      },
    });

    ctx.fake.deliver("5511988887777", "DOC-DECLARED", doc(enc.fileLength));
    const declared = await ctx.sink.until(() => ctx.sink.messages.find((x) => x.id === "DOC-DECLARED"));
    expect(declared).toMatchObject({ oversizedMedia: { fileName: "big.pdf", bytes: 3000 } });
    expect(declared.mediaPending).toBeUndefined();
    expect(fetched).toBe(0);

    // A sender may declare a small length: the download stops once it passes the limit.
    ctx.fake.deliver("5511988887777", "DOC-LIES", doc(10));
    const lied = await ctx.sink.until(() => ctx.sink.media.get("DOC-LIES"));
    if (!("oversized" in lied)) throw new Error(`not oversized: ${JSON.stringify(lied)}`);
    expect(lied.oversized.fileName).toBe("big.pdf");
    expect(lied.oversized.bytes).toBeGreaterThan(1000);
    for (const id of ["DOC-DECLARED", "DOC-LIES"])
      expect(ctx.sink.messages.find((m) => m.id === id)!.media).toBeUndefined();
    expect(readdirSync(ctx.mediaDir)).toEqual([]);
  });
});

function findAll(node: BinaryNode, tag: string): BinaryNode[] {
  const children = Array.isArray(node.content) ? node.content : [];
  return children.flatMap((c) => (c.tag === tag ? [c] : findAll(c, tag)));
}
