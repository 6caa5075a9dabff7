import { one } from "../src/db/client";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { io, type Socket } from "socket.io-client";
import { contacts, queues, tickets } from "../src/db/tables";
import { BunTopicHub } from "../src/realtime/hub";
import { createSandboxConnection, loginAs, makeTestApp, type TestContext } from "./helpers";

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

/** A Socket.IO client as the family's frontends open it: the access token in the query. */
function connect(
  token: string | undefined,
  transports: ("websocket" | "polling")[] = ["websocket"],
  extraHeaders: Record<string, string> = {},
) {
  const socket = io(base, {
    transports,
    query: token ? { token } : {},
    reconnection: false,
    forceNew: true,
    extraHeaders,
  });
  opened.push(socket);
  return socket;
}

/** The next `event` the socket receives whose payload passes `match`. */
/** What the tests read of an event's payload. */
interface Payload {
  action?: string;
  message?: { body: string; ticketId: number; mediaType: string; mediaUrl: string | null };
  ticket?: { id: number };
}

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

let contactSeq = 0;
async function ticketIn(queueId: number) {
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
      .values({ contactId: contact.id, queueId, status: "pending", whatsappId: connectionId })
      .returning(),
  );
  return { ticket, number };
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
    const socket = await ready(connect(token, ["polling"]));
    expect(socket.io.engine.transport.name).toBe("polling");
    const { ticket, number } = await ticketIn(support);
    socket.emit("joinChatBox", String(ticket.id));
    await settle(socket);
    const heard = next(socket, "appMessage", (p) => p.action === "create");
    await ctx.sandbox.inbound(connectionId, { from: number, body: "por polling" });
    expect((await heard).message?.body).toBe("por polling");
  });

  test("a client without a token, or with a forged one, is refused before it connects", async () => {
    for (const token of [undefined, "not-a-jwt", `${(await loginAs(ctx)).token}x`]) {
      const socket = connect(token);
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
    const adminHeard = next(admin, "appMessage", (p) => p.action === "create");
    await ctx.sandbox.inbound(connectionId, { from: number, body: "só para o suporte" });
    await adminHeard;
    await settle(agent);
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

  test("behind the trusted proxy, a socket's media links are under the scheme and host the proxy forwarded", async () => {
    const { token } = await loginAs(ctx, { profile: "admin" });
    const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "inbox.example.com" };
    const socket = await ready(connect(token, ["polling"], forwarded));
    const { ticket, number } = await ticketIn(sales);
    socket.emit("joinChatBox", String(ticket.id));
    await settle(socket);
    const image = next(socket, "appMessage", (p) => p.action === "create" && p.message?.mediaType === "image");
    await ctx.sandbox.inbound(connectionId, { from: number, mediaType: "image", mediaBase64: PNG_BASE64 });
    expect((await image).message!.mediaUrl).toStartWith("https://inbox.example.com/api/media/");
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
