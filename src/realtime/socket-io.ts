import { Server as Engine } from "@socket.io/bun-engine";
import { Server as SocketIo, type Socket } from "socket.io";
import { DEFAULT_BODY_LIMIT } from "../http/body-limits";
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
  onFanOut(listener: FanOutListener): void;
}) {
  const engine = new Engine({
    path: deps.path,
    maxHttpBufferSize: DEFAULT_BODY_LIMIT,
    ...(deps.origins.length > 0 ? { cors: { origin: [...deps.origins], credentials: true } } : {}),
  });
  const io = new SocketIo();
  io.bind(engine);

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

  io.on("connection", (socket: Socket) => {
    const raw = asRawSocket(socket);
    deps.registry.add(raw, socket.data.session as SocketSession);
    socket.onAny((event: string, arg: unknown) => deps.registry.receive(raw, familyMessage(event, arg)));
    socket.on("disconnect", () => deps.registry.remove(raw));
  });

  // Registered after the registry's own check, so rooms are already corrected when the event goes out.
  deps.onFanOut((rooms, event, payload) => io.to([...rooms]).emit(event, payload));

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
