import { Elysia, t } from "elysia";
import type { Config } from "../config";
import type { Logger } from "../log";
import { linkOriginOf } from "./family-shape";
import type { RealtimeHub } from "./hub";
import type { Clock } from "../shared/clock";
import type { SocketPresence } from "./presence";
import { type AccessChecks, type RawSocket, type SocketSession, SocketRegistry } from "./registry";
import type { SocketIoBridge } from "./socket-io";

/** Where the whaticket family's clients look for Socket.IO (see socket-io.ts). */
const SOCKET_IO_PATH = "/socket.io/";

interface Socket {
  raw: RawSocket;
  data: { session: SocketSession };
}

/**
 * GET /ws?token=<access token>. The token is checked before the upgrade (401 without one, 403 when invalid). On open the socket
 * joins `all` and `user:<id>` (admins also `admins`) and receives `ready` with its token's remaining seconds;
 * it then joins the rooms its user may see (notifications, ticket lists by status, one ticket's chat) and
 * renews its token with `{type:"token"}` before it expires. The registry owns the rooms from then on.
 *
 * Frames are read by the registry, not by a framework body schema: a schema refusal describes the whole frame,
 * which for a deeply nested one overflowed the stack outside any handler.
 */
export function realtimeRoutes(
  deps: {
    clock: Clock;
    log: Logger;
    hub: RealtimeHub;
    config: Pick<Config, "corsOrigins" | "publicUrl" | "trustProxy" | "refreshTokenTtl">;
    presence?: SocketPresence;
  },
  checks: AccessChecks,
) {
  const registry = new SocketRegistry({ clock: deps.clock, log: deps.log, checks, presence: deps.presence });
  deps.hub.beforeFanOut?.((rooms, event, payload) => registry.beforeFanOut(rooms, event, payload));
  deps.hub.routeThrough?.(registry);

  // Loaded on the first request for it: an inbox without the family's clients never pays for Socket.IO.
  let bridge: Promise<SocketIoBridge> | undefined;
  const socketIo = (server: { url: URL }) =>
    (bridge ??= import("./socket-io").then(({ socketIoBridge }) =>
      socketIoBridge({
        path: SOCKET_IO_PATH,
        registry,
        checks,
        origins: deps.config.corsOrigins,
        linkOriginOf: linkOriginOf(deps.config, server.url.origin),
        onFanOut: (listener) => deps.hub.beforeFanOut?.(listener),
        sessionHorizon: () => deps.clock.now() + deps.config.refreshTokenTtl * 1000,
      }),
    ));

  return new Elysia()
    .all(SOCKET_IO_PATH, async ({ request, server }) => (await socketIo(server!)).handle(request, server!), {
      parse: "none",
    })
    .ws("/ws", {
      query: t.Object({ token: t.Optional(t.String()) }),
      async resolve({ query }: { query: { token?: string } }) {
        return { session: await checks.verifyToken(query.token) };
      },
      open(ws) {
        const socket = ws as unknown as Socket;
        registry.add(socket.raw, socket.data.session);
      },
      message(ws, frame) {
        registry.receive((ws as unknown as Socket).raw, frame);
      },
      close(ws) {
        registry.remove((ws as unknown as Socket).raw);
      },
    });
}
