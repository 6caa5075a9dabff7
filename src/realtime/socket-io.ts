import { Server as Engine } from "@socket.io/bun-engine";
import { Server as SocketIo, type Socket } from "socket.io";
import { DEFAULT_BODY_LIMIT } from "../http/body-limits";
import { familyMediaType } from "../shared/contracts/messages";
import type { FanOutListener } from "./hub";
import type { AccessChecks, RawSocket, SocketRegistry, SocketSession } from "./registry";

type BunServer = Parameters<Engine["handleRequest"]>[1];

/** The client events of the family's frontends, as the registry's messages (`{type, ...}`). */
function familyMessage(event: string, arg: unknown): Record<string, unknown> {
  switch (event) {
    case "joinChatBox":
    case "leaveChatBox":
      return { type: event, ticketId: Number(arg) };
    case "joinTickets":
    case "leaveTickets":
      return { type: event, status: typeof arg === "string" ? arg : null };
    default:
      return { type: event };
  }
}

/**
 * `/socket.io/` for the whaticket family's clients (Engine.IO 4, websocket and polling): the same rooms, events
 * and access rules as `/ws`, because each Socket.IO socket is one more socket of the same registry. The registry
 * joins it only to rooms its user may see and re-checks them before every event; what reaches a room here is
 * what the hub publishes to that room for `/ws`.
 */
export type SocketIoBridge = ReturnType<typeof socketIoBridge>;

export function socketIoBridge(deps: {
  path: string;
  registry: SocketRegistry;
  checks: AccessChecks;
  /** Origins (besides the app's own) whose pages may open a Socket.IO session. */
  origins: readonly string[];
  /** Where the client reaches this server, from its handshake request: the prefix of its media links. */
  originOf(request: Request, server: BunServer): string;
  onFanOut(listener: FanOutListener): void;
}) {
  const engine = new Engine({
    path: deps.path,
    maxHttpBufferSize: DEFAULT_BODY_LIMIT,
    ...(deps.origins.length > 0 ? { cors: { origin: [...deps.origins], credentials: true } } : {}),
  });
  const io = new SocketIo();
  io.bind(engine);

  // A handshake's origin is read in `handle`, while its peer is still known (an upgraded request forgets it), and
  // handed from the request to the engine's socket it opens.
  const handshakeOrigins = new WeakMap<Request, string>();
  const connectionOrigins = new WeakMap<object, string>();
  engine.on("connection", (conn, request) => {
    const origin = handshakeOrigins.get(request);
    if (origin !== undefined) connectionOrigins.set(conn, origin);
  });

  io.use(async (socket, next) => {
    const { query, auth } = socket.handshake;
    const token = typeof auth?.token === "string" ? auth.token : query.token;
    try {
      socket.data.session = await deps.checks.verifyToken(typeof token === "string" ? token : undefined);
      next();
    } catch {
      next(new Error("ERR_SESSION_EXPIRED"));
    }
  });

  /** How many sockets came through each origin: each origin's sockets get links under it. */
  const origins = new Map<string, number>();

  io.on("connection", (socket: Socket) => {
    const origin = connectionOrigins.get(socket.conn) ?? "";
    socket.join(originRoom(origin));
    origins.set(origin, (origins.get(origin) ?? 0) + 1);
    const raw = asRawSocket(socket);
    deps.registry.add(raw, socket.data.session as SocketSession);
    socket.onAny((event: string, arg: unknown) => deps.registry.receive(raw, familyMessage(event, arg)));
    socket.on("disconnect", () => {
      deps.registry.remove(raw);
      const left = (origins.get(origin) ?? 1) - 1;
      if (left > 0) origins.set(origin, left);
      else origins.delete(origin);
    });
  });

  // Registered after the registry's own check, so rooms are already corrected when the event goes out. The
  // payload is shaped once per origin (usually one), not once per socket.
  deps.onFanOut((rooms, event, payload) => {
    for (const origin of origins.keys()) {
      const others = [...origins.keys()].filter((o) => o !== origin).map(originRoom);
      io.to([...rooms])
        .except(others)
        .emit(event, familyShape(event, payload, origin));
    }
  });

  return {
    /**
     * Handles a request under SOCKET_IO_PATH. A websocket upgrade carries the engine's callbacks in its data,
     * which is how the app server's one websocket handler reaches the right code for each socket.
     */
    handle(request: Request, server: BunServer): Promise<Response> {
      const callbacks = {
        open: (ws: Parameters<Engine["onWebSocketOpen"]>[0]) => engine.onWebSocketOpen(ws),
        message: (ws: Parameters<Engine["onWebSocketMessage"]>[0], data: Parameters<Engine["onWebSocketMessage"]>[1]) =>
          engine.onWebSocketMessage(ws, data),
        close: (ws: Parameters<Engine["onWebSocketClose"]>[0], code: number, reason: string) =>
          engine.onWebSocketClose(ws, code, reason),
      };
      const routed = new Proxy(server, {
        get(target, key) {
          if (key === "upgrade")
            return (req: Request, options: Parameters<BunServer["upgrade"]>[1]) =>
              target.upgrade(req, { ...options, data: Object.assign({}, options?.data, callbacks) });
          const value = Reflect.get(target, key);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      if (!new URL(request.url).searchParams.has("sid")) handshakeOrigins.set(request, deps.originOf(request, server));
      return engine.handleRequest(request, routed);
    },
    close() {
      io.close();
    },
  };
}

/** A Socket.IO socket as the registry drives sockets: its own frames become events of the same name. */
function asRawSocket(socket: Socket): RawSocket {
  return {
    send(data: string) {
      const { event, payload } = JSON.parse(data) as { event: string; payload: unknown };
      socket.emit(event, payload);
    },
    subscribe: (room) => socket.join(room),
    unsubscribe: (room) => socket.leave(room),
    close: () => socket.disconnect(true),
  };
}

const originRoom = (origin: string) => `origin:${origin}`;

interface FamilyMessage {
  mediaUrl?: string | null;
  mediaType?: string;
  quotedMsg?: { mediaType?: string } | null;
}

/**
 * What the family's clients expect of a message event: media links they can open as they are (absolute, under
 * the origin they reached us by; our own pages get them relative) and their media-type names.
 */
function familyShape(event: string, payload: unknown, origin: string): unknown {
  const message = (payload as { message?: FamilyMessage } | null)?.message;
  if (event !== "appMessage" || !message) return payload;
  const name = (type: string | undefined) => (type ? familyMediaType(type) : type);
  return {
    ...(payload as object),
    message: {
      ...message,
      mediaUrl: message.mediaUrl?.startsWith("/") ? origin + message.mediaUrl : message.mediaUrl,
      mediaType: name(message.mediaType),
      quotedMsg: message.quotedMsg ? { ...message.quotedMsg, mediaType: name(message.quotedMsg.mediaType) } : null,
    },
  };
}
