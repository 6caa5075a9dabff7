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
      const { event: name, payload } = JSON.parse(String(frame.data));
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
      } else if (name === "appMessage" && payload.action === "create") {
        const id = payload.message.id as number;
        let times = received.get(id);
        if (!times) received.set(id, (times = []));
        if (times[index] !== undefined) return;
        times[index] = at;
        if (times.filter((t) => t !== undefined).length === tokens.length)
          port.postMessage({ type: "all", messageId: id });
      }
    };
  });
};
