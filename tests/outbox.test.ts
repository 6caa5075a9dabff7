// @engine each
import { closeDatabase, first as firstRow, one } from "../src/db/client";
import { afterAll, describe, expect, spyOn, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { contacts, messages, tickets, connections, type TicketRow } from "../src/db/tables";
import { AppError } from "../src/errors";
import { requeueInterrupted } from "../src/modules/messages/outbox";
import { storeMessage } from "../src/modules/messages/store";
import { applyTicketChanges } from "../src/modules/tickets/service";
import { BASE, call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
let seq = 0;

/** An agent with an open ticket of theirs on a sandbox connection (paired unless `scan: false`). */
async function setup(opts: { scan?: boolean; databasePath?: string; mediaDir?: string } = {}) {
  const ctx = await makeTestApp({
    ...(opts.databasePath ? { databasePath: opts.databasePath } : {}),
    mediaDir: opts.mediaDir ?? join(tempDir(), "media"),
  });
  const conn = await createSandboxConnection(ctx, { scan: opts.scan, farewellMessage: "Tchau {{name}}" });
  const agent = await loginAs(ctx);
  const contact = await one(
    ctx.db
      .insert(contacts)
      .values({ name: "Ana", number: `55319${String(++seq).padStart(8, "0")}` })
      .returning(),
  );
  const ticket = await one(
    ctx.db
      .insert(tickets)
      .values({ contactId: contact.id, status: "open", userId: agent.user.id, whatsappId: conn.id })
      .returning(),
  );
  // The connection's own flush on coming up is over: under load it could still be looking for messages when a test
  // writes one, and send it before the test's own flush.
  await ctx.deps.outbox.idle(conn.id);
  return { ctx, conn, agent, contact, ticket };
}

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-outbox-"));
  dirs.push(dir);
  return dir;
}

const send = (ctx: TestContext, token: string, ticket: TicketRow, body: string) =>
  call(ctx.app, "POST", `/api/messages/${ticket.id}`, { token, body: { body } });
const rowOf = async (ctx: TestContext, id: number) =>
  await firstRow(ctx.db.select().from(messages).where(eq(messages.id, id)));
/** The send states and acks the chat of `ticketId` was told about for one message, in order. */
const statesTold = (ctx: TestContext, ticketId: number, messageId: number) =>
  ctx.hub
    .to(`ticket:${ticketId}`, "appMessage")
    .map((e) => e.payload.message)
    .filter((m) => m?.id === messageId)
    .map((m) => `${m.sendState}/${m.ack}`);

async function upload(ctx: TestContext, token: string, ticket: TicketRow, name: string) {
  const form = new FormData();
  form.append("medias", new File([PNG], name));
  const res = await ctx.app.handle(
    new Request(`${BASE}/api/messages/${ticket.id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    }),
  );
  return { status: res.status, json: await res.json() };
}

describe("sending while the connection is down", () => {
  test("the message is stored queued with ack 0 and answered 200; nothing reaches the network", async () => {
    const { ctx, conn, agent, ticket } = await setup();
    await ctx.channels.stop(conn.id);
    const res = await send(ctx, agent.token, ticket, "Olá");
    expect(res.status).toBe(200);
    expect(res.json.messages).toHaveLength(1);
    expect(res.json.messages[0]).toMatchObject({
      body: "Olá",
      fromMe: true,
      ack: 0,
      sendState: "queued",
      sendError: null,
      ticketId: ticket.id,
    });
    expect(await rowOf(ctx, res.json.messages[0].id)).toMatchObject({ sendState: "queued", ack: 0 });
    expect(await ctx.sandbox.network.outbox(conn.id)).toHaveLength(0);
    expect(ctx.hub.to(`ticket:${ticket.id}`, "appMessage").at(-1)!.payload).toMatchObject({
      action: "create",
      message: { sendState: "queued", ack: 0 },
    });
  });

  test("once scanned, queued messages go out in order and once; each state change and ack reaches the chat", async () => {
    const { ctx, conn, agent, contact, ticket } = await setup({ scan: false });
    const first = (await send(ctx, agent.token, ticket, "primeira")).json.messages[0];
    const second = (await upload(ctx, agent.token, ticket, "foto.png")).json.messages[0];
    expect([first.sendState, second.sendState]).toEqual(["queued", "queued"]);
    expect(await ctx.sandbox.network.outbox(conn.id)).toHaveLength(0);

    await ctx.sandbox.scan(conn.id);
    await ctx.deps.outbox.idle(conn.id);
    const out = await ctx.sandbox.network.outbox(conn.id, contact.number!);
    expect(out.map((m) => [m.wid, m.mediaType, m.body])).toEqual([
      [first.wid, "chat", "primeira"],
      [second.wid, "image", ""],
    ]);
    await ctx.sandbox.network.settle();
    expect(await rowOf(ctx, first.id)).toMatchObject({ sendState: "sent", ack: 3 });
    expect(statesTold(ctx, ticket.id, first.id)).toEqual([
      "queued/0",
      "sending/0",
      "sent/0",
      "sent/1",
      "sent/2",
      "sent/3",
    ]);
    expect(existsSync(join(ctx.deps.config.mediaDir, (await rowOf(ctx, second.id))!.mediaUrl!))).toBe(true);

    // Coming back again sends nothing twice.
    await ctx.channels.restartAll();
    await ctx.deps.outbox.idle(conn.id);
    expect(await ctx.sandbox.network.outbox(conn.id)).toHaveLength(2);
  });

  test("a farewell written while the connection is down is sent when it is back", async () => {
    const { ctx, conn, contact, ticket } = await setup();
    await ctx.channels.stop(conn.id);
    await applyTicketChanges(ctx.deps, ticket.id, { status: "closed" }, { actor: null });
    const farewell = (await firstRow(ctx.db.select().from(messages).where(eq(messages.ticketId, ticket.id))))!;
    expect(farewell).toMatchObject({ body: "\u200eTchau Ana", sendState: "queued" });
    await ctx.channels.start(conn.id);
    await ctx.deps.outbox.idle(conn.id);
    expect((await ctx.sandbox.network.outbox(conn.id, contact.number!)).map((m) => m.wid)).toEqual([farewell.wid]);
  });

  test("a send the link drops while the connection looks up waits for it, and what was written after goes out behind it", async () => {
    const { ctx, conn, agent, ticket } = await setup();
    const driverSend = ctx.sandbox.sendText.bind(ctx.sandbox);
    const flaky = spyOn(ctx.sandbox, "sendText").mockImplementationOnce(async () => {
      throw new AppError("ERR_WAPP_NOT_INITIALIZED");
    });
    flaky.mockImplementation(driverSend);
    const first = (await send(ctx, agent.token, ticket, "um")).json.messages[0];
    expect(first.sendState).toBe("queued");
    expect(await ctx.sandbox.network.outbox(conn.id)).toHaveLength(0);
    const second = (await send(ctx, agent.token, ticket, "dois")).json.messages[0];
    expect(second.sendState).toBe("sent");
    expect((await ctx.sandbox.network.outbox(conn.id)).map((m) => m.body)).toEqual(["um", "dois"]);
    expect((await rowOf(ctx, first.id))!.sendState).toBe("sent");
  });
});

describe("sending across a restart", () => {
  test("queued messages, and one cut off mid-send, are sent once under their own ids when the connection comes up", async () => {
    const dir = tempDir();
    const paths = { databasePath: join(dir, "db.sqlite"), mediaDir: join(dir, "media") };
    const first = await setup(paths);
    const handedOver = (await send(first.ctx, first.agent.token, first.ticket, "entregue")).json.messages[0];
    await first.ctx.channels.stop(first.conn.id);
    const waiting = (await send(first.ctx, first.agent.token, first.ticket, "na fila")).json.messages[0];
    // The process died after handing this one to the network, before it was marked sent.
    await first.ctx.db.update(messages).set({ sendState: "sending" }).where(eq(messages.id, handedOver.id));
    first.ctx.sandbox.network.cancelAll();
    await closeDatabase(first.ctx.db);

    const second = await makeTestApp(paths);
    await second.channels.startAll();
    await second.deps.outbox.idle(first.conn.id);
    const out = await second.sandbox.network.outbox(first.conn.id, first.contact.number!);
    expect(out.map((m) => [m.wid, m.body])).toEqual([
      [handedOver.wid, "entregue"],
      [waiting.wid, "na fila"],
    ]);
    expect((await rowOf(second, handedOver.id))!.sendState).toBe("sent");
    expect((await rowOf(second, waiting.id))!.sendState).toBe("sent");
    await second.channels.restartAll();
    await second.deps.outbox.idle(first.conn.id);
    expect(await second.sandbox.network.outbox(first.conn.id)).toHaveLength(2);
    second.sandbox.network.cancelAll();
    await closeDatabase(second.db);
  });
});

describe("sends cut off on a node that went away", () => {
  test("a node taking a connection up sends again what was cut off on it, and leaves other connections' sends alone", async () => {
    const { ctx, conn, agent, ticket } = await setup();
    const other = await createSandboxConnection(ctx);
    // As on nodes sharing PostgreSQL: interrupted sends are taken up per connection, when it starts here.
    ctx.channels.onTakenHere(async (connectionId) => await requeueInterrupted(ctx.deps, connectionId));
    const cutOff = (await send(ctx, agent.token, ticket, "cortada")).json.messages[0];
    await ctx.channels.stop(conn.id);
    await ctx.db.update(messages).set({ sendState: "sending" }).where(eq(messages.id, cutOff.id));
    const { message: elsewhere } = await storeMessage(ctx.deps, {
      ticketId: ticket.id,
      contactId: null,
      whatsappId: other.id,
      wid: "ELSEWHERE-1",
      body: "sendo enviada por outro nó",
      fromMe: true,
      sendState: "sending",
    });

    await ctx.channels.start(conn.id);
    await ctx.deps.outbox.idle(conn.id);
    expect((await rowOf(ctx, cutOff.id))!.sendState).toBe("sent");
    expect((await rowOf(ctx, elsewhere.id))!.sendState).toBe("sending");

    // A restart of a connection running here is not a takeover: its lane may be mid-send.
    await ctx.db.update(messages).set({ sendState: "sending" }).where(eq(messages.id, cutOff.id));
    await ctx.channels.restart(conn.id);
    expect((await rowOf(ctx, cutOff.id))!.sendState).toBe("sending");
    ctx.sandbox.network.cancelAll();
  });
});

describe("rejected and failed sends", () => {
  test("a message the sandbox network rejects shows as failed; retry sends it again under a new id", async () => {
    const { ctx, conn, agent, contact, ticket } = await setup();
    const admin = await loginAs(ctx, { profile: "admin" });
    const sent = (await send(ctx, agent.token, ticket, "Oi")).json.messages[0];
    expect(sent.sendState).toBe("sent");
    expect(
      (await call(ctx.app, "POST", `/api/sandbox/${conn.id}/reject`, { token: admin.token, body: { id: sent.wid } }))
        .status,
    ).toBe(200);
    await ctx.sandbox.network.settle();
    expect(await rowOf(ctx, sent.id)).toMatchObject({
      sendState: "failed",
      sendError: "ERR_WAPP_MSG_REJECTED",
      ack: 0,
    });
    expect(ctx.hub.to(`ticket:${ticket.id}`, "appMessage").at(-1)!.payload).toMatchObject({
      action: "update",
      message: { id: sent.id, sendState: "failed" },
    });
    expect(await ctx.sandbox.network.outbox(conn.id)).toHaveLength(0);

    const retried = await call(ctx.app, "POST", `/api/messages/${sent.id}/retry`, { token: agent.token });
    expect(retried.status).toBe(200);
    expect(retried.json).toMatchObject({ id: sent.id, body: "Oi", sendState: "sent", sendError: null });
    expect(retried.json.wid).not.toBe(sent.wid);
    expect((await ctx.sandbox.network.outbox(conn.id, contact.number!)).map((m) => m.wid)).toEqual([retried.json.wid]);
    await ctx.sandbox.network.settle();
    expect((await rowOf(ctx, sent.id))!.ack).toBe(3);
    expect(
      (await call(ctx.app, "POST", `/api/sandbox/${conn.id}/reject`, { token: admin.token, body: { id: "unknown" } }))
        .status,
    ).toBe(404);
  });

  test("a nack reported through the driver sink fails the message unless the contact already received it", async () => {
    const { ctx, conn, agent, ticket } = await setup();
    const pending = (await send(ctx, agent.token, ticket, "a")).json.messages[0];
    const delivered = (await send(ctx, agent.token, ticket, "b")).json.messages[0];
    await ctx.channels.driverSink.onAck(conn.id, delivered.wid, 3);
    await ctx.channels.driverSink.onSendRejected(conn.id, pending.wid, "463");
    await ctx.channels.driverSink.onSendRejected(conn.id, delivered.wid, "463");
    expect(await rowOf(ctx, pending.id)).toMatchObject({ sendState: "failed", sendError: "ERR_WAPP_MSG_REJECTED" });
    expect(await rowOf(ctx, delivered.id)).toMatchObject({ sendState: "sent", ack: 3 });
  });

  test("a failed media message keeps its file, and a retry sends that file", async () => {
    const { ctx, conn, agent, ticket } = await setup();
    const flaky = spyOn(ctx.sandbox, "sendMedia").mockImplementationOnce(async () => {
      throw new Error("upload refused");
    });
    const failed = (await upload(ctx, agent.token, ticket, "nota.png")).json.messages[0];
    expect(failed).toMatchObject({ sendState: "failed", sendError: "ERR_SENDING_WAPP_MSG" });
    const file = join(ctx.deps.config.mediaDir, (await rowOf(ctx, failed.id))!.mediaUrl!);
    expect(existsSync(file)).toBe(true);
    flaky.mockRestore();
    const retried = await call(ctx.app, "POST", `/api/messages/${failed.id}/retry`, { token: agent.token });
    expect(retried.json.sendState).toBe("sent");
    expect((await ctx.sandbox.network.outbox(conn.id)).map((m) => [m.wid, m.fileName])).toEqual([
      [retried.json.wid, "nota.png"],
    ]);
  });

  test("retry is only for a failed message of our own, on a ticket the caller may send on; odd ids are 4xx", async () => {
    const { ctx, conn, agent, ticket } = await setup();
    const other = await loginAs(ctx);
    const inbound = (
      await storeMessage(ctx.deps, {
        whatsappId: conn.id,
        wid: "IN1",
        ticketId: ticket.id,
        contactId: ticket.contactId,
        body: "oi",
        fromMe: false,
      })
    ).message;
    const sent = (await send(ctx, agent.token, ticket, "ok")).json.messages[0];
    await ctx.channels.driverSink.onSendRejected(conn.id, sent.wid);
    const retry = (id: number | string, token = agent.token) =>
      call(ctx.app, "POST", `/api/messages/${id}/retry`, { token });

    expect(await retry(sent.id, other.token)).toMatchObject({ status: 403, json: { error: "ERR_NO_PERMISSION" } });
    expect(await retry(inbound.id)).toMatchObject({ status: 400, json: { error: "ERR_MESSAGE_NOT_FAILED" } });
    expect(await retry(999_999)).toMatchObject({ status: 404, json: { error: "ERR_NO_MESSAGE_FOUND" } });
    for (const bad of ["abc", "0", "-1"]) expect((await retry(bad)).status).toBe(400);
    await ctx.db.update(tickets).set({ status: "closed" }).where(eq(tickets.id, ticket.id));
    expect(await retry(sent.id)).toMatchObject({ status: 400, json: { error: "ERR_TICKET_NOT_OPEN" } });
    await ctx.db.update(tickets).set({ status: "open" }).where(eq(tickets.id, ticket.id));
    expect((await retry(sent.id)).json.sendState).toBe("sent");
    expect(await retry(sent.id)).toMatchObject({ status: 400, json: { error: "ERR_MESSAGE_NOT_FAILED" } });
  });
});

describe("a connection removed while messages wait on it", () => {
  test("a retry queues its waiting message on the ticket's new connection", async () => {
    const { ctx, conn, agent, contact, ticket } = await setup();
    await ctx.channels.stop(conn.id);
    const waiting = (await send(ctx, agent.token, ticket, "perdida?")).json.messages[0];
    const other = await createSandboxConnection(ctx, { isDefault: true });
    await ctx.db.delete(connections).where(eq(connections.id, conn.id));
    expect(await rowOf(ctx, waiting.id)).toMatchObject({ whatsappId: null, sendState: "queued" });

    const retried = await call(ctx.app, "POST", `/api/messages/${waiting.id}/retry`, { token: agent.token });
    expect(retried.json).toMatchObject({ whatsappId: other.id, sendState: "sent" });
    expect((await ctx.sandbox.network.outbox(other.id, contact.number!)).map((m) => m.wid)).toEqual([retried.json.wid]);
  });
});

describe("cancelling", () => {
  test("deleting a queued message cancels it: removed with its file, the chat told, never sent", async () => {
    const { ctx, conn, agent, ticket } = await setup();
    await ctx.channels.stop(conn.id);
    const queued = (await upload(ctx, agent.token, ticket, "foto.png")).json.messages[0];
    const kept = (await send(ctx, agent.token, ticket, "fica")).json.messages[0];
    const file = join(ctx.deps.config.mediaDir, (await rowOf(ctx, queued.id))!.mediaUrl!);
    expect(existsSync(file)).toBe(true);

    expect((await call(ctx.app, "DELETE", `/api/messages/${queued.id}`, { token: agent.token })).status).toBe(200);
    expect(await rowOf(ctx, queued.id)).toBeUndefined();
    expect(existsSync(file)).toBe(false);
    expect(ctx.hub.to(`ticket:${ticket.id}`, "appMessage").at(-1)!.payload).toEqual({
      action: "delete",
      messageId: queued.id,
      ticketId: ticket.id,
    });

    await ctx.channels.start(conn.id);
    await ctx.deps.outbox.idle(conn.id);
    expect((await ctx.sandbox.network.outbox(conn.id)).map((m) => m.wid)).toEqual([kept.wid]);
  });

  test("deleting a message while it is being handed over waits for that, then deletes it for everyone", async () => {
    const { ctx, agent, ticket } = await setup();
    const driverSend = ctx.sandbox.sendText.bind(ctx.sandbox);
    let entered!: () => void;
    const handingOver = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    spyOn(ctx.sandbox, "sendText").mockImplementation(async (...args) => {
      entered();
      await gate;
      return driverSend(...args);
    });
    const sending = send(ctx, agent.token, ticket, "a caminho");
    await handingOver;
    const row = (await firstRow(ctx.db.select().from(messages).where(eq(messages.ticketId, ticket.id))))!;
    expect(row.sendState).toBe("sending");
    const idle = ctx.deps.outbox.idle.bind(ctx.deps.outbox);
    let waited!: () => void;
    const deleteWaits = new Promise<void>((resolve) => (waited = resolve));
    spyOn(ctx.deps.outbox, "idle").mockImplementation((whatsappId) => {
      waited();
      return idle(whatsappId);
    });
    const deleting = call(ctx.app, "DELETE", `/api/messages/${row.id}`, { token: agent.token });
    await deleteWaits;
    release();
    expect((await deleting).status).toBe(200);
    expect((await sending).json.messages[0].sendState).toBe("sent");
    expect(await rowOf(ctx, row.id)).toMatchObject({ sendState: "sent", isDeleted: true });
    expect((await ctx.sandbox.network.byWid(row.wid))?.mediaType).toBe("revoked");
  });
});

describe("flushes", () => {
  test("a flush for one message sends the queued ones up to it, oldest first; those written after wait for theirs", async () => {
    const { ctx, conn, ticket } = await setup();
    const queue = async (wid: string) =>
      (
        await storeMessage(ctx.deps, {
          ticketId: ticket.id,
          contactId: null,
          whatsappId: conn.id,
          wid,
          body: wid,
          fromMe: true,
          sendState: "queued",
        })
      ).message;
    const [first, second, third] = [await queue("F-1"), await queue("F-2"), await queue("F-3")];
    await ctx.deps.outbox.flush(ctx.deps, conn.id, second.id);
    expect((await ctx.sandbox.network.outbox(conn.id)).map((m) => m.wid)).toEqual(["F-1", "F-2"]);
    expect((await rowOf(ctx, third.id))!.sendState).toBe("queued");
    await ctx.deps.outbox.flush(ctx.deps, conn.id);
    expect((await ctx.sandbox.network.outbox(conn.id)).map((m) => m.wid)).toEqual(["F-1", "F-2", "F-3"]);
    expect((await rowOf(ctx, first.id))!.sendState).toBe("sent");
    ctx.sandbox.network.cancelAll();
  });
});
