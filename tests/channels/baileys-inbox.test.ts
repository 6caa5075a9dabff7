// @engine each
import { waitFor } from "../wait-for";
import { closeDatabase, type Db, execute, first, one, sqliteClient } from "../../src/db/client";
import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { type BinaryNode, BufferJSON, encryptedStream, type proto } from "baileys";
import { LIDMappingStore } from "baileys/lib/Signal/lid-mapping.js";
import { WebSocketClient } from "baileys/lib/Socket/Client/websocket.js";
import { and, asc, eq, sql } from "drizzle-orm";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DownloadPool } from "../../src/channels/download-pool";
import type { BaileysDriverOptions } from "../../src/channels/baileys/driver";
import { Inbox } from "../../src/channels/baileys/inbox";
import { InboundJournal, type JournalEvent } from "../../src/channels/baileys/journal";
import { composeDeps } from "../../src/compose";
import { inboundJournal, messages, waAuthCreds, connections } from "../../src/db/tables";
import { systemClock } from "../../src/shared/clock";
import { createLogger } from "../../src/log";
import { RecordingHub } from "../../src/realtime/hub";
import { ownDatabase, sqliteOnly, testConfig, testDatabase } from "../helpers";
import { FakeWa } from "./fakewa/server";
import { RecordingSink } from "./fakewa/sink";

const CUSTOMER = "5511988887777";
// The fake sends no history: skip the 20 s initial-sync wait. The QR keeps Baileys' own lifetime: the fake phone
// scans it once the app has stored it, which a busy machine may take longer than a shortened QR lasts.
const FAKE_SOCKET = { shouldSyncHistoryMessage: () => false };
let cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

/** The app's wiring (manager, inbound pipeline, Baileys driver) on an in-memory database, against the fake. */
async function connectedApp(driver: Partial<BaileysDriverOptions> = {}) {
  const fake = new FakeWa();
  const mediaDir = mkdtempSync(join(tmpdir(), "zapdesk-inbox-"));
  const hub = new RecordingHub();
  const { db, channels } = await composeDeps({
    config: testConfig({ mediaDir, dataDir: mediaDir, ...(await ownDatabase()) }),
    hub,
    log: createLogger(process.env.FAKEWA_LOG ? "debug" : "silent"),
    clock: systemClock,
    // One node: on PostgreSQL, no event bus connection of its own and no leases.
    singleNode: true,
    baileys: {
      waWebSocketUrl: fake.url,
      fetchLatestVersion: false,
      // Downloads keep the driver's own time limit: a media answer the test holds back must not time out and be
      // asked for again, which would add requests to the ones the test counts.
      drainTimeoutMs: 2000,
      socketConfig: FAKE_SOCKET,
      ...driver,
    },
  });
  const conn = await one(db.insert(connections).values({ name: "Main", provider: "baileys" }).returning());
  cleanup.push(async () => {
    await channels.stopAll();
    fake.stop();
    await closeDatabase(db);
    rmSync(mediaDir, { recursive: true, force: true });
  });
  const row = async () => (await first(db.select().from(connections).where(eq(connections.id, conn.id))))!;
  await channels.start(conn.id);
  fake.scan(await waitFor(async () => (await row()).status === "qrcode" && (await row()).qrcode));
  await waitFor(async () => (await row()).status === "CONNECTED");
  const stored = async (wid: string) =>
    await first(
      db
        .select()
        .from(messages)
        .where(and(eq(messages.whatsappId, conn.id), eq(messages.wid, wid))),
    );
  /** The message once it has its file. */
  const withFile = async (wid: string) => {
    const m = await stored(wid);
    return m?.mediaUrl ? { ...m, mediaUrl: m.mediaUrl } : undefined;
  };
  const journal = async () => await db.select().from(inboundJournal);
  return { fake, db, hub, channels, conn, mediaDir, row, stored, withFile, journal };
}

/** A media server; `answer` decides each request (it may never answer). */
function cdn(answer: (req: Request) => Response | Promise<Response>) {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: answer });
  cleanup.push(() => server.stop(true));
  return { url: (name: string) => `http://127.0.0.1:${server.port}/${name}` };
}

/** An image message whose encrypted file is `enc`, served at `url`. */
function image(url: string, enc: Awaited<ReturnType<typeof encryptedStream>>, caption = ""): proto.IMessage {
  return {
    imageMessage: {
      url,
      mimetype: "image/jpeg",
      caption,
      mediaKey: enc.mediaKey,
      fileEncSha256: enc.fileEncSha256,
      fileSha256: enc.fileSha256,
      fileLength: enc.fileLength,
    },
  };
}

const never = () => new Promise<Response>(() => {});

describe("baileys inbound without head-of-line blocking", () => {
  test("20 texts after a media download that never ends are all stored while it still hangs; the image is stored first, downloading", async () => {
    const app = await connectedApp();
    const enc = await encryptedStream(Buffer.from("jpeg"), "image");
    const media = cdn(never);
    app.fake.deliver(CUSTOMER, "IMG-HANG", image(media.url("hang.enc"), enc));
    for (let i = 0; i < 20; i++) app.fake.deliver(CUSTOMER, `TXT-${i}`, { conversation: `mensagem ${i}` });
    // The download never answers: the texts can only be stored by not waiting for it.
    await waitFor(async () =>
      (await Promise.all(Array.from({ length: 20 }, (_, i) => app.stored(`TXT-${i}`)))).every(Boolean),
    );
    const img = (await app.stored("IMG-HANG"))!;
    expect(img).toMatchObject({
      mediaType: "image",
      mediaState: "downloading",
      mediaUrl: null,
      fileName: "IMG-HANG.jpeg",
    });
    const order = (await app.db.select({ wid: messages.wid }).from(messages).orderBy(asc(messages.id))).map(
      (m) => m.wid,
    );
    expect(order).toEqual(["IMG-HANG", ...Array.from({ length: 20 }, (_, i) => `TXT-${i}`)]);
  });

  test("a message arriving while the one before it still stores its sender's LID mapping is stored after it", async () => {
    const app = await connectedApp();
    // The first message of a new sender stores the sender's LID mapping before Baileys decrypts it; that store
    // waits here until the second message has arrived.
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let storing = false;
    const store = LIDMappingStore.prototype.storeLIDPNMappings;
    const storeSpy = spyOn(LIDMappingStore.prototype, "storeLIDPNMappings").mockImplementation(async function (
      this: LIDMappingStore,
      ...args
    ) {
      if (!storing && args[0].some((pair) => pair.pn.startsWith(CUSTOMER))) {
        storing = true;
        await gate;
      }
      return await store.apply(this, args);
    });
    // Whether Baileys began the second message as it arrived (it looks the sender's mapping up at once then).
    let arriving = false;
    let begunOnArrival = false;
    const getPn = LIDMappingStore.prototype.getPNForLID;
    const getSpy = spyOn(LIDMappingStore.prototype, "getPNForLID").mockImplementation(async function (
      this: LIDMappingStore,
      ...args
    ) {
      if (arriving) begunOnArrival = true;
      return await getPn.apply(this, args);
    });
    let arrived = false;
    const emit = WebSocketClient.prototype.emit;
    const emitSpy = spyOn(WebSocketClient.prototype, "emit").mockImplementation(function (
      this: WebSocketClient,
      event: string | symbol,
      ...args: unknown[]
    ) {
      const second = event === "CB:message" && (args[0] as BinaryNode).attrs.id === "SECOND";
      arriving = second;
      try {
        return emit.call(this, event, ...args);
      } finally {
        arriving = false;
        if (second) arrived = true;
      }
    });
    cleanup.push(() => {
      storeSpy.mockRestore();
      getSpy.mockRestore();
      emitSpy.mockRestore();
    });
    // Delivered live, not again in the login's offline backlog.
    await waitFor(() => app.fake.backlogsSent === app.fake.logins);
    app.fake.deliver(CUSTOMER, "FIRST", { conversation: "primeira" });
    await waitFor(() => storing);
    app.fake.deliver(CUSTOMER, "SECOND", { conversation: "segunda" });
    await waitFor(() => arrived);
    // Begun at once, the second message needs nothing of the first to be stored: the first goes on only then.
    if (begunOnArrival) await waitFor(() => app.stored("SECOND"));
    release();
    await waitFor(async () => (await app.stored("FIRST")) && (await app.stored("SECOND")));
    const order = (await app.db.select({ wid: messages.wid }).from(messages).orderBy(asc(messages.id))).map(
      (m) => m.wid,
    );
    expect(order).toEqual(["FIRST", "SECOND"]);
  });

  test("a burst of 100 texts from a contact is stored while it is still arriving, not once it has all been journaled", async () => {
    const app = await connectedApp();
    const created = () =>
      new Set(
        app.hub
          .named("appMessage")
          .flatMap((e) => ("action" in e.payload && e.payload.action === "create" ? [e.payload.message.wid] : [])),
      ).size;
    const storedWhenHeld = new Map<string, number>();
    const hold = Inbox.prototype.hold;
    const spy = spyOn(Inbox.prototype, "hold").mockImplementation(async function (this: Inbox, ...args) {
      storedWhenHeld.set(args[0].key.id!, created());
      return await hold.apply(this, args);
    });
    cleanup.push(() => spy.mockRestore());
    for (let i = 0; i < 100; i++) app.fake.deliver(CUSTOMER, `BURST-${i}`, { conversation: `mensagem ${i}` });
    await waitFor(() => created() >= 100);
    // The messages are journaled before their receipts one after another; some before the last are stored by the
    // time it comes (on SQLite, most), instead of every one of them waiting for the end of the burst.
    expect(storedWhenHeld.get("BURST-99")).toBeGreaterThan(0);
  });

  test("a credentials update is saved while a download hangs", async () => {
    const app = await connectedApp();
    const enc = await encryptedStream(Buffer.from("jpeg"), "image");
    app.fake.deliver(CUSTOMER, "IMG-HANG", image(cdn(never).url("hang.enc"), enc));
    await waitFor(() => app.stored("IMG-HANG"));
    app.fake.routingInfo(Buffer.from("edge-2"));
    const saved = async () => {
      const row = await first(app.db.select().from(waAuthCreds).where(eq(waAuthCreds.whatsappId, app.conn.id)));
      return row && JSON.parse(row.creds, BufferJSON.reviver).routingInfo?.toString() === "edge-2";
    };
    await waitFor(saved);
  });

  test("a connection close is reported while a download hangs", async () => {
    const app = await connectedApp();
    const enc = await encryptedStream(Buffer.from("jpeg"), "image");
    app.fake.deliver(CUSTOMER, "IMG-HANG", image(cdn(never).url("hang.enc"), enc));
    await waitFor(() => app.stored("IMG-HANG"));
    app.fake.streamError(503);
    await waitFor(() => app.hub.named("whatsappSession").some((e) => e.payload.session.status === "TIMEOUT"));
  });

  test("the media arrives when its download ends: the file is stored and the chat gets the message update", async () => {
    const app = await connectedApp();
    const bytes = Buffer.from("fake-jpeg-bytes-".repeat(64));
    const enc = await encryptedStream(bytes, "image");
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const media = cdn(async () => (await gate, new Response(Bun.file(enc.encFilePath))));
    app.fake.deliver(CUSTOMER, "IMG-1", image(media.url("img.enc"), enc, "comprovante"));
    app.fake.deliver(CUSTOMER, "TXT-1", { conversation: "segue o comprovante" });
    await waitFor(() => app.stored("TXT-1"));
    expect(await app.stored("IMG-1")).toMatchObject({ body: "comprovante", mediaState: "downloading", mediaUrl: null });
    release();
    const done = await waitFor(() => app.withFile("IMG-1"));
    expect(done).toMatchObject({ mediaState: null, mediaMime: "image/jpeg", fileName: "IMG-1.jpeg" });
    expect(readFileSync(join(app.mediaDir, done.mediaUrl)).equals(bytes)).toBe(true);
    // Published once the stored row is read back, which may come a moment after it is visible here.
    const update = await waitFor(() =>
      app.hub
        .to(`ticket:${done.ticketId}`, "appMessage")
        .find((e) => e.payload.action === "update" && e.payload.message.id === done.id),
    );
    expect(update.payload.message).toMatchObject({ mediaState: null });
    expect(update.payload.message.mediaUrl).toStartWith(`/api/media/${done.id}?expires=`);
    await waitFor(async () => (await app.journal()).length === 0);
  });

  test("media that cannot be downloaded, or passes the size limit while downloading, ends unavailable", async () => {
    const app = await connectedApp({ maxMediaBytes: 1000 });
    const big = await encryptedStream(Buffer.alloc(3000, 1), "document");
    const media = cdn((req) =>
      req.url.endsWith("gone.enc") ? new Response("gone", { status: 500 }) : new Response(Bun.file(big.encFilePath)),
    );
    app.fake.deliver(CUSTOMER, "DOC-GONE", {
      documentMessage: {
        url: media.url("gone.enc"),
        mimetype: "application/pdf",
        fileName: "nota.pdf",
        mediaKey: Buffer.alloc(32, 1),
      },
    });
    // The sender declares a small size; the download stops at the limit.
    app.fake.deliver(CUSTOMER, "DOC-BIG", {
      documentMessage: {
        url: media.url("big.enc"),
        mimetype: "application/pdf",
        fileName: "big.pdf",
        mediaKey: big.mediaKey,
        fileEncSha256: big.fileEncSha256,
        fileSha256: big.fileSha256,
        fileLength: 10,
      },
    });
    const unavailable = async (wid: string) =>
      (await app.stored(wid))?.mediaState === "unavailable" ? await app.stored(wid) : undefined;
    expect(await waitFor(async () => await unavailable("DOC-GONE"))).toMatchObject({
      mediaUrl: null,
      body: "nota.pdf",
    });
    expect(await waitFor(async () => await unavailable("DOC-BIG"))).toMatchObject({
      mediaUrl: null,
      body: "big.pdf (0.0 MB)",
    });
  });

  test("an expired media link asks the phone to upload it again without holding up the next messages", async () => {
    const app = await connectedApp({ mediaTimeoutMs: 150 });
    const enc = await encryptedStream(Buffer.from("jpeg"), "image");
    const media = cdn(() => new Response("expired", { status: 404 }));
    app.fake.deliver(CUSTOMER, "IMG-OLD", image(media.url("old.enc"), enc));
    app.fake.deliver(CUSTOMER, "TXT-AFTER", { conversation: "e agora?" });
    const asked = app.fake.waitFor(
      (n) => n.tag === "receipt" && n.attrs.type === "server-error" && n.attrs.id === "IMG-OLD",
    );
    await waitFor(() => app.stored("TXT-AFTER"));
    expect((await app.stored("IMG-OLD"))?.mediaState).toBe("downloading");
    await asked;
    // The phone never answers: after its attempts the media is unavailable.
    await waitFor(async () => (await app.stored("IMG-OLD"))?.mediaState === "unavailable");
  });

  test("media downloads run at most three at once", async () => {
    const app = await connectedApp();
    const enc = await encryptedStream(Buffer.from("jpeg"), "image");
    let active = 0;
    let most = 0;
    const waiting: (() => void)[] = [];
    const media = cdn(async () => {
      most = Math.max(most, ++active);
      await new Promise<void>((resolve) => waiting.push(resolve));
      active--;
      return new Response(Bun.file(enc.encFilePath));
    });
    for (let i = 0; i < 5; i++) app.fake.deliver(CUSTOMER, `IMG-${i}`, image(media.url(`${i}.enc`), enc));
    // The messages of one chat are stored one after another: answer once every slot is busy.
    await waitFor(() => waiting.length === 3);
    for (let answered = 0; answered < 5; answered++) {
      await waitFor(() => waiting.length > 0);
      waiting.shift()!();
    }
    await waitFor(async () =>
      (await Promise.all(Array.from({ length: 5 }, (_, i) => app.withFile(`IMG-${i}`)))).every(Boolean),
    );
    expect(most).toBe(3);
  });

  test("a stop while a download hangs keeps its event; the next start downloads the file again", async () => {
    const app = await connectedApp();
    const bytes = Buffer.from("jpeg-after-restart");
    const enc = await encryptedStream(bytes, "image");
    let answering = false;
    const media = cdn(async () => (answering ? new Response(Bun.file(enc.encFilePath)) : await never()));
    app.fake.deliver(CUSTOMER, "IMG-R", image(media.url("r.enc"), enc));
    await waitFor(() => app.stored("IMG-R"));
    await app.channels.stop(app.conn.id);
    expect((await app.journal()).some((r) => r.kind === "upsert" && r.payload.includes(`"IMG-R"`))).toBe(true);
    answering = true;
    await app.channels.start(app.conn.id);
    const done = await waitFor(() => app.withFile("IMG-R"));
    expect(readFileSync(join(app.mediaDir, done.mediaUrl)).equals(bytes)).toBe(true);
    expect(await app.db.select().from(messages).where(eq(messages.wid, "IMG-R"))).toHaveLength(1);
    await waitFor(async () => (await app.journal()).length === 0);
  });
});

describe("baileys inbound journal", () => {
  // The check runs synchronously as each receipt reaches the server, which only the SQLite connection allows.
  sqliteOnly(
    "a message is journaled before its receipt reaches WhatsApp, live and in the offline backlog Baileys holds back",
    async () => {
      const atReceipt = new Map<string, boolean>();
      // A slow disk: each journal write takes a while, so a receipt sent without waiting for it would be early.
      const write = InboundJournal.prototype.write;
      const slow = spyOn(InboundJournal.prototype, "write").mockImplementation(async function (
        this: InboundJournal,
        ...args: Parameters<typeof write>
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return await write.apply(this, args);
      });
      const app = await connectedApp();
      // Checked synchronously, as each receipt reaches the server, on the SQLite connection itself.
      const raw = sqliteClient(app.db);
      const durable = (id: string) =>
        !!raw.query("SELECT 1 FROM messages WHERE whatsapp_id = ? AND wid = ?").get(app.conn.id, id) ||
        (raw.query("SELECT payload FROM inbound_journal").all() as { payload: string }[]).some((r) =>
          r.payload.includes(`"${id}"`),
        );
      app.fake.onReceipted = (id) => atReceipt.set(id, durable(id));
      app.fake.deliver(CUSTOMER, "LIVE-1", { conversation: "ao vivo" });
      await waitFor(() => app.stored("LIVE-1"));
      await app.channels.stop(app.conn.id);
      // Delivered while the connection is down: they come in the offline backlog at the next login.
      for (let i = 0; i < 10; i++) app.fake.deliver(CUSTOMER, `OFF-${i}`, { conversation: `offline ${i}` });
      await app.channels.start(app.conn.id);
      await waitFor(async () =>
        (await Promise.all(Array.from({ length: 10 }, (_, i) => app.stored(`OFF-${i}`)))).every(Boolean),
      );
      expect([...atReceipt.keys()].sort()).toEqual(
        ["LIVE-1", ...Array.from({ length: 10 }, (_, i) => `OFF-${i}`)].sort(),
      );
      expect([...atReceipt].filter(([, ok]) => !ok)).toEqual([]);
      slow.mockRestore();
    },
  );

  test("what a stop leaves in the journal is handled at the next start, once", async () => {
    const app = await connectedApp();
    await app.channels.stop(app.conn.id);
    const upsert = (id: string, text: string) => ({
      type: "notify",
      message: {
        key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: false, id },
        messageTimestamp: Math.floor(Date.now() / 1000),
        pushName: "Ana",
        message: { conversation: text },
      },
    });
    await app.db.insert(inboundJournal).values([
      { whatsappId: app.conn.id, kind: "upsert", payload: JSON.stringify(upsert("J-1", "primeira")) },
      { whatsappId: app.conn.id, kind: "upsert", payload: JSON.stringify(upsert("J-2", "segunda")) },
      { whatsappId: app.conn.id, kind: "upsert", payload: JSON.stringify(upsert("J-1", "primeira")) },
    ]);
    await app.channels.start(app.conn.id);
    await waitFor(async () => (await app.db.select().from(inboundJournal)).length === 0);
    expect(
      await app.db.select({ wid: messages.wid, body: messages.body }).from(messages).orderBy(asc(messages.id)),
    ).toEqual([
      { wid: "J-1", body: "primeira" },
      { wid: "J-2", body: "segunda" },
    ]);
  });
});

describe("baileys inbox on its own", () => {
  async function inboxOn(db: Db, lines: string[] = []) {
    cleanup.push(() => closeDatabase(db));
    await db.insert(connections).values({ id: 1, name: "Main", provider: "baileys" });
    const journal = new InboundJournal(db);
    const inbox = new Inbox({
      connectionId: 1,
      journal,
      downloads: new DownloadPool(1),
      download: async () => ({ unavailable: true }),
      maxMediaBytes: 1000,
      log: createLogger("error", (line) => lines.push(line)),
    });
    const sink = new RecordingSink();
    await inbox.start(sink);
    return { inbox, journal, sink };
  }

  const text = (id: string, body: string): JournalEvent => ({
    kind: "upsert",
    type: "notify",
    message: {
      key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: false, id },
      messageTimestamp: 1767225600,
      message: { conversation: body },
    },
  });

  test("batches whose journal writes end out of order are handed over in the order they came", async () => {
    const { inbox, journal, sink } = await inboxOn(await testDatabase());
    const write = journal.write.bind(journal);
    let writes = 0;
    // The first batch's write is the slowest, as a busy database server may answer it.
    journal.write = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, writes++ === 0 ? 40 : 0));
      return await write(...args);
    };
    await Promise.all([inbox.receive([text("ORD-1", "um")]), inbox.receive([text("ORD-2", "dois")])]);
    await sink.until(() => sink.messages.length === 2);
    expect(sink.messages.map((m) => m.id)).toEqual(["ORD-1", "ORD-2"]);
  });

  test("a message held before its receipt is not written again when its upsert brings it unchanged, its key's fields in another order", async () => {
    const db = await testDatabase();
    const { inbox, journal, sink } = await inboxOn(db);
    const message = {
      key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: false, id: "HELD-1" },
      messageTimestamp: 1767225600,
      message: { conversation: "oi" },
    };
    await inbox.hold(message, "notify");
    const [held] = await db.select().from(inboundJournal);
    const write = spyOn(journal, "write");
    const { id, fromMe, remoteJid } = message.key;
    await inbox.receive([{ kind: "upsert", type: "notify", message: { ...message, key: { id, fromMe, remoteJid } } }]);
    await sink.until(() => sink.messages.find((m) => m.id === "HELD-1"));
    expect(await write.mock.results[0]!.value).toEqual([
      expect.objectContaining({ id: held!.id, payload: held!.payload }),
    ]);
    // The row is left as the hold wrote it (or already removed, once handled).
    const rows = await db.select().from(inboundJournal);
    expect(rows.every((r) => r.id === held!.id && r.payload === held!.payload)).toBe(true);
  });

  test("a contact's push name repeated with each message is reported once; a new name, and the same news after a LID mapping, are reported again", async () => {
    const { inbox, sink } = await inboxOn(await testDatabase());
    const pn = `${CUSTOMER}@s.whatsapp.net`;
    const lid = "98765432109876@lid";
    const news = (contacts: { id: string; notify: string }[]): JournalEvent => ({ kind: "contacts", contacts });
    await inbox.receive([text("CR-1", "um"), news([{ id: pn, notify: "Ana" }])]);
    await inbox.receive([text("CR-2", "dois"), news([{ id: pn, notify: "Ana" }])]);
    await inbox.receive([news([{ id: pn, notify: "Ana Maria" }])]);
    await inbox.receive([{ kind: "lid-mapping", mapping: { lid, pn } }]);
    await inbox.receive([news([{ id: pn, notify: "Ana Maria" }])]);
    await sink.until(() => sink.messages.length === 2 && sink.contacts.length === 4);
    await inbox.drain(1000);
    expect(sink.contacts.map((c) => [c.phone, c.name])).toEqual([
      [CUSTOMER, "Ana"],
      [CUSTOMER, "Ana Maria"],
      [CUSTOMER, undefined],
      [CUSTOMER, "Ana Maria"],
    ]);
  });

  test("a handled row is removed with the next journal write, and one still waiting when the inbox drains is removed by the drain", async () => {
    const { inbox, journal, sink } = await inboxOn(await testDatabase());
    const [first] = await journal.write(1, [text("RM-1", "um")]);
    const removed = journal.remove(first!.id);
    const [second] = await journal.write(1, [text("RM-2", "dois")]);
    await removed;
    expect((await journal.pending(1)).map((r) => r.id)).toEqual([second!.id]);
    await inbox.receive([text("RM-3", "três")]);
    await sink.until(() => sink.messages.find((m) => m.id === "RM-3"));
    await inbox.drain(1000);
    expect((await journal.pending(1)).map((r) => r.id)).toEqual([second!.id]);
  });

  test("events that cannot be journaled are still handled, and logged", async () => {
    const db = await testDatabase();
    const lines: string[] = [];
    const { inbox, sink } = await inboxOn(db, lines);
    await execute(db, sql`DROP TABLE inbound_journal`);
    await inbox.receive([text("NJ-1", "oi")]);
    expect((await sink.until(() => sink.messages.find((m) => m.id === "NJ-1"))).body).toBe("oi");
    expect(lines.some((l) => l.includes("inbound events not journaled"))).toBe(true);
  });
});
