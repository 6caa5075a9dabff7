import { Elysia, t } from "elysia";
import type { AppDeps } from "../deps";
import { userFromAccessToken } from "../modules/auth/plugin";
import type { Tokens } from "../modules/auth/tokens";
import { userMaySeeTicketId } from "../modules/tickets/access";
import type { AuthUser } from "../modules/users/service";
import { isAdmin } from "../shared/permissions";
import { agentQueueKeys, type Room, TICKET_STATUSES, type TicketStatus } from "./rooms";

const status = t.Union(TICKET_STATUSES.map((s) => t.Literal(s)));
const clientMessage = t.Union([
  t.Object({ type: t.Literal("joinNotification") }),
  t.Object({ type: t.Literal("joinCompany") }),
  t.Object({ type: t.Literal("ping") }),
  t.Object({ type: t.Literal("joinTickets"), status }),
  t.Object({ type: t.Literal("leaveTickets"), status }),
  t.Object({ type: t.Literal("joinChatBox"), ticketId: t.Integer({ minimum: 1 }) }),
  t.Object({ type: t.Literal("leaveChatBox"), ticketId: t.Integer({ minimum: 1 }) }),
]);

interface Socket {
  send(data: unknown): unknown;
  subscribe(room: string): unknown;
  unsubscribe(room: string): unknown;
  data: { user: AuthUser };
}

/**
 * GET /ws?token=<access token>. The token is checked before the upgrade (401 otherwise). On open the socket
 * joins `all` and `user:<id>` (admins also `admins`) and receives `ready`; it then joins the rooms its user
 * may see: notifications, ticket lists by status, and one ticket's chat.
 */
export function realtimeRoutes(deps: AppDeps, tokens: Tokens) {
  return new Elysia().ws("/ws", {
    query: t.Object({ token: t.Optional(t.String()) }),
    body: clientMessage,
    async resolve({ query }: { query: { token?: string } }) {
      return { user: await userFromAccessToken(deps, tokens, query.token) };
    },
    open(ws) {
      const socket = ws as unknown as Socket;
      const { user } = socket.data;
      socket.subscribe("all");
      socket.subscribe(`user:${user.id}`);
      if (isAdmin(user.profile)) socket.subscribe("admins");
      socket.send({ event: "ready", payload: { userId: user.id } });
    },
    message(ws, msg) {
      const socket = ws as unknown as Socket;
      const { user } = socket.data;
      switch (msg.type) {
        case "ping":
          return socket.send({ event: "pong", payload: null });
        case "joinNotification":
          return roomsFor(user, "notification").forEach((r) => socket.subscribe(r));
        case "joinTickets":
          return roomsFor(user, msg.status).forEach((r) => socket.subscribe(r));
        case "leaveTickets":
          return roomsFor(user, msg.status).forEach((r) => socket.unsubscribe(r));
        case "joinChatBox":
          if (userMaySeeTicketId(deps.db, user, msg.ticketId)) socket.subscribe(`ticket:${msg.ticketId}`);
          else deps.log.warn("refused joinChatBox", { userId: user.id, ticketId: msg.ticketId });
          return;
        case "leaveChatBox":
          return socket.unsubscribe(`ticket:${msg.ticketId}`);
        case "joinCompany":
          return;
      }
    },
  });
}

/** Admins join the global rooms; agents join one room per queue they belong to, plus queue-less tickets. */
function roomsFor(user: AuthUser, kind: TicketStatus | "notification"): Room[] {
  if (isAdmin(user.profile)) return kind === "notification" ? ["notification"] : [`status:${kind}`];
  return agentQueueKeys(user.queueIds).map((q): Room => (kind === "notification" ? `queue:${q}:notification` : `queue:${q}:status:${kind}`));
}

