import {
  cleanMessage,
  decodeMessageNode,
  type BinaryNode,
  type MessageUpsertType,
  type WAMessage,
  type WASocket,
} from "baileys";
import type { Logger } from "../../log";
import { eventCopy } from "./event-json";

const MAX_WAITING = 2000;

/**
 * Hands each decrypted inbound message to `hold` before Baileys sends WhatsApp its delivery receipt.
 *
 * Baileys 7 (rc14) receipts a message first and emits it (`messages.upsert`) afterwards, into an event buffer
 * that is flushed only after the stanza is handled, and that holds everything while the offline backlog arrives
 * (and up to 20 s after a first pairing). A crash in that gap loses a message WhatsApp will never resend. The one
 * place Baileys shows the decrypted content before the receipt is its recent-message cache
 * (`messageRetryManager.addRecentMessage`), so that call is wrapped; the message is built from the stanza as
 * Baileys builds it (read when the stanza arrives, before decryption). The journal write is asynchronous, so
 * every frame the socket sends while a write is under way waits for it, in order (`holdFrames`): the receipt
 * leaves only once the message is stored. If `hold` fails the message still goes on to the receipt and the
 * upsert. Returns false when this Baileys has no such cache.
 */
export function holdBeforeReceipts(
  sock: WASocket,
  hold: (message: WAMessage, type: MessageUpsertType) => Promise<void>,
  log: Logger,
): boolean {
  const cache = sock.messageRetryManager;
  if (!cache || typeof cache.addRecentMessage !== "function") {
    log.warn("baileys has no recent-message cache: inbound messages are journaled only once emitted");
    return false;
  }
  const frames = holdFrames(sock);
  if (!frames) {
    log.warn("baileys socket has no raw websocket: inbound messages are journaled only once emitted");
    return false;
  }
  const arrived = new Map<string, { message: WAMessage; type: MessageUpsertType }>();
  sock.ws.on("CB:message", (node: BinaryNode) => {
    const me = sock.authState.creds.me;
    if (!me?.id || !node.attrs.id) return;
    try {
      const { fullMessage } = decodeMessageNode(node, me.id, me.lid ?? "");
      arrived.set(node.attrs.id, { message: fullMessage, type: node.attrs.offline ? "append" : "notify" });
      if (arrived.size > MAX_WAITING) arrived.delete(arrived.keys().next().value!);
    } catch {
      // Baileys rejects the same stanza itself.
    }
  });
  const addRecentMessage = cache.addRecentMessage.bind(cache);
  cache.addRecentMessage = (to, id, message) => {
    const stanza = arrived.get(id);
    if (stanza) {
      arrived.delete(id);
      try {
        const me = sock.authState.creds.me!;
        // A copy: Baileys still cleans its own message later, and cleaning twice flips reaction keys.
        const full = eventCopy<WAMessage>({ ...stanza.message, message });
        cleanMessage(full, me.id, me.lid ?? "");
        frames.until(
          nextTurn()
            .then(() => hold(full, stanza.type))
            .catch((error) => log.error("inbound message not journaled before its receipt", { messageId: id, error })),
        );
      } catch (error) {
        log.error("inbound message not journaled before its receipt", { messageId: id, error });
      }
    }
    addRecentMessage(to, id, message);
  };
  return true;
}

/** Resolves in the event loop's next turn, after the timers and I/O callbacks due by then. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

type SendCallback = (error?: Error) => void;
interface RawWebSocket {
  send(data: unknown, callback?: SendCallback): void;
}

/**
 * Holds the socket's outgoing frames while some work is under way (`until`), then sends them in their order.
 * Frames are encrypted with a running counter before they get here, so they are never reordered, only delayed.
 */
function holdFrames(sock: WASocket) {
  const raw = (sock.ws as unknown as { socket?: RawWebSocket | null }).socket;
  if (!raw) return undefined;
  const send = raw.send.bind(raw);
  const pending = new Set<Promise<void>>();
  let queued: [unknown, SendCallback | undefined][] = [];
  raw.send = (data, callback) => {
    if (!pending.size && !queued.length) return send(data, callback);
    queued.push([data, callback]);
  };
  const release = () => {
    if (pending.size) return;
    const frames = queued;
    queued = [];
    for (const [data, callback] of frames) send(data, callback);
  };
  return {
    until(work: Promise<void>) {
      const done = work.finally(() => {
        pending.delete(done);
        release();
      });
      pending.add(done);
    },
  };
}
