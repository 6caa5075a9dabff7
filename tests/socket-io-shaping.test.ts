import { IpRanges } from "../src/shared/ip-ranges";
import { afterEach, describe, expect, test } from "bun:test";
import { io, type Socket } from "socket.io-client";
import { createLogger } from "../src/log";
import { familyShape, linkOriginOf } from "../src/realtime/family-shape";
import { RecordingHub } from "../src/realtime/hub";
import { type AccessChecks, SocketRegistry } from "../src/realtime/registry";
import { type SocketIoBridge, socketIoBridge } from "../src/realtime/socket-io";
import type { AuthUser } from "../src/shared/auth-user";
import { systemClock } from "../src/shared/clock";
import { stubPayload } from "./helpers";

/**
 * The Socket.IO bridge on its own server, with a shaping function that notes each call: how many payloads one
 * event costs whatever addresses and namespaces the clients claim. No database: every token is one admin's.
 */
const FRONTEND = "http://front.example";
const ADMIN: AuthUser = {
  id: 1,
  name: "Admin",
  email: "admin@example.com",
  profile: "admin",
  tokenVersion: 0,
  whatsappId: null,
  queueIds: [],
};
const checks: AccessChecks = {
  reloadUser: async (user) => user,
  maySeeTicket: async () => true,
  ticketVisibility: async () => () => true,
  async verifyToken(token) {
    if (token !== "admin") throw new Error("not a token");
    return { user: ADMIN, expiresAt: Number.MAX_SAFE_INTEGER };
  },
};
const MEDIA_MESSAGE = {
  action: "create",
  message: { id: 7, body: "", mediaType: "vcard", mediaUrl: "/api/media/7?expires=1&signature=s", quotedMsg: null },
};

type Callbacks = Record<"open" | "message" | "close", (...args: unknown[]) => void>;
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** Serves the bridge alone; `shaped` lists each shaping as "<event> <origin>". */
function serve(config: { corsOrigins: string[]; publicUrl?: string }) {
  const hub = new RecordingHub();
  const registry = new SocketRegistry({ clock: systemClock, log: createLogger("silent"), checks });
  hub.beforeFanOut((rooms, event, payload) => registry.beforeFanOut(rooms, event, payload));
  const shaped: string[] = [];
  let bridge: SocketIoBridge | undefined;
  const server = Bun.serve<Callbacks>({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request, self) => bridge!.handle(request, self as never),
    websocket: {
      open: (ws) => ws.data.open(ws),
      message: (ws, data) => ws.data.message(ws, data),
      close: (ws, code, reason) => ws.data.close(ws, code, reason),
    },
  });
  bridge = socketIoBridge({
    path: "/socket.io/",
    registry,
    checks,
    origins: config.corsOrigins,
    linkOriginOf: linkOriginOf({ ...config, trustProxy: IpRanges.of() }, server.url.origin),
    onFanOut: (listener) => hub.beforeFanOut(listener),
    sessionHorizon: () => Date.now() + 7 * 24 * 3600_000,
    shape(event, payload, origin) {
      shaped.push(`${event} ${origin}`);
      return familyShape(event, payload, origin);
    },
  });
  const sockets: Socket[] = [];
  stops.push(() => {
    for (const socket of sockets) socket.disconnect();
    bridge.close();
    server.stop(true);
  });
  const base = server.url.origin;
  /** A client claiming to have reached us at `host`, in `namespace`, following the notifications. */
  async function follower(host?: string, namespace = "") {
    const socket = io(base + namespace, {
      transports: ["websocket"],
      query: { token: "admin" },
      reconnection: false,
      forceNew: true,
      ...(host ? { extraHeaders: { host } } : {}),
    });
    sockets.push(socket);
    await new Promise((resolve) => socket.once("ready", resolve));
    socket.emit("joinNotification");
    await fence(socket);
    return socket;
  }
  return { hub, shaped, base, follower };
}

/** Round-trips a ping: whatever the server sent the socket before its pong has arrived. */
async function fence(socket: Socket) {
  const pong = new Promise((resolve) => socket.once("pong", resolve));
  socket.emit("ping");
  await pong;
}

/** Every payload of `event` the socket receives from now on. */
function record(socket: Socket, event: string) {
  const seen: { message?: { mediaUrl: string; mediaType: string } }[] = [];
  socket.on(event, (payload) => seen.push(payload));
  return seen;
}

describe("Socket.IO payload shaping", () => {
  test("made-up origins do not multiply payload shaping", async () => {
    const { hub, shaped, base, follower } = serve({ corsOrigins: [FRONTEND] });
    const madeUp = [];
    for (let i = 0; i < 30; i++)
      madeUp.push(await follower(`made-up-${i}.example`, ["", "/api", `/made-up-${i}`][i % 3]));
    const listed = [await follower("front.example"), await follower("front.example", "/api")];
    const plain = await follower();
    const all = [...madeUp, ...listed, plain];
    const heard = all.map((socket) => record(socket, "appMessage"));

    hub.publish(["notification"], "appMessage", stubPayload(MEDIA_MESSAGE));
    hub.publish(["all"], "contact", stubPayload({ action: "update", contact: { id: 1 } }));
    await Promise.all(all.map(fence));

    expect(shaped.sort()).toEqual([
      "appMessage ",
      `appMessage ${base}`,
      `appMessage ${FRONTEND}`,
      expect.stringMatching(/^contact /),
    ]);
    const links = (sockets: Socket[]) => sockets.map((s) => heard[all.indexOf(s)]!.map((p) => p.message?.mediaUrl));
    expect(links(madeUp)).toEqual(madeUp.map(() => [MEDIA_MESSAGE.message.mediaUrl]));
    expect(links(listed)).toEqual(listed.map(() => [FRONTEND + MEDIA_MESSAGE.message.mediaUrl]));
    expect(links([plain])).toEqual([[base + MEDIA_MESSAGE.message.mediaUrl]]);
    expect(heard.flat().every((p) => p.message?.mediaType === "contactMessage")).toBe(true);
  });

  test("with PUBLIC_URL, every Socket.IO client gets links under it, shaped once", async () => {
    const publicUrl = "https://desk.example.com";
    const { hub, shaped, follower } = serve({ corsOrigins: [FRONTEND], publicUrl });
    const all = [await follower("made-up.example", "/api"), await follower("front.example"), await follower()];
    const heard = all.map((socket) => record(socket, "appMessage"));

    hub.publish(["notification"], "appMessage", stubPayload(MEDIA_MESSAGE));
    await Promise.all(all.map(fence));

    expect(shaped).toEqual([`appMessage ${publicUrl}`]);
    expect(heard.map((payloads) => payloads.map((p) => p.message?.mediaUrl))).toEqual(
      all.map(() => [publicUrl + MEDIA_MESSAGE.message.mediaUrl]),
    );
  });
});
