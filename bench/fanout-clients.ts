/**
 * The socket side of bench/fanout.ts, in a process of its own (as browsers are) so that reading frames costs the
 * server nothing: opens one socket per token, follows the pending list, the notifications and the ticket's chat,
 * then POSTs one inbound message at a time and notes when each socket first receives that message's frame. The
 * same process holds the sockets of the app and of the bare pub/sub server (one group each), so both figures
 * carry the same client costs.
 */
interface Open {
  type: "open";
  group: string;
  url: string;
  tokens: string[];
  ticketId: number;
}

interface Run {
  type: "run";
  group: string;
  /** Where each message is POSTed, with its headers; `{n}` in the body template is the message's number. */
  post: { url: string; headers: Record<string, string>; body: string };
  from: number;
  messages: number;
}

type Command = Open | Run | { type: "close"; group: string };

const ipc = process as unknown as { send(message: unknown): void; on(event: "message", f: (m: Command) => void): void };
const now = () => performance.now();

/** The frame of a new message: `{"id":…,"event":"appMessage","payload":{"action":"create","message":{"id":<id>,`. */
const NEW_MESSAGE = /^\{"id":"[^"]*","event":"appMessage","payload":\{"action":"create","message":\{"id":\d+,/;

const groups = new Map<string, WebSocket[]>();
/** The message the sockets of one group wait for (its body), when each got it (ms since the POST), how many have it. */
let round = { group: "", marker: "", postedAt: 0, got: [] as number[], count: 0, done: () => {} };
/** The length of the last awaited frame, so the bare server can publish frames of the same size. */
let frameLength = 0;

ipc.on("message", async (command) => {
  if (command.type === "open") ipc.send({ type: "ready", ...(await open(command)) });
  else if (command.type === "run") ipc.send({ type: "times", ...(await run(command)) });
  else {
    for (const socket of groups.get(command.group) ?? []) socket.close();
    groups.delete(command.group);
    ipc.send({ type: "closed" });
  }
});

function open({ group, url, tokens, ticketId }: Open): Promise<{ sockets: number }> {
  let ready = 0;
  return new Promise((resolve, reject) => {
    const sockets = tokens.map((token, index) => {
      const socket = new WebSocket(`${url}?token=${encodeURIComponent(token)}`);
      socket.onerror = () => reject(new Error(`socket ${index} failed`));
      socket.onmessage = (frame) => {
        const at = now();
        const data = String(frame.data);
        // Only the first copy of the awaited message counts, and reading must stay cheap: the sockets of this
        // process are served one after another, so the time spent here delays the next socket's reading.
        if (NEW_MESSAGE.test(data)) {
          if (round.group !== group || round.got[index] !== undefined || !data.includes(round.marker)) return;
          round.got[index] = at - round.postedAt;
          frameLength = data.length;
          if (++round.count === sockets.length) round.done();
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
        } else if (name === "pong" && ++ready === tokens.length) resolve({ sockets: ready });
      };
      return socket;
    });
    groups.set(group, sockets);
  });
}

/** POSTs the messages one after another, each once every socket has the one before; answers every latency. */
async function run({ group, post, from, messages }: Run) {
  const rounds: { postedAt: number; got: number[] }[] = [];
  for (let n = from; n < from + messages; n++) {
    const body = post.body.replace("{n}", String(n));
    const all = new Promise<void>((done) => {
      round = { group, marker: `"fan-out ${n}"`, postedAt: now(), got: [], count: 0, done };
    });
    const res = await fetch(post.url, { method: "POST", headers: post.headers, body });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`POST ${post.url}: HTTP ${res.status}`);
    await all;
    rounds.push({ postedAt: performance.timeOrigin + round.postedAt, got: round.got });
  }
  return { rounds, frameLength };
}
