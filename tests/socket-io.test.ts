// @engine once
import { one } from "../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { io, type Socket } from "socket.io-client";
import { contacts, queues, tickets } from "../src/db/tables";
import { BunTopicHub } from "../src/realtime/hub";
import { call, createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";
import { TestSocket } from "./ws-client";

let ctx: TestContext<BunTopicHub>;
let server: TestContext<BunTopicHub>["app"];
const hub = new BunTopicHub();
let base: string;
let sales: number;
let support: number;
let connectionId: number;
const opened: Socket[] = [];
/** A whaticket frontend served from its own origin, listed in CORS_ORIGINS. */
const FRONTEND = "http://front.example";
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

beforeAll(async () => {
  ctx = await makeTestApp({ corsOrigins: [FRONTEND] }, { hub });
  server = ctx.app.listen({ port: 0, hostname: "127.0.0.1" });
  hub.attach(server.server!);
  base = `http://127.0.0.1:${server.server!.port}`;
  const rows = await ctx.db
    .insert(queues)
    .values([
      { name: "Sales", color: "#f00" },
      { name: "Support", color: "#0f0" },
    ])
    .returning();
  sales = rows[0]!.id;
  support = rows[1]!.id;
  connectionId = (await createSandboxConnection(ctx)).id;
});

afterAll(async () => {
  for (const socket of opened) socket.disconnect();
  await server.stop(true);
});

/**
 * A Socket.IO client as the family's frontends open it: the access token in the query, and the path of their
 * backend URL (`/api`) as the namespace. `host` is the address the client claims to have reached us at.
 */
function connect(
  token: string | undefined,
  opts: {
    transports?: ("websocket" | "polling")[];
    namespace?: string;
    host?: string;
    headers?: Record<string, string>;
  } = {},
) {
  const { transports = ["websocket"], namespace = "", host, headers = {} } = opts;
  const socket = io(base + namespace, {
    transports,
    query: token ? { token } : {},
    reconnection: false,
    forceNew: true,
    extraHeaders: { ...headers, ...(host ? { host } : {}) },
  });
  opened.push(socket);
  return socket;
}

/** What the tests read of an event's payload. */
interface Payload {
  action?: string;
  message?: { body: string; ticketId: number; mediaType: string; mediaUrl: string | null };
  ticket?: { id: number; status?: string };
  ticketId?: number;
  contact?: { id: number; name: string };
  session?: { id: number; status: string };
}

/** The next `event` the socket receives whose payload passes `match`. */
function next(socket: Socket, event: string, match: (payload: Payload) => boolean = () => true): Promise<Payload> {
  return new Promise((resolve) => {
    const listener = (payload: Payload) => {
      if (!match(payload)) return;
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}

async function ready(socket: Socket) {
  await next(socket, "ready");
  return socket;
}

/** Sends events, then waits for a pong, so the server has handled them all (frames are handled in order). */
async function settle(socket: Socket) {
  const pong = next(socket, "pong");
  socket.emit("ping");
  await pong;
}

/**
 * A customer writes; once `heardBy` got the message, `thenSettle` has handled everything sent to it before, so
 * what it recorded is all it will ever hear of the message.
 */
async function customerWrites(from: string, body: string, sockets: { heardBy: Socket; thenSettle: Socket }) {
  const heard = next(sockets.heardBy, "appMessage", (p) => p.action === "create");
  await ctx.sandbox.inbound(connectionId, { from, body });
  await heard;
  await settle(sockets.thenSettle);
}

/** Every `event` the socket receives from now on. */
function record(socket: Socket, event: string): Payload[] {
  const seen: Payload[] = [];
  socket.on(event, (payload: Payload) => seen.push(payload));
  return seen;
}

let contactSeq = 0;
async function ticketIn(queueId: number, fields: { status?: "pending" | "open"; userId?: number } = {}) {
  const number = `55219777${String(++contactSeq).padStart(5, "0")}`;
  const contact = await one(
    ctx.db
      .insert(contacts)
      .values({ name: `Cliente ${contactSeq}`, number })
      .returning(),
  );
  const ticket = await one(
    ctx.db
      .insert(tickets)
      .values({ contactId: contact.id, queueId, status: "pending", whatsappId: connectionId, ...fields })
      .returning(),
  );
  return { ticket, contact, number };
}

describe("Socket.IO for the whaticket family's clients", () => {
  test("over websocket, a client with a token joins its tickets and hears a sandbox customer's message live", async () => {
    const { token } = await loginAs(ctx, { queueIds: [sales] });
    const socket = await ready(connect(token));
    socket.emit("joinNotification");
    socket.emit("joinTickets", "pending");
    await settle(socket);
    const { ticket, number } = await ticketIn(sales);
    const heard = next(socket, "appMessage", (p) => p.action === "create");
    await ctx.sandbox.inbound(connectionId, { from: number, body: "Olá, preciso de ajuda" });
    const payload = await heard;
    expect(payload.message).toMatchObject({ body: "Olá, preciso de ajuda", ticketId: ticket.id });
    expect(payload.ticket?.id).toBe(ticket.id);
  });

  test("over long-polling only, the same client still receives the ticket's events", async () => {
    const { token } = await loginAs(ctx, { profile: "admin" });
    const socket = await ready(connect(token, { transports: ["polling"] }));
    expect(socket.io.engine.transport.name).toBe("polling");
    const { ticket, number } = await ticketIn(support);
    socket.emit("joinChatBox", String(ticket.id));
    await settle(socket);
    const heard = next(socket, "appMessage", (p) => p.action === "create");
    await ctx.sandbox.inbound(connectionId, { from: number, body: "por polling" });
    expect((await heard).message?.body).toBe("por polling");
  });

  test("a client without a token, or with a forged one, is refused before it connects, in every namespace", async () => {
    for (const namespace of ["", "/api", "/whaticket/api/"])
      for (const token of [undefined, "not-a-jwt", `${(await loginAs(ctx)).token}x`]) {
        const socket = connect(token, { namespace });
        const error = await new Promise<Error>((resolve) => socket.on("connect_error", resolve));
        expect(error.message).toBe("ERR_SESSION_EXPIRED");
        expect(socket.connected).toBe(false);
      }
  });

  test("an agent is refused the chat of a ticket in another queue and hears nothing of it; an admin hears it", async () => {
    const agent = await ready(connect((await loginAs(ctx, { queueIds: [sales] })).token));
    const admin = await ready(connect((await loginAs(ctx, { profile: "admin" })).token));
    const { ticket, number } = await ticketIn(support);
    const received: unknown[] = [];
    agent.on("appMessage", (p) => received.push(p));
    agent.emit("joinChatBox", String(ticket.id));
    agent.emit("joinTickets", "pending");
    admin.emit("joinChatBox", String(ticket.id));
    await Promise.all([settle(agent), settle(admin)]);
    await customerWrites(number, "só para o suporte", { heardBy: admin, thenSettle: agent });
    expect(received).toEqual([]);
  });

  test("message events carry the family's media-type names and absolute media links that open without a token", async () => {
    const { token } = await loginAs(ctx, { profile: "admin" });
    const socket = await ready(connect(token));
    const { ticket, number } = await ticketIn(sales);
    socket.emit("joinChatBox", String(ticket.id));
    await settle(socket);
    const image = next(socket, "appMessage", (p) => p.action === "create" && p.message?.mediaType === "image");
    await ctx.sandbox.inbound(connectionId, {
      from: number,
      mediaType: "image",
      mediaBase64: PNG_BASE64,
      fileName: "a.png",
    });
    const card = next(socket, "appMessage", (p) => p.action === "create" && p.message?.mediaType !== "image");
    await ctx.sandbox.inbound(connectionId, {
      from: number,
      mediaType: "vcard",
      body: "BEGIN:VCARD\nVERSION:3.0\nFN:Carla\nTEL;type=CELL;waid=5511966665555:+55 11 96666-5555\nEND:VCARD",
    });
    expect((await card).message?.mediaType).toBe("contactMessage");
    const { mediaUrl } = (await image).message!;
    expect(mediaUrl).toStartWith(`${base}/api/media/`);
    expect(mediaUrl).not.toContain("token=");
    const file = await fetch(mediaUrl!);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("image/png");
  });

  test("behind the trusted proxy, a socket's media links follow the forwarded host when it is a configured origin, else stay relative", async () => {
    const { token } = await loginAs(ctx, { profile: "admin" });
    const forwardedTo = (host: string) => ({ "x-forwarded-proto": "http", "x-forwarded-host": host });
    const listed = await ready(
      connect(token, { transports: ["polling"], headers: forwardedTo(new URL(FRONTEND).host) }),
    );
    const other = await ready(connect(token, { transports: ["polling"], headers: forwardedTo("inbox.example.com") }));
    const { ticket, number } = await ticketIn(sales);
    for (const socket of [listed, other]) socket.emit("joinChatBox", String(ticket.id));
    await Promise.all([settle(listed), settle(other)]);
    const isImage = (p: { action?: string; message?: { mediaType?: string } }) =>
      p.action === "create" && p.message?.mediaType === "image";
    const images = [next(listed, "appMessage", isImage), next(other, "appMessage", isImage)];
    await ctx.sandbox.inbound(connectionId, { from: number, mediaType: "image", mediaBase64: PNG_BASE64 });
    const [toListed, toOther] = await Promise.all(images);
    expect(toListed!.message!.mediaUrl).toStartWith(`${FRONTEND}/api/media/`);
    expect(toOther!.message!.mediaUrl).toStartWith("/api/media/");
  });

  test("long-polling from a frontend in CORS_ORIGINS is allowed with credentials; another origin is not", async () => {
    const handshake = (origin: string) => fetch(`${base}/socket.io/?EIO=4&transport=polling`, { headers: { origin } });
    const allowed = await handshake(FRONTEND);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(FRONTEND);
    expect(allowed.headers.get("access-control-allow-credentials")).toBe("true");
    const other = await handshake("http://evil.example");
    // The engine answers "false": no browser lets that page read the answer.
    expect(["false", null]).toContain(other.headers.get("access-control-allow-origin"));
  });
});

describe("the family's namespaces and rooms", () => {
  test("a Socket.IO client whose backend URL ends in /api connects to the /api namespace and gets live updates", async () => {
    const { token } = await loginAs(ctx, { queueIds: [sales] });
    for (const [namespace, transports] of [
      ["/api", ["websocket"]],
      ["/whaticket/api/", ["polling"]],
    ] as const) {
      const socket = await ready(connect(token, { namespace, transports: [...transports] }));
      socket.emit("joinTickets", "pending");
      await settle(socket);
      const { ticket, number } = await ticketIn(sales);
      const heard = next(socket, "appMessage", (p) => p.action === "create");
      await ctx.sandbox.inbound(connectionId, { from: number, body: `pelo namespace ${namespace}` });
      const payload = await heard;
      expect(payload.message).toMatchObject({ body: `pelo namespace ${namespace}`, ticketId: ticket.id });
      socket.disconnect();
    }
  });

  test("a Socket.IO socket outlives its 15-minute access token, which the family's clients never renew, and closes when its session ends", async () => {
    const { token } = await loginAs(ctx, { queueIds: [sales] });
    const socket = await ready(connect(token, { namespace: "/api" }));
    ctx.clock.advance(16 * 60_000);
    try {
      socket.emit("joinTickets", "pending");
      await settle(socket);
      const { number } = await ticketIn(sales);
      const heard = next(socket, "appMessage", (p) => p.action === "create");
      await ctx.sandbox.inbound(connectionId, { from: number, body: "ainda ouvindo" });
      expect((await heard).message?.body).toBe("ainda ouvindo");

      const closed = new Promise((resolve) => socket.once("disconnect", resolve));
      expect((await call(ctx.app, "DELETE", "/api/auth/logout", { token })).status).toBe(200);
      await closed;
      expect(socket.connected).toBe(false);
    } finally {
      ctx.clock.advance(-16 * 60_000);
    }
  });

  test("a Socket.IO socket receives appMessage only for the chat it joined", async () => {
    const { token, user } = await loginAs(ctx, { queueIds: [sales] });
    const chat = await ready(connect(token, { namespace: "/api" }));
    const opened = await ticketIn(sales);
    // Assigned to the same agent: Zapdesk's own pages hear it through the agent's room, the family's chat must not.
    const assigned = await ticketIn(sales, { status: "open", userId: user.id });
    chat.emit("joinChatBox", String(opened.ticket.id));
    await settle(chat);
    const own = await TestSocket.open(`${base.replace("http", "ws")}/ws?token=${token}`);
    await own.next("ready");
    const messages = record(chat, "appMessage");
    const tickets = record(chat, "ticket");

    await ctx.sandbox.inbound(connectionId, { from: assigned.number, body: "de outro chat" });
    await own.next("appMessage");
    const heard = next(chat, "appMessage");
    await ctx.sandbox.inbound(connectionId, { from: opened.number, body: "deste chat" });
    await heard;
    await settle(chat);
    expect(messages.map((p) => p.message?.body)).toEqual(["deste chat"]);
    expect(tickets.every((p) => (p.ticket?.id ?? p.ticketId) === opened.ticket.id)).toBe(true);
    own.close();
  });

  test("accepting a pending ticket removes it from the pending list and adds it to the open one", async () => {
    const { token, user } = await loginAs(ctx, { queueIds: [sales] });
    const pending = await ready(connect(token, { namespace: "/api" }));
    const open = await ready(connect(token, { namespace: "/api" }));
    pending.emit("joinTickets", "pending");
    open.emit("joinTickets", "open");
    await Promise.all([settle(pending), settle(open)]);
    const { ticket } = await ticketIn(sales);
    const inPending = record(pending, "ticket");
    const added = next(open, "ticket", (p) => p.action === "update" && p.ticket?.id === ticket.id);

    const res = await call(ctx.app, "PUT", `/api/tickets/${ticket.id}`, {
      token,
      body: { status: "open", userId: user.id },
    });
    expect(res.status).toBe(200);
    expect((await added).ticket?.status).toBe("open");
    await settle(pending);
    expect(inPending).toEqual([{ action: "delete", ticketId: ticket.id }]);
  });

  test("entity events reach Socket.IO sockets that joined nothing, and admin-only ones only admins", async () => {
    const agentLogin = await loginAs(ctx, { queueIds: [sales] });
    const adminLogin = await loginAs(ctx, { profile: "admin" });
    const agent = await ready(connect(agentLogin.token, { namespace: "/api" }));
    const admin = await ready(connect(adminLogin.token, { namespace: "/api" }));
    const { contact } = await ticketIn(sales);
    const agentSessions = record(agent, "whatsappSession");
    const heardByAgent = next(agent, "contact", (p) => p.action === "update");
    const heardByAdmin = next(admin, "contact", (p) => p.action === "update");

    const res = await call(ctx.app, "PUT", `/api/contacts/${contact.id}`, {
      token: adminLogin.token,
      body: { name: "Cliente renomeado" },
    });
    expect(res.status).toBe(200);
    expect((await heardByAgent).contact?.name).toBe("Cliente renomeado");
    expect((await heardByAdmin).contact?.name).toBe("Cliente renomeado");

    const session = next(admin, "whatsappSession", (p) => p.session?.status === "CONNECTED");
    const added = await createSandboxConnection(ctx);
    expect((await session).session?.id).toBe(added.id);
    await settle(agent);
    expect(agentSessions).toEqual([]);
  });

  test("leaveChatBox, leaveTickets and leaveNotification stop a Socket.IO socket's ticket events", async () => {
    const { token } = await loginAs(ctx, { queueIds: [sales] });
    const leaving = await ready(connect(token, { namespace: "/api" }));
    const staying = await ready(connect(token, { namespace: "/api" }));
    const { ticket, number } = await ticketIn(sales);
    for (const socket of [leaving, staying]) {
      socket.emit("joinChatBox", String(ticket.id));
      socket.emit("joinTickets", "pending");
      socket.emit("joinNotification");
    }
    leaving.emit("leaveChatBox", String(ticket.id));
    leaving.emit("leaveTickets", "pending");
    leaving.emit("leaveNotification");
    await Promise.all([settle(leaving), settle(staying)]);
    const received = [...record(leaving, "appMessage"), ...record(leaving, "ticket")];

    await customerWrites(number, "só para quem ficou", { heardBy: staying, thenSettle: leaving });
    expect(received).toEqual([]);
  });

  test("a listed CORS origin gets absolute media links, an unlisted one the default", async () => {
    const { token } = await loginAs(ctx, { profile: "admin" });
    const { ticket, number } = await ticketIn(sales);
    const clients = {
      listed: await ready(connect(token, { host: new URL(FRONTEND).host })),
      madeUp: await ready(connect(token, { host: "made-up.example" })),
      listening: await ready(connect(token)),
    };
    for (const socket of Object.values(clients)) socket.emit("joinChatBox", String(ticket.id));
    await Promise.all(Object.values(clients).map(settle));
    const links = Object.entries(clients).map(async ([name, socket]) => {
      const heard = await next(socket, "appMessage", (p) => p.action === "create" && p.message?.mediaType === "image");
      return [name, heard.message?.mediaUrl] as const;
    });
    await ctx.sandbox.inbound(connectionId, { from: number, mediaType: "image", mediaBase64: PNG_BASE64 });
    const byClient = Object.fromEntries(await Promise.all(links));
    expect(byClient.listed).toStartWith(`${FRONTEND}/api/media/`);
    expect(byClient.listening).toStartWith(`${base}/api/media/`);
    // No PUBLIC_URL here: a made-up address gets links relative to the server, as Zapdesk's own pages do.
    expect(byClient.madeUp).toStartWith("/api/media/");
  });
});
