// @engine each
import { one, first } from "../src/db/client";
import { describe, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { ConnectionManager } from "../src/channels/manager";
import type { ChannelDriver, ConnectionRef, NormalizedMessage } from "../src/channels/types";
import { contacts, messages, queues, tickets, connections } from "../src/db/tables";
import { LocalEventBus } from "../src/events/bus";
import { createLogger } from "../src/log";
import { connectionRecords } from "../src/modules/connections/records";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const DAY = 86_400_000;
const PHONE = "5511988887777";

async function setup(fields: { importHistory?: boolean; importHistoryDays?: number } = { importHistory: true }) {
  const ctx = await makeTestApp();
  const { token } = await loginAs(ctx, { profile: "admin" });
  const queue = await one(
    ctx.db.insert(queues).values({ name: "Vendas", color: "#f00", greetingMessage: "Bem-vindo" }).returning(),
  );
  const conn = await createSandboxConnection(ctx, { greetingMessage: "Olá! Escolha uma opção", queueIds: [queue.id] });
  await ctx.db.update(connections).set(fields).where(eq(connections.id, conn.id));
  return { ctx, token, conn };
}

function msg(
  ctx: TestContext,
  id: string,
  daysAgo: number,
  fields: Partial<NormalizedMessage> = {},
): NormalizedMessage {
  return {
    id,
    chatId: PHONE,
    isGroup: false,
    fromMe: false,
    at: ctx.clock.now() - daysAgo * DAY,
    kind: "chat",
    body: id,
    ...fields,
  };
}

const history = (ctx: TestContext, whatsappId: number, list: NormalizedMessage[]) =>
  ctx.channels.driverSink.onHistory!(whatsappId, list);
/** Oldest first: PostgreSQL hands rows back in no fixed order once some were updated. */
const ticketsOf = async (ctx: TestContext) => await ctx.db.select().from(tickets).orderBy(asc(tickets.id));

describe("history import at pairing", () => {
  test("stores the last N days of each chat in one closed ticket, with no unread count, bot reply or new-message event", async () => {
    const { ctx, conn } = await setup({ importHistory: true, importHistoryDays: 7 });
    ctx.hub.clear();
    await history(ctx, conn.id, [
      msg(ctx, "OLD", 8),
      msg(ctx, "A1", 3, { pushName: "Ana" }),
      msg(ctx, "A2", 2, { fromMe: true, ack: 4 }),
      msg(ctx, "A3", 1, { quotedId: "A1" }),
      msg(ctx, "B1", 1, { chatId: "5511977776666", pushName: "Bia" }),
    ]);
    const all = await ticketsOf(ctx);
    expect(all.map((t) => [t.status, t.fromHistory, t.unreadMessages, t.isBot])).toEqual([
      ["closed", true, 0, false],
      ["closed", true, 0, false],
    ]);
    const ana = (await first(ctx.db.select().from(contacts).where(eq(contacts.number, PHONE))))!;
    expect(ana.name).toBe("Ana");
    const anaTicket = all.find((t) => t.contactId === ana.id)!;
    expect(anaTicket).toMatchObject({
      lastMessage: "A3",
      createdAt: new Date(ctx.clock.now() - 3 * DAY),
      updatedAt: new Date(ctx.clock.now() - DAY),
    });
    const stored = await ctx.db
      .select()
      .from(messages)
      .where(eq(messages.ticketId, anaTicket.id))
      .orderBy(asc(messages.id));
    expect(stored.map((m) => [m.wid, m.fromMe, m.read, m.ack])).toEqual([
      ["A1", false, true, 0],
      ["A2", true, true, 4],
      ["A3", false, true, 0],
    ]);
    expect(stored[2]!.quotedMsgId).toBe(stored[0]!.id);
    expect(await ctx.sandbox.network.outbox(conn.id)).toEqual([]);
    expect(ctx.hub.named("appMessage")).toEqual([]);
    const told = new Map(
      ctx.hub.named("ticket").map((e) => {
        const { ticket } = e.payload as { ticket: { id: number; status: string; unreadMessages: number } };
        return [ticket.id, [ticket.status, ticket.unreadMessages]];
      }),
    );
    expect([...told.values()]).toEqual([
      ["closed", 0],
      ["closed", 0],
    ]);
  });

  test("leaves an open ticket of the same chat untouched, skips messages already stored and reuses the history ticket for later batches", async () => {
    const { ctx, token, conn } = await setup();
    await call(ctx.app, "POST", `/api/sandbox/${conn.id}/inbound`, {
      token,
      body: { from: PHONE, name: "Ana", body: "ao vivo", id: "LIVE1" },
    });
    const live = (await ticketsOf(ctx))[0]!;
    await history(ctx, conn.id, [msg(ctx, "LIVE1", 0, { body: "ao vivo" }), msg(ctx, "H1", 2)]);
    await history(ctx, conn.id, [msg(ctx, "H1", 2), msg(ctx, "H0", 3)]);
    const [open, imported] = await ticketsOf(ctx);
    expect(open).toEqual(live);
    expect(open).toMatchObject({ status: "pending", unreadMessages: 1 });
    expect(imported).toMatchObject({ status: "closed", fromHistory: true, lastMessage: "H1" });
    expect(
      (await ctx.db.select().from(messages).where(eq(messages.ticketId, imported!.id))).map((m) => m.wid).sort(),
    ).toEqual(["H0", "H1"]);
    expect(await ctx.db.select().from(messages).where(eq(messages.wid, "LIVE1"))).toMatchObject([
      { ticketId: live.id },
    ]);
  });

  test("does nothing when the connection does not import history", async () => {
    const { ctx, conn } = await setup({ importHistory: false });
    await history(ctx, conn.id, [msg(ctx, "A1", 1)]);
    expect(await ticketsOf(ctx)).toEqual([]);
    expect(await ctx.db.select().from(contacts)).toEqual([]);
  });

  test("follows the ignore-group-messages setting, and gives chats of LID-only senders a contact without a number", async () => {
    const { ctx, conn } = await setup();
    await history(ctx, conn.id, [
      msg(ctx, "G1", 1, { chatId: "120363000000000001", isGroup: true, groupName: "Grupo", author: { phone: PHONE } }),
      msg(ctx, "L1", 1, { chatId: "lid:123456789012345", lid: "123456789012345", pushName: "Duda" }),
    ]);
    expect(await ctx.db.select().from(contacts)).toMatchObject([
      { number: null, lid: "123456789012345", name: "Duda" },
    ]);
    expect((await ctx.db.select().from(messages)).map((m) => m.wid)).toEqual(["L1"]);
  });
});

describe("the history option of a connection", () => {
  test("is off with 7 days by default, editable through the API, and refused outside 1–365 days", async () => {
    const ctx = await makeTestApp();
    const { token } = await loginAs(ctx, { profile: "admin" });
    const created = await call(ctx.app, "POST", "/api/whatsapp", {
      token,
      body: { name: "Main", provider: "sandbox" },
    });
    expect(created.json).toMatchObject({ importHistory: false, importHistoryDays: 7 });
    const put = (body: unknown) => call(ctx.app, "PUT", `/api/whatsapp/${created.json.id}`, { token, body });
    expect((await put({ importHistory: true, importHistoryDays: 30 })).json).toMatchObject({
      importHistory: true,
      importHistoryDays: 30,
    });
    expect(await put({ importHistoryDays: 0 })).toMatchObject({ status: 400, json: { field: "importHistoryDays" } });
    expect(await put({ importHistoryDays: 366 })).toMatchObject({ status: 400, json: { field: "importHistoryDays" } });
    expect(await put({ importHistoryDays: 2.5 })).toMatchObject({ status: 400, json: { field: "importHistoryDays" } });
  });

  test("reaches the driver at start: the days to import when on, nothing when off", async () => {
    const ctx = await makeTestApp();
    const started: ConnectionRef[] = [];
    const driver = {
      kind: "baileys",
      start: async (conn: ConnectionRef) => void started.push(conn),
      isRunning: () => false,
    } as unknown as ChannelDriver;
    const manager = new ConnectionManager({
      db: ctx.db,
      records: connectionRecords(ctx.db, new LocalEventBus(createLogger("silent"))),
      log: createLogger("silent"),
    }).register(driver);
    const on = await one(
      ctx.db.insert(connections).values({ name: "On", importHistory: true, importHistoryDays: 3 }).returning(),
    );
    const off = await one(ctx.db.insert(connections).values({ name: "Off", importHistoryDays: 3 }).returning());
    await manager.start(on.id);
    await manager.start(off.id);
    expect(started).toEqual([
      { id: on.id, name: "On", provider: "baileys", historyDays: 3 },
      { id: off.id, name: "Off", provider: "baileys" },
    ]);
  });
});
