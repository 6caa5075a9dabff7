/**
 * The socket side of bench/fanout.ts, in its own thread so that reading frames does not slow the server down:
 * opens one socket per token, follows the pending list, the notifications and the ticket's chat, and notes when
 * each socket first receives each new message (absolute time in ms). Tells the main thread when every socket is
 * set up and when every socket has a message.
 */
const port = globalThis as unknown as Pick<Worker, "postMessage" | "onmessage">;

interface Start {
  type: "start";
  url: string;
  tokens: string[];
  ticketId: number;
}

const now = () => performance.timeOrigin + performance.now();
const received = new Map<number, number[]>();
/** How many sockets have each message. */
const counted = new Map<number, number>();
/** The frame of a new message: `{"id":…,"event":"appMessage","payload":{"action":"create","message":{"id":<id>,`. */
const NEW_MESSAGE = /^\{"id":"[^"]*","event":"appMessage","payload":\{"action":"create","message":\{"id":(\d+),/;
const sockets: WebSocket[] = [];

port.onmessage = (event: MessageEvent<Start | { type: "done" }>) => {
  if (event.data.type === "done") {
    for (const socket of sockets) socket.close();
    port.postMessage({ type: "times", times: Object.fromEntries(received) });
    return;
  }
  const { url, tokens, ticketId } = event.data;
  let ready = 0;
  tokens.forEach((token, index) => {
    const socket = new WebSocket(`${url}?token=${encodeURIComponent(token)}`);
    sockets.push(socket);
    socket.onmessage = (frame) => {
      const at = now();
      const data = String(frame.data);
      // Only the first copy of each new message counts, and reading it must stay cheap: the sockets of this
      // thread are served one after another, so the time spent here delays the next socket's reading.
      const created = NEW_MESSAGE.exec(data);
      if (created) {
        const id = Number(created[1]);
        let times = received.get(id);
        if (!times) received.set(id, (times = []));
        if (times[index] !== undefined) return;
        times[index] = at;
        const sockets = (counted.get(id) ?? 0) + 1;
        counted.set(id, sockets);
        if (sockets === tokens.length) port.postMessage({ type: "all", messageId: id });
        return;
      }
      const { event: name } = JSON.parse(data);
      if (name === "ready") {
        for (const msg of [
          { type: "joinNotification" },
          { type: "joinTickets", status: "pending" },
          { type: "joinChatBox", ticketId },
          { type: "ping" },
        ])
          socket.send(JSON.stringify(msg));
      } else if (name === "pong") {
        if (++ready === tokens.length) port.postMessage({ type: "ready" });
      }
    };
  });
};
