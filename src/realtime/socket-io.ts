import { Server as Engine } from "@socket.io/bun-engine";
import { type Namespace, Server as SocketIo, type Socket } from "socket.io";
import { DEFAULT_BODY_LIMIT } from "../http/body-limits";
import { familyShape, hasRelativeLink } from "./family-shape";
import type { FanOutListener } from "./hub";
import type { ClientMessage, ServerEvent } from "./events";
import type { AccessChecks, RawSocket, SocketRegistry, SocketSession } from "./registry";

type BunServer = Parameters<Engine["handleRequest"]>[1];

type FieldOf<M> = M extends unknown ? keyof M : never;
/** A client message by the protocol's field names, its values not checked yet (the registry's parser does). */
type UncheckedMessage = { [K in FieldOf<ClientMessage>]?: unknown };

/** The client events of the family's frontends, as the registry's messages (`{type, ...}`). */
function familyMessage(event: string, arg: unknown): UncheckedMessage {
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
 * The namespaces the family's clients connect to: socket.io-client reads the path of the backend URL as the
 * namespace, and theirs ends in `/api` (whaticket-free's `useSocket` even appends "1"). Every path-like name is
 * served as the default namespace is.
 */
const FAMILY_NAMESPACES = /^\/[\w\-/]{0,100}$/;

/**
 * `/socket.io/` for the whaticket family's clients (Engine.IO 4, websocket and polling): the same events and
 * access rules as `/ws`, because each Socket.IO socket is one more socket of the same registry. The registry
 * joins it only to rooms its user may see and re-checks them before every event; what reaches a room here is
 * what the hub publishes to that room for `/ws`. Unlike `/ws`, a socket hears tickets and messages only through
 * the rooms it joined (see `RoomModel`).
 */
export type SocketIoBridge = ReturnType<typeof socketIoBridge>;

export function socketIoBridge(deps: {
  path: string;
  registry: SocketRegistry;
  checks: AccessChecks;
  /** Origins (besides the app's own) whose pages may open a Socket.IO session. */
  origins: readonly string[];
  /** The origin of a client's media links, from its handshake: one of a few configured ones (see family-shape.ts). */
  linkOriginOf(request: Request, server: BunServer | undefined): string;
  onFanOut(listener: FanOutListener): void;
  /** When a session opened now ends at the latest (epoch ms): the refresh token's lifetime from now. */
  sessionHorizon(): number;
  /** Shapes an event for the sockets of one link origin (tests count its calls). */
  shape?: typeof familyShape;
}) {
  const shape = deps.shape ?? familyShape;
  const engine = new Engine({
    path: deps.path,
    maxHttpBufferSize: DEFAULT_BODY_LIMIT,
    ...(deps.origins.length > 0 ? { cors: { origin: [...deps.origins], credentials: true } } : {}),
  });
  // A child namespace goes away with its last socket: there are never more of them than sockets.
  const io = new SocketIo({ cleanupEmptyChildNamespaces: true });
  io.bind(engine);
  /** The link origins in use: a few at most (see `linkOriginOf`). */
  const linkOrigins = new Tally<string>();
  const rooms = new RoomNamespaces();

  // A handshake's link origin is read in `handle`, while its peer is still known (an upgraded request forgets it),
  // and handed from the request to the engine's socket it opens.
  const handshakeOrigins = new WeakMap<Request, string>();
  const connectionOrigins = new WeakMap<object, string>();
  engine.on("connection", (conn, request) => {
    const origin = handshakeOrigins.get(request);
    if (origin !== undefined) connectionOrigins.set(conn, origin);
  });

  // A child namespace takes the middleware and listeners its parent has when it is created: all set here.
  for (const nsp of [io.of("/"), io.of(FAMILY_NAMESPACES)]) {
    nsp.use(authenticate);
    nsp.on("connection", connected);
  }

  async function authenticate(socket: Socket, next: (error?: Error) => void) {
    const { query, auth } = socket.handshake;
    const token = typeof auth?.token === "string" ? auth.token : query.token;
    try {
      socket.data.session = await deps.checks.verifyToken(typeof token === "string" ? token : undefined);
      next();
    } catch {
      next(new Error("ERR_SESSION_EXPIRED"));
    }
  }

  function connected(socket: Socket) {
    // Every handshake passes through `handle`; an origin it did not note gets the default, as any unlisted one.
    const origin = connectionOrigins.get(socket.conn) ?? deps.linkOriginOf(NO_ORIGIN, undefined);
    socket.join(originRoom(origin));
    linkOrigins.add(origin);
    const raw = asRawSocket(socket, rooms);
    // The family's clients never renew a socket's token (their servers check it only when the socket opens), so
    // a socket of a device session lives as long as that session could: it is still closed the moment the
    // session ends (logout, revocation, a replayed refresh token, the user deleted).
    const session = socket.data.session as SocketSession;
    const lifetime =
      session.user.familyId === undefined
        ? session
        : { ...session, expiresAt: Math.max(session.expiresAt, deps.sessionHorizon()) };
    deps.registry.add(raw, lifetime, "family");
    socket.onAny((event: string, arg: unknown) => deps.registry.receive(raw, familyMessage(event, arg)));
    socket.on("disconnecting", () => {
      for (const room of socket.rooms) rooms.leave(room, socket.nsp);
    });
    socket.on("disconnect", () => {
      deps.registry.remove(raw);
      linkOrigins.remove(origin);
    });
  }

  // Registered after the registry's own check, so rooms are already corrected when the event goes out. An event
  // is shaped once for each link origin in use when it carries a link, else once for all.
  deps.onFanOut((targets, event, payload) => {
    const namespaces = rooms.namespacesOf(targets);
    if (namespaces.size === 0) return;
    const send = (shaped: unknown, except: string[]) => {
      for (const nsp of namespaces)
        nsp
          .to([...targets])
          .except(except)
          .emit(event, shaped);
    };
    const origins = linkOrigins.keys();
    if (origins.length === 1 || !hasRelativeLink(event, payload)) return send(shape(event, payload, origins[0]!), []);
    for (const origin of origins)
      send(shape(event, payload, origin), origins.filter((o) => o !== origin).map(originRoom));
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
      if (!new URL(request.url).searchParams.has("sid"))
        handshakeOrigins.set(request, deps.linkOriginOf(request, server));
      return engine.handleRequest(request, routed);
    },
    close() {
      io.close();
    },
  };
}

/** A Socket.IO socket as the registry drives sockets: its own frames become events of the same name. */
function asRawSocket(socket: Socket, rooms: RoomNamespaces): RawSocket {
  return {
    send(data: string) {
      const { event, payload } = JSON.parse(data) as ServerEvent;
      socket.emit(event, payload);
    },
    // Counted by what the socket is in: a check that ends after it closed must not count it in a room again.
    subscribe(room) {
      if (!socket.connected || socket.rooms.has(room)) return;
      socket.join(room);
      rooms.join(room, socket.nsp);
    },
    unsubscribe(room) {
      if (!socket.rooms.has(room)) return;
      socket.leave(room);
      rooms.leave(room, socket.nsp);
    },
    close: () => socket.disconnect(true),
  };
}

const originRoom = (origin: string) => `origin:${origin}`;

/** A request from no configured origin: its links take the default origin. */
const NO_ORIGIN = new Request("http://unknown.invalid/");

/** How many users each key has; a key goes with its last user. */
class Tally<K> {
  private readonly counts = new Map<K, number>();

  add(key: K) {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  remove(key: K) {
    const left = (this.counts.get(key) ?? 1) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }

  has(key: K) {
    return this.counts.has(key);
  }

  get size() {
    return this.counts.size;
  }

  keys(): K[] {
    return [...this.counts.keys()];
  }
}

/**
 * The namespaces that have sockets in each of the registry's rooms. An event goes only to those, as a packet
 * names its namespace and is encoded once for each: a namespace where nobody hears it costs nothing.
 */
class RoomNamespaces {
  private readonly rooms = new Map<string, Tally<Namespace>>();

  join(room: string, nsp: Namespace) {
    let namespaces = this.rooms.get(room);
    if (!namespaces) this.rooms.set(room, (namespaces = new Tally()));
    namespaces.add(nsp);
  }

  leave(room: string, nsp: Namespace) {
    const namespaces = this.rooms.get(room);
    if (!namespaces?.has(nsp)) return;
    namespaces.remove(nsp);
    if (namespaces.size === 0) this.rooms.delete(room);
  }

  namespacesOf(rooms: readonly string[]): Set<Namespace> {
    return new Set(rooms.flatMap((room) => this.rooms.get(room)?.keys() ?? []));
  }
}
