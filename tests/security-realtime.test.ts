// @engine once
import { one } from "../src/db/client";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { createApp } from "../src/app";
import { contacts, queues, tickets } from "../src/db/tables";
import { createLogger } from "../src/log";
import { createTokens } from "../src/modules/auth/tokens";
import { BunTopicHub } from "../src/realtime/hub";
import { CLOSE, DROPPED_FRAME_ALLOWANCE, FRAME_BURST, LOG_LINES_BURST } from "../src/realtime/limits";
import { ticketRooms } from "../src/realtime/rooms";
import { call, loginAs, makeTestApp, stubPayload, testConfig, type TestContext } from "./helpers";
import { TestSocket } from "./ws-client";

let ctx: TestContext<BunTopicHub>;
let server: Awaited<ReturnType<typeof createApp>>;
const hub = new BunTopicHub();
const logLines: string[] = [];
let url: string;
let health: string;
let sales: number;
let support: number;
let contactSeq = 0;

beforeAll(async () => {
  ctx = await makeTestApp({}, { hub });
  const log = createLogger("warn", (line) => logLines.push(line));
  server = (await createApp({ ...ctx.deps, hub, log })).listen({ port: 0, hostname: "127.0.0.1" });
  hub.attach(server.server!);
  url = `ws://127.0.0.1:${server.server!.port}/ws`;
  health = `http://127.0.0.1:${server.server!.port}/health`;
  const rows = await ctx.db
    .insert(queues)
    .values([
      { name: "Sales", color: "#f00" },
      { name: "Support", color: "#0f0" },
    ])
    .returning();
  sales = rows[0]!.id;
  support = rows[1]!.id;
});

afterEach(() => {
  ctx.clock.t = Date.now();
});

afterAll(() => server.stop(true));

/** A pending ticket of a new contact in `queueId`. */
async function newTicket(queueId: number | null) {
  const contact = await one(
    ctx.db
      .insert(contacts)
      .values({ name: `Contact ${++contactSeq}`, number: `55119888${String(contactSeq).padStart(5, "0")}` })
      .returning(),
  );
  return await one(ctx.db.insert(tickets).values({ contactId: contact.id, queueId, status: "pending" }).returning());
}

async function openAs(token: string) {
  const socket = await TestSocket.open(`${url}?token=${token}`);
  await socket.next("ready");
  return socket;
}

/** Requests go to the listening app, whose hub reaches the sockets. */
const http = (method: string, path: string, opts: Parameters<typeof call>[3] = {}) => call(server, method, path, opts);

function within<T>(promise: Promise<T>, ms = 15_000): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms)),
  ]);
}

describe("C1: oversized and deeply nested frames", () => {
  test("C1: a 100 KB nested frame closes only its socket; the server and other sockets keep working", async () => {
    const attacker = await openAs((await loginAs(ctx)).token);
    const bystander = await openAs((await loginAs(ctx)).token);
    attacker.ws.send("[".repeat(50_000) + "]".repeat(50_000));
    expect((await within(attacker.closed)).code).toBe(1009);
    expect((await fetch(health)).status).toBe(200);
    await hub.settled();
    await bystander.fence();
    hub.publish("all", "tag", stubPayload({ action: "create" }));
    await hub.settled();
    await bystander.fence();
    expect(bystander.received("tag")).toHaveLength(1);
    bystander.close();
  });

  test("C1: nested frames under the size cap are ignored without a stack overflow or a closed socket", async () => {
    const socket = await openAs((await loginAs(ctx)).token);
    socket.ws.send("[".repeat(2000) + "]".repeat(2000));
    socket.ws.send(`{"type":"ping","x":${"[".repeat(1500)}${"]".repeat(1500)}}`);
    socket.ws.send(`{"type":"joinChatBox","ticketId":{"a":{"b":{"c":1}}}}`);
    await hub.settled();
    await socket.fence();
    expect(socket.received("pong")).toHaveLength(0);
    expect((await fetch(health)).status).toBe(200);
    socket.close();
  });
});

describe("H3: a socket follows its session and its user's access", () => {
  test("H3: logging out closes that device's sockets before any further event; another device's stays open", async () => {
    const { token, user } = await loginAs(ctx, { queueIds: [sales] });
    const otherDevice = await http("POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
      headers: { "x-forwarded-for": "127.9.9.9" },
    });
    const socket = await openAs(token);
    // The user's first socket brings them online, which everyone hears.
    await socket.next("user");
    const otherSocket = await openAs(otherDevice.json.token);
    expect((await http("DELETE", "/api/auth/logout", { token })).status).toBe(200);
    expect((await within(socket.closed)).code).toBe(CLOSE.sessionEnded);
    hub.publish("all", "tag", stubPayload({ action: "create" }));
    expect(socket.received("tag")).toHaveLength(0);
    expect(socket.received("user")).toHaveLength(0);
    await hub.settled();
    await otherSocket.fence();
    expect(otherSocket.received("tag")).toHaveLength(1);
  });

  test("H3: changing one's password closes the sockets of one's other sessions, not this device's", async () => {
    const { token, user } = await loginAs(ctx);
    const other = await call(ctx.app, "POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
    });
    const here = await openAs(token);
    const there = await openAs(other.json.token);
    expect(
      (
        await http("PUT", `/api/users/${user.id}`, {
          token,
          body: { password: "a-new-password", currentPassword: user.password },
        })
      ).status,
    ).toBe(200);
    expect((await within(there.closed)).code).toBe(CLOSE.sessionEnded);
    await here.fence();
  });

  test("H3: deleting a user closes their sockets, and they receive nothing after", async () => {
    const admin = await loginAs(ctx, { profile: "admin" });
    const agent = await loginAs(ctx, { queueIds: [sales] });
    const socket = await openAs(agent.token);
    await socket.next("user");
    socket.send({ type: "joinTickets", status: "pending" });
    socket.send({ type: "joinNotification" });
    await hub.settled();
    await socket.fence();
    expect((await http("DELETE", `/api/users/${agent.user.id}`, { token: admin.token })).status).toBe(200);
    expect((await within(socket.closed)).code).toBe(CLOSE.sessionEnded);
    const ticket = await newTicket(sales);
    hub.publish(ticketRooms(ticket), "ticket", stubPayload({ action: "update", ticket }));
    hub.publish("all", "tag", stubPayload({ action: "create" }));
    expect(socket.received("ticket")).toHaveLength(0);
    expect(socket.received("tag")).toHaveLength(0);
    expect(socket.received("user")).toHaveLength(0);
  });

  test("H3: an agent removed from a queue stops receiving that queue's tickets and chats", async () => {
    const admin = await loginAs(ctx, { profile: "admin" });
    const agent = await loginAs(ctx, { queueIds: [sales, support] });
    const salesTicket = await newTicket(sales);
    const supportTicket = await newTicket(support);
    const socket = await openAs(agent.token);
    socket.send({ type: "joinTickets", status: "pending" });
    socket.send({ type: "joinNotification" });
    socket.send({ type: "joinChatBox", ticketId: supportTicket.id });
    await hub.settled();
    await socket.fence();

    const res = await http("PUT", `/api/users/${agent.user.id}`, { token: admin.token, body: { queueIds: [sales] } });
    expect(res.status).toBe(200);
    hub.publish(
      ticketRooms(supportTicket),
      "ticket",
      stubPayload({ action: "update", ticket: { id: supportTicket.id } }),
    );
    hub.publish(
      `ticket:${supportTicket.id}`,
      "appMessage",
      stubPayload({ action: "create", ticketId: supportTicket.id }),
    );
    hub.publish(ticketRooms(salesTicket), "ticket", stubPayload({ action: "update", ticket: { id: salesTicket.id } }));
    await hub.settled();
    await socket.fence();

    expect(new Set(socket.received("ticket").map((f) => f.payload.ticket.id))).toEqual(new Set([salesTicket.id]));
    expect(socket.received("appMessage")).toHaveLength(0);
    socket.close();
  });

  test("H3: a ticket transferred to a queue the agent cannot see sends that agent no further events about it", async () => {
    const admin = await loginAs(ctx, { profile: "admin" });
    const agent = await loginAs(ctx, { queueIds: [sales] });
    const ticket = await newTicket(sales);
    const socket = await openAs(agent.token);
    socket.send({ type: "joinTickets", status: "pending" });
    socket.send({ type: "joinChatBox", ticketId: ticket.id });
    await hub.settled();
    await socket.fence();

    expect(
      (await http("PUT", `/api/tickets/${ticket.id}`, { token: admin.token, body: { queueId: support } })).status,
    ).toBe(200);
    hub.publish(`ticket:${ticket.id}`, "appMessage", stubPayload({ action: "create", ticketId: ticket.id }));
    await hub.settled();
    await socket.fence();

    // The list hears that the ticket left it, and nothing that shows the ticket in its new queue.
    expect(socket.received("ticket").map((f) => f.payload.action)).toEqual(["delete"]);
    expect(socket.received("appMessage")).toHaveLength(0);
    socket.close();
  });

  test("H3: a socket whose access token expired is closed with 4001 before the next event", async () => {
    const socket = await openAs((await loginAs(ctx)).token);
    ctx.clock.advance((ctx.deps.config.accessTokenTtl + 1) * 1000);
    hub.publish("all", "tag", stubPayload({ action: "create" }));
    expect((await within(socket.closed)).code).toBe(CLOSE.sessionEnded);
    expect(socket.received("tag")).toHaveLength(0);
  });

  test("H3: renewing the access token over the socket keeps it open past the first token's expiry", async () => {
    const { token, user } = await loginAs(ctx);
    const socket = await openAs(token);
    const longer = await createTokens(testConfig({ accessTokenTtl: 3600 })).signAccess(user);
    socket.send({ type: "token", token: longer });
    expect((await socket.next("token")).payload.expiresIn).toBeGreaterThan(3000);
    ctx.clock.advance((ctx.deps.config.accessTokenTtl + 1) * 1000);
    hub.publish("all", "tag", stubPayload({ action: "create" }));
    await hub.settled();
    await socket.fence();
    expect(socket.received("tag")).toHaveLength(1);
    socket.close();
  });

  test("H3: a renewal with an invalid token or another user's token closes the socket", async () => {
    const first = await openAs((await loginAs(ctx)).token);
    first.send({ type: "token", token: "not-a-token" });
    expect((await within(first.closed)).code).toBe(CLOSE.sessionEnded);

    const second = await openAs((await loginAs(ctx)).token);
    second.send({ type: "token", token: (await loginAs(ctx)).token });
    expect((await within(second.closed)).code).toBe(CLOSE.sessionEnded);
  });
});

describe("frame rate and logs", () => {
  test("a socket over the frame rate has the excess dropped, and is closed with 1008 when it keeps on", async () => {
    const socket = await openAs((await loginAs(ctx)).token);
    for (let i = 0; i < FRAME_BURST + DROPPED_FRAME_ALLOWANCE + 20; i++) socket.send({ type: "ping" });
    expect((await within(socket.closed)).code).toBe(CLOSE.policyViolation);
    expect(socket.received("pong")).toHaveLength(FRAME_BURST);
  });

  test("a socket within the frame rate is never cut off", async () => {
    const socket = await openAs((await loginAs(ctx)).token);
    let pongs = 0;
    for (let second = 0; second < 20; second++) {
      for (let i = 0; i < 9; i++) socket.send({ type: "ping" });
      for (let i = 0; i < 9; i++) pongs += (await socket.next("pong")) ? 1 : 0;
      ctx.clock.advance(1000);
    }
    expect(pongs).toBe(20 * 9);
    socket.close();
  });

  test("L5: a socket sending refused and invalid frames for a minute writes only a handful of log lines", async () => {
    const { token } = await loginAs(ctx, { queueIds: [sales] });
    const hidden = await newTicket(support);
    const socket = await openAs(token);
    logLines.length = 0;
    for (let second = 0; second < 60; second++) {
      for (let i = 0; i < 4; i++) socket.send({ type: "joinChatBox", ticketId: hidden.id });
      for (let i = 0; i < 4; i++) socket.ws.send("not json");
      await hub.settled();
      await socket.fence();
      ctx.clock.advance(1000);
    }
    expect(logLines.length).toBeLessThanOrEqual(LOG_LINES_BURST + 1);
    expect(logLines.join("\n").length).toBeLessThan(2000);
    socket.close();
  });

  test("200 sockets sending 100 frames each: /health answers all through the flood, and a quiet socket is still served after it", async () => {
    const { token } = await loginAs(ctx);
    const bystander = await openAs((await loginAs(ctx)).token);
    const sockets = await Promise.all(Array.from({ length: 200 }, () => openAs(token)));
    let frames = 0;
    for (let round = 0; round < 100; round++) {
      // Frames the server must read and act on but not answer.
      for (const socket of sockets)
        socket.ws.send(round % 2 ? '{"type":"joinTickets","status":"open"}' : '{"type":"joinTickets","status":"nope"}');
      frames += sockets.length;
      expect((await fetch(health)).status).toBe(200);
    }
    expect(frames).toBe(20_000);
    hub.publish("all", "tag", stubPayload({ action: "create" }));
    await hub.settled();
    await bystander.fence();
    expect(bystander.received("tag")).toHaveLength(1);
    sockets.forEach((s) => s.close());
    bystander.close();
  });
});

test("uncaught errors and unhandled rejections are logged and the process keeps running", async () => {
  const script = `
    import { keepRunningOnUncaughtErrors } from ${JSON.stringify(`${import.meta.dir}/../src/process-guards.ts`)};
    import { createLogger } from ${JSON.stringify(`${import.meta.dir}/../src/log.ts`)};
    keepRunningOnUncaughtErrors(createLogger("error"));
    setImmediate(() => { throw new Error("boom"); });
    Promise.reject(new Error("nope"));
    setImmediate(() => setImmediate(() => console.log("still running")));
  `;
  const child = Bun.spawn([process.execPath, "--eval", script], { stdout: "pipe", stderr: "pipe" });
  const out = await new Response(child.stdout).text();
  expect(await child.exited).toBe(0);
  expect(out).toContain("ERROR uncaught exception");
  expect(out).toContain("ERROR unhandled promise rejection");
  expect(out).toContain("still running");
});
