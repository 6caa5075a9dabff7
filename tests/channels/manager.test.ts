// @engine each
import { first, one } from "../../src/db/client";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { ConnectionManager } from "../../src/channels/manager";
import type { ChannelDriver, ChannelSink, ConnectionRecords, ConnectionRef } from "../../src/channels/types";
import { connectionPhonebook, connections } from "../../src/db/tables";
import { AppError } from "../../src/errors";
import { connectionRecords } from "../../src/modules/connections/records";
import { createSandboxConnection, makeTestApp } from "../helpers";

const rowOf = async (ctx: Awaited<ReturnType<typeof makeTestApp>>, id: number) =>
  (await first(ctx.db.select().from(connections).where(eq(connections.id, id))))!;

/** A manager whose Baileys driver only keeps the sink it is started with, and a connection of it; `start` hands the sink. */
async function withSinkOnly(ctx: Awaited<ReturnType<typeof makeTestApp>>, records?: ConnectionRecords) {
  const held: { sink?: ChannelSink } = {};
  const driver = {
    kind: "baileys",
    start: async (_c: ConnectionRef, sink: ChannelSink) => void (held.sink = sink),
    isRunning: () => false,
  } as unknown as ChannelDriver;
  const manager = new ConnectionManager({
    db: ctx.db,
    records: records ?? connectionRecords(ctx.db, ctx.deps.events),
    log: ctx.deps.log,
  }).register(driver);
  const row = await one(ctx.db.insert(connections).values({ name: "Real", provider: "baileys" }).returning());
  const start = async () => {
    await manager.start(row.id);
    return held.sink!;
  };
  return { row, start };
}

describe("ConnectionManager with the sandbox driver", () => {
  test("start sets OPENING then qrcode with a QR, persisted and told to admins without the wavoip token", async () => {
    const ctx = await makeTestApp();
    const row = await one(
      ctx.db.insert(connections).values({ name: "Sales", provider: "sandbox", wavoip: "secret-token" }).returning(),
    );
    await ctx.channels.start(row.id);
    const after = await rowOf(ctx, row.id);
    expect(after.status).toBe("qrcode");
    expect(after.qrcode).toStartWith(`sandbox:${row.id}:`);
    const events = ctx.hub.to("admins", "whatsappSession").map((e) => e.payload.session.status);
    expect(events).toEqual(["OPENING", "qrcode"]);
    for (const e of ctx.hub.named("whatsappSession")) expect(e.payload.session.wavoip).toBeUndefined();
    expect(await ctx.channels.isRunning(row.id)).toBe(true);
  });

  test("scan connects with a stable fake number and clears the QR", async () => {
    const ctx = await makeTestApp();
    const row = await createSandboxConnection(ctx);
    expect(row.status).toBe("CONNECTED");
    expect(row.qrcode).toBe("");
    expect(row.number).toBe(`5500000000${row.id}`);
  });

  test("a paired connection comes back CONNECTED after a restart; disconnect wipes the pairing and does not restart", async () => {
    const ctx = await makeTestApp();
    const row = await createSandboxConnection(ctx);
    await ctx.channels.restartAll();
    expect((await rowOf(ctx, row.id)).status).toBe("CONNECTED");
    await ctx.channels.disconnect(row.id);
    expect((await rowOf(ctx, row.id)).status).toBe("DISCONNECTED");
    expect(await ctx.channels.isRunning(row.id)).toBe(false);
    await ctx.channels.start(row.id);
    expect((await rowOf(ctx, row.id)).status).toBe("qrcode");
  });

  test("newQr wipes the pairing and shows a new QR", async () => {
    const ctx = await makeTestApp();
    const row = await createSandboxConnection(ctx);
    await ctx.channels.newQr(row.id);
    expect((await rowOf(ctx, row.id)).status).toBe("qrcode");
  });

  test("sending on a stopped or unpaired connection fails with ERR_WAPP_NOT_INITIALIZED; a message id is still handed out", async () => {
    const ctx = await makeTestApp();
    const row = await createSandboxConnection(ctx, { scan: false });
    const send = () => ctx.channels.sendText(row.id, "5511999999999", false, "hi", { messageId: "X1" });
    await expect(send()).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
    await ctx.channels.stop(row.id);
    await expect(send()).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
    expect(await ctx.channels.newMessageId(row.id)).toMatch(/^SB[0-9A-F]{20}$/);
    await expect(ctx.channels.newMessageId(9999)).rejects.toThrow(AppError);
    await expect(ctx.channels.disconnect(row.id)).rejects.toMatchObject({ code: "ERR_WAPP_NOT_INITIALIZED" });
  });

  test("a sent message walks acks 1→2→3 reported through the sink, and checkNumber accepts 8–15 digits", async () => {
    const ctx = await makeTestApp();
    const row = await createSandboxConnection(ctx);
    const acks: number[] = [];
    ctx.channels.setInbound({
      onMessage: async () => {},
      wantsMedia: async () => false,
      onMedia: async () => {},
      onAck: async (_c, _id, ack) => {
        acks.push(ack);
      },
      async onRevoked() {},
      async onEdit() {},
      async onReaction() {},
      onCall: async () => {},
      async onContacts() {},
      async onSendRejected() {},
      async onPresence() {},
    });
    await ctx.channels.sendText(row.id, "5511999999999", false, "hello", { messageId: "M1" });
    await ctx.sandbox.network.settle();
    expect(acks).toEqual([1, 2, 3]);
    await ctx.sandbox.read(row.id, "5511999999999");
    expect(acks).toEqual([1, 2, 3, 4]);
    expect((await ctx.sandbox.network.outbox(row.id))[0]!.ack).toBe(4);
    expect(await ctx.channels.checkNumber(row.id, "+55 (11) 99999-9999")).toBe("5511999999999");
    expect(await ctx.channels.checkNumber(row.id, "1234")).toBeNull();
  });

  test("concurrent starts of one connection join into one", async () => {
    const ctx = await makeTestApp();
    let starts = 0;
    const sinkHolder: { sink?: ChannelSink } = {};
    // The driver's start stays pending until both starts were asked for.
    let release = () => {};
    const bothAsked = new Promise<void>((resolve) => (release = resolve));
    const driver: ChannelDriver = {
      kind: "baileys",
      async start(c: ConnectionRef, sink: ChannelSink) {
        starts++;
        sinkHolder.sink = sink;
        await bothAsked;
        await sink.onStatus(c.id, "CONNECTED", { number: "551100000000" });
      },
      stop: async () => {},
      logout: async () => {},
      isRunning: () => starts > 0,
      newMessageId: () => "id",
      sendText: async () => {
        throw new Error("network down");
      },
      sendMedia: async () => {},
      markRead: async () => {},
      deleteForEveryone: async () => {
        throw new Error("nope");
      },
      checkNumber: async () => null,
      sendPresence: async () => {},
      subscribePresence: async () => {},
      sendReaction: async () => {},
      profilePictureUrl: async () => null,
      rejectCall: async () => {},
    };
    const manager = new ConnectionManager({
      db: ctx.db,
      records: connectionRecords(ctx.db, ctx.deps.events),
      log: ctx.deps.log,
    }).register(driver);
    const row = await one(ctx.db.insert(connections).values({ name: "Real", provider: "baileys" }).returning());
    const both = Promise.all([manager.start(row.id), manager.start(row.id)]);
    release();
    await both;
    expect(starts).toBe(1);
    expect((await rowOf(ctx, row.id)).number).toBe("551100000000");
    await expect(manager.sendText(row.id, "1", false, "x", { messageId: "a" })).rejects.toMatchObject({
      code: "ERR_SENDING_WAPP_MSG",
    });
    await expect(
      manager.deleteForEveryone(row.id, { id: "a", chatId: "1", isGroup: false, fromMe: true }),
    ).rejects.toMatchObject({ code: "ERR_DELETE_WAPP_MSG" });
  });

  test("a pairing the driver reports ended makes the connection forget its phone book; other disconnects keep it", async () => {
    const ctx = await makeTestApp();
    const { row, start } = await withSinkOnly(ctx);
    await ctx.db.insert(connectionPhonebook).values({ whatsappId: row.id, jid: "5511@s.whatsapp.net", phone: "5511" });
    const entries = async () =>
      await ctx.db.select().from(connectionPhonebook).where(eq(connectionPhonebook.whatsappId, row.id));
    const sink = await start();
    await sink.onStatus(row.id, "DISCONNECTED", { reason: "replaced" });
    expect(await entries()).toHaveLength(1);
    await sink.onStatus(row.id, "DISCONNECTED", { qr: "", reason: "logged out", unpaired: true });
    expect(await entries()).toHaveLength(0);
    expect((await rowOf(ctx, row.id)).status).toBe("DISCONNECTED");
  });

  test("a connection's statuses are stored in the order reported: a pairing's PAIRING written slowly does not overwrite the CONNECTED reported after it", async () => {
    const ctx = await makeTestApp();
    const records = connectionRecords(ctx.db, ctx.deps.events);
    const save = records.saveStatus.bind(records);
    const others: Promise<boolean>[] = [];
    let connectedReported = () => {};
    const reported = new Promise<void>((resolve) => (connectedReported = resolve));
    // A busy database server answers the PAIRING write last: it ends after every write started before the driver
    // reported CONNECTED.
    records.saveStatus = (id, status, info) => {
      if (status === "PAIRING") return reported.then(() => Promise.all(others)).then(() => save(id, status, info));
      const write = save(id, status, info);
      others.push(write);
      return write;
    };
    const { row, start } = await withSinkOnly(ctx, records);
    const sink = await start();
    const pairing = sink.onStatus(row.id, "PAIRING", { qr: "" });
    const connected = sink.onStatus(row.id, "CONNECTED", { qr: "", number: "5511900000000" });
    connectedReported();
    await Promise.all([pairing, connected]);
    expect((await rowOf(ctx, row.id)).status).toBe("CONNECTED");
  });

  test("startAll starts every connection not deliberately disconnected, including those left reconnecting", async () => {
    const ctx = await makeTestApp();
    const a = await one(ctx.db.insert(connections).values({ name: "A", provider: "sandbox" }).returning());
    const b = await one(
      ctx.db.insert(connections).values({ name: "B", provider: "sandbox", status: "DISCONNECTED" }).returning(),
    );
    const resumed: number[] = [];
    for (const status of ["CONNECTED", "TIMEOUT", "OPENING"] as const)
      resumed.push(
        (
          await one(
            ctx.db.insert(connections).values({ name: status, provider: "sandbox", status, retries: 7 }).returning(),
          )
        ).id,
      );
    await ctx.channels.startAll();
    expect(await ctx.channels.isRunning(a.id)).toBe(true);
    expect(await ctx.channels.isRunning(b.id)).toBe(false);
    for (const id of resumed) expect(await ctx.channels.isRunning(id)).toBe(true);
  });
});
