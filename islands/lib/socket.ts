import { getToken, goToLogin, refresh } from "./api";

type ClientMessage =
  | { type: "joinNotification" }
  | { type: "joinTickets"; status: "open" | "pending" | "closed" }
  | { type: "leaveTickets"; status: "open" | "pending" | "closed" }
  | { type: "joinChatBox"; ticketId: number }
  | { type: "leaveChatBox"; ticketId: number };

type Listener = (payload: any) => void;

const listeners = new Map<string, Set<Listener>>();
const joined = new Map<string, ClientMessage>();
const seen = new Set<string>();
const SEEN_LIMIT = 500;
let ws: WebSocket | null = null;
let attempt = 0;
let stopped = false;

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
  };
  socket.onmessage = (e) => {
    let frame: { event?: string; payload?: unknown; id?: string | number };
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
    if (frame.event) listeners.get(frame.event)?.forEach((fn) => fn(frame.payload));
  };
  socket.onclose = () => {
    ws = null;
    if (stopped) return;
    const delay = Math.min(30_000, 500 * 2 ** attempt++) * (0.8 + Math.random() * 0.4);
    // A refused upgrade usually means the short-lived access token expired: refresh it before retrying.
    const retry = opened ? connectSocket : () => void refresh().then((fresh) => (fresh === null ? goToLogin() : connectSocket()));
    setTimeout(retry, delay);
  };
}

/** Joins a room now and after every reconnect. */
export function join(msg: ClientMessage) {
  const key = JSON.stringify(msg);
  joined.set(key, msg);
  if (ws?.readyState === WebSocket.OPEN) ws.send(key);
}

/** Leaves a room joined with `join` (pass the matching join message). */
export function leave(msg: Extract<ClientMessage, { type: "joinTickets" | "joinChatBox" }>) {
  joined.delete(JSON.stringify(msg));
  const out: ClientMessage =
    msg.type === "joinTickets" ? { type: "leaveTickets", status: msg.status } : { type: "leaveChatBox", ticketId: msg.ticketId };
  if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(out));
}

/** Listens to one server event; returns the unsubscribe function. */
export function on(event: string, fn: Listener): () => void {
  let set = listeners.get(event);
  if (!set) listeners.set(event, (set = new Set()));
  set.add(fn);
  return () => set.delete(fn);
}

/** Closes the socket for good (logout). */
export function closeSocket() {
  stopped = true;
  ws?.close();
}
