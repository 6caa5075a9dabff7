import { getToken, goToLogin, refresh } from "./api";

import type { ServerEvents } from "../../src/shared/contracts/server-events";
import type { ClientMessage, EventName, Frame } from "../../src/shared/contracts/socket";
import type { Wire } from "../../src/shared/contracts/wire";

/** The rooms an island joins (the socket itself sends pings and token renewals). */
type JoinMessage = Extract<ClientMessage, { type: "joinNotification" | "joinTickets" | "joinChatBox" }>;

type Listener = (payload: unknown) => void;

const listeners = new Map<string, Set<Listener>>();
const joined = new Map<string, JoinMessage>();
/** How many holders joined each room: two lists may follow the same status; the room is left with the last. */
const holders = new Map<string, number>();
const seen = new Set<string>();
const SEEN_LIMIT = 500;
/** The server closes a socket with this code when its session ended or its token expired unrenewed. */
const SESSION_ENDED = 4001;
/** Seconds before the access token expires when the socket asks for a fresh one. */
const RENEW_AHEAD = 60;
let ws: WebSocket | null = null;
let attempt = 0;
let stopped = false;
let renewTimer: ReturnType<typeof setTimeout> | undefined;

/** Opens the one shared socket (idempotent); it reconnects with backoff and re-joins its rooms. */
export function connectSocket() {
  if (ws || stopped || typeof WebSocket === "undefined") return;
  const token = getToken();
  if (!token) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${proto}//${location.host}/ws?token=${encodeURIComponent(token)}`);
  ws = socket;
  let opened = false;
  socket.onopen = () => {
    opened = true;
    attempt = 0;
    for (const msg of joined.values()) socket.send(JSON.stringify(msg));
    unconfirmed = 0;
    confirmJoins(socket);
  };
  socket.onmessage = (e) => {
    let frame: Partial<Frame>;
    try {
      frame = JSON.parse(String(e.data));
    } catch {
      return;
    }
    if (frame.id != null) {
      const key = String(frame.id);
      if (seen.has(key)) return;
      seen.add(key);
      if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value!);
    }
    // `ready` and each renewal say how long the socket's token has left.
    if (frame.event === "ready" || frame.event === "token")
      scheduleRenewal(socket, (frame.payload as { expiresIn?: number } | null)?.expiresIn);
    if (frame.event === "pong") joinsConfirmed();
    if (frame.event) listeners.get(frame.event)?.forEach((fn) => fn(frame.payload));
  };
  socket.onclose = (e) => {
    ws = null;
    clearTimeout(renewTimer);
    if (stopped) return;
    const delay = Math.min(30_000, 500 * 2 ** attempt++) * (0.8 + Math.random() * 0.4);
    // A refused upgrade or an ended session usually means the access token expired: refresh it before retrying.
    const needsToken = !opened || e.code === SESSION_ENDED;
    const retry = needsToken
      ? () => void refresh().then((fresh) => (fresh === null ? goToLogin() : connectSocket()))
      : connectSocket;
    setTimeout(retry, delay);
  };
}

/** Sends the socket a fresh access token shortly before its current one expires, so no event is missed. */
function scheduleRenewal(socket: WebSocket, expiresIn: number | undefined) {
  clearTimeout(renewTimer);
  if (typeof expiresIn !== "number") return;
  renewTimer = setTimeout(
    () =>
      void refresh().then((fresh) => {
        if (fresh === null) return goToLogin();
        // Unreachable server: the socket closes at expiry and reconnects with a refreshed token then.
        if (fresh && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "token", token: fresh }));
      }),
    Math.max(0, expiresIn - RENEW_AHEAD) * 1000,
  );
}

/** Joins a room now and after every reconnect. */
export function join(msg: JoinMessage) {
  const key = JSON.stringify(msg);
  holders.set(key, (holders.get(key) ?? 0) + 1);
  joined.set(key, msg);
  if (ws?.readyState === WebSocket.OPEN) {
    ws.send(key);
    confirmJoins(ws);
  }
}

let unconfirmed = 0;

/**
 * Follows a ping after joins: the server answers frames in order, so its pong says the rooms are joined. While one
 * is awaited, `<html data-live>` is "false"; then "true" (what a page or a test can wait for before expecting events).
 */
function confirmJoins(socket: WebSocket) {
  unconfirmed++;
  markLive("false");
  socket.send(JSON.stringify({ type: "ping" } satisfies ClientMessage));
}

function joinsConfirmed() {
  unconfirmed = Math.max(0, unconfirmed - 1);
  if (unconfirmed === 0) markLive("true");
}

function markLive(value: "true" | "false") {
  if (typeof document !== "undefined") document.documentElement.dataset.live = value;
}

/** Leaves a room joined with `join` (pass the matching join message). */
export function leave(msg: Extract<ClientMessage, { type: "joinTickets" | "joinChatBox" }>) {
  const key = JSON.stringify(msg);
  const left = (holders.get(key) ?? 1) - 1;
  if (left > 0) return void holders.set(key, left);
  holders.delete(key);
  joined.delete(key);
  const out: ClientMessage =
    msg.type === "joinTickets"
      ? { type: "leaveTickets", status: msg.status }
      : { type: "leaveChatBox", ticketId: msg.ticketId };
  if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(out));
}

/** What a listener of `event` receives: its payload in the shared contract, as JSON delivers it. */
export type Payload<E extends EventName> = Wire<ServerEvents[E]>;

/** Listens to one server event; returns the unsubscribe function. */
export function on<E extends EventName>(event: E, fn: (payload: Payload<E>) => void): () => void {
  // The server builds each frame to its event's contract (src/realtime/listener.ts); frames are not checked again here.
  const listener = fn as Listener;
  let set = listeners.get(event);
  if (!set) listeners.set(event, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}

/** Closes the socket for good (logout). */
export function closeSocket() {
  stopped = true;
  ws?.close();
}
