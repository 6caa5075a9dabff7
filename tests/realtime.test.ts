// @engine once
import { one } from "../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { createApp } from "../src/app";
import { contacts, queues, tickets } from "../src/db/tables";
import { BunTopicHub } from "../src/realtime/hub";
import { ticketRooms } from "../src/realtime/rooms";
import { loginAs, makeTestApp, stubPayload, type TestContext } from "./helpers";
import { TestSocket } from "./ws-client";

let ctx: TestContext<BunTopicHub>;
let server: Awaited<ReturnType<typeof createApp>>;
const hub = new BunTopicHub();
let url: string;
let ids: { sales: number; support: number; salesTicket: number; supportTicket: number; noQueueTicket: number };

beforeAll(async () => {
  ctx = await makeTestApp({}, { hub });
  server = ctx.app.listen({ port: 0, hostname: "127.0.0.1" });
  hub.attach(server.server!);
  url = `ws://127.0.0.1:${server.server!.port}/ws`;
  const [sales, support] = await ctx.db
    .insert(queues)
    .values([
      { name: "Sales", color: "#f00" },
      { name: "Support", color: "#0f0" },
    ])
    .returning();
  const contact = await one(ctx.db.insert(contacts).values({ name: "Carla", number: "5511999990000" }).returning());
  const other = await one(ctx.db.insert(contacts).values({ name: "Dan", number: "5511999990001" }).returning());
  const third = await one(ctx.db.insert(contacts).values({ name: "Eve", number: "5511999990002" }).returning());
  const [t1, t2, t3] = await ctx.db
    .insert(tickets)
    .values([
      { contactId: contact.id, queueId: sales!.id, status: "pending" },
      { contactId: other.id, queueId: support!.id, status: "pending" },
      { contactId: third.id, queueId: null, status: "pending" },
    ])
    .returning();
  ids = { sales: sales!.id, support: support!.id, salesTicket: t1!.id, supportTicket: t2!.id, noQueueTicket: t3!.id };
});

afterAll(() => server.stop(true));

const ticketOf = (id: number, queueId: number | null) => ({ id, status: "pending", queueId });

describe("/ws", () => {
  test("refuses the upgrade with 403 for an invalid token and 401 without one", async () => {
    const res = await fetch(`${url.replace("ws:", "http:")}?token=bad`, {
      headers: {
        upgrade: "websocket",
        connection: "Upgrade",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        "sec-websocket-version": "13",
      },
    });
    expect(res.status).toBe(403);
    const none = await fetch(url.replace("ws:", "http:"), {
      headers: {
        upgrade: "websocket",
        connection: "Upgrade",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        "sec-websocket-version": "13",
      },
    });
    expect(none.status).toBe(401);
  });

  test("sends ready, with the seconds left on its token, on open and answers ping", async () => {
    const { token, user } = await loginAs(ctx);
    const socket = await TestSocket.open(`${url}?token=${token}`);
    const ready = (await socket.next("ready")).payload;
    expect(ready.userId).toBe(user.id);
    expect(ready.expiresIn).toBeGreaterThan(ctx.deps.config.accessTokenTtl - 5);
    expect(ready.expiresIn).toBeLessThanOrEqual(ctx.deps.config.accessTokenTtl);
    await hub.settled();
    await socket.fence();
    socket.close();
  });

  test("an agent receives ticket events of their queue and of queue-less tickets, never of another queue", async () => {
    const { token } = await loginAs(ctx, { queueIds: [ids.sales] });
    const socket = await TestSocket.open(`${url}?token=${token}`);
    await socket.next("ready");
    socket.send({ type: "joinTickets", status: "pending" });
    socket.send({ type: "joinNotification" });
    await hub.settled();
    await socket.fence();
    hub.publish(
      ticketRooms(ticketOf(ids.supportTicket, ids.support)),
      "ticket",
      stubPayload({ action: "update", ticket: { id: ids.supportTicket } }),
    );
    hub.publish(
      ticketRooms(ticketOf(ids.salesTicket, ids.sales)),
      "ticket",
      stubPayload({ action: "update", ticket: { id: ids.salesTicket } }),
    );
    hub.publish(
      ticketRooms(ticketOf(ids.noQueueTicket, null)),
      "ticket",
      stubPayload({ action: "update", ticket: { id: ids.noQueueTicket } }),
    );
    await hub.settled();
    await socket.fence();
    const seen = socket.received("ticket").map((f) => f.payload.ticket.id);
    expect(new Set(seen)).toEqual(new Set([ids.salesTicket, ids.noQueueTicket]));
    socket.close();
  });

  test("an agent hears about a ticket assigned to them in a queue they are not in", async () => {
    const { token, user } = await loginAs(ctx, { queueIds: [ids.sales] });
    const socket = await TestSocket.open(`${url}?token=${token}`);
    await socket.next("ready");
    socket.send({ type: "joinTickets", status: "open" });
    await hub.settled();
    await socket.fence();
    hub.publish(
      ticketRooms({ id: ids.supportTicket, status: "open", queueId: ids.support, userId: user.id }),
      "ticket",
      stubPayload({ action: "update", n: 1 }),
    );
    hub.publish(
      ticketRooms({ id: ids.supportTicket, status: "open", queueId: ids.support, userId: null }),
      "ticket",
      stubPayload({ action: "update", n: 2 }),
    );
    await hub.settled();
    await socket.fence();
    expect(socket.received("ticket").map((f) => f.payload.n)).toEqual([1]);
    socket.close();
  });

  test("an event sent to several rooms reaches each socket in any of them in one frame, in order, and no other socket", async () => {
    const admin = await loginAs(ctx, { profile: "admin" });
    const seller = await loginAs(ctx, { queueIds: [ids.sales] });
    const assignee = await loginAs(ctx, { queueIds: [ids.support] });
    const outsider = await loginAs(ctx, { queueIds: [ids.support] });
    const open = async (token: string, ...follow: object[]) => {
      const socket = await TestSocket.open(`${url}?token=${token}`);
      await socket.next("ready");
      for (const message of follow) socket.send(message);
      return socket;
    };
    const lists = [{ type: "joinTickets", status: "pending" }, { type: "joinNotification" }];
    const sockets = {
      admin: await open(admin.token, ...lists),
      seller: await open(seller.token, ...lists, { type: "joinChatBox", ticketId: ids.salesTicket }),
      assignee: await open(assignee.token, ...lists),
      outsider: await open(outsider.token, ...lists),
    };
    for (const socket of Object.values(sockets)) await socket.fence();
    await hub.settled();

    const rooms = ticketRooms({ id: ids.salesTicket, status: "pending", queueId: ids.sales, userId: assignee.user.id });
    for (const n of [1, 2]) hub.publish(rooms, "ticket", stubPayload({ action: "update", n }));
    await hub.settled();
    for (const socket of Object.values(sockets)) await socket.fence();

    const heard = (socket: TestSocket) => socket.received("ticket").map((f) => f.payload.n);
    expect(heard(sockets.admin)).toEqual([1, 2]);
    expect(heard(sockets.seller)).toEqual([1, 2]);
    expect(heard(sockets.assignee)).toEqual([1, 2]);
    expect(heard(sockets.outsider)).toEqual([]);
    for (const socket of Object.values(sockets)) socket.close();
  });

  test("joinChatBox subscribes only to tickets the user may see", async () => {
    const { token } = await loginAs(ctx, { queueIds: [ids.sales] });
    const socket = await TestSocket.open(`${url}?token=${token}`);
    await socket.next("ready");
    socket.send({ type: "joinChatBox", ticketId: ids.supportTicket });
    socket.send({ type: "joinChatBox", ticketId: ids.salesTicket });
    socket.send({ type: "joinChatBox", ticketId: 999999 });
    await hub.settled();
    await socket.fence();
    hub.publish(`ticket:${ids.supportTicket}`, "appMessage", stubPayload({ action: "create", n: 1 }));
    hub.publish(`ticket:${ids.salesTicket}`, "appMessage", stubPayload({ action: "create", n: 2 }));
    await hub.settled();
    await socket.fence();
    expect(socket.received("appMessage").map((f) => f.payload.n)).toEqual([2]);
    socket.close();
  });

  test("entity events reach everyone and admin-only events only admins", async () => {
    const agent = await TestSocket.open(`${url}?token=${(await loginAs(ctx)).token}`);
    const admin = await TestSocket.open(`${url}?token=${(await loginAs(ctx, { profile: "admin" })).token}`);
    await agent.next("ready");
    await admin.next("ready");
    hub.publish("all", "tag", stubPayload({ action: "create" }));
    hub.publish("admins", "settings", stubPayload({ action: "update" }));
    await hub.settled();
    await agent.fence();
    await hub.settled();
    await admin.fence();
    expect(agent.received("tag")).toHaveLength(1);
    expect(agent.received("settings")).toHaveLength(0);
    expect(admin.received("settings")).toHaveLength(1);
    agent.close();
    admin.close();
  });

  test("malformed client messages are ignored without closing the socket", async () => {
    const socket = await TestSocket.open(`${url}?token=${(await loginAs(ctx)).token}`);
    await socket.next("ready");
    socket.ws.send("not json");
    socket.send({ type: "joinChatBox", ticketId: "x" });
    socket.send({ type: "unknown" });
    await hub.settled();
    await socket.fence();
    expect(socket.ws.readyState).toBe(WebSocket.OPEN);
    expect(socket.received("error" as never)).toEqual([]);
    socket.close();
  });
});
