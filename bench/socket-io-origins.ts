/**
 * Socket.IO amplification check, not part of `npm run bench`: one user opens many Socket.IO sockets, each
 * claiming an address of its own (a made-up Host, Referer and Origin), and the script times one inbound message
 * from its arrival until a plain Socket.IO client that follows the notifications hears it. The many sockets join
 * nothing, so whatever they add is the cost of their claims alone.
 *
 *   bun bench/socket-io-origins.ts [--sockets=2500] [--messages=5] [--namespaces]
 *
 * `--namespaces` also puts each made-up socket in a namespace of its own (`/made-up-<n>`).
 */
import { io, type Socket } from "socket.io-client";
import type { NormalizedMessage } from "../src/channels/types";
import { quantile } from "./figure";
import { startTempApp, type TempApp } from "./temp-app";

const arg = (name: string) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1]) || undefined;
const SOCKETS = arg("sockets") ?? 2500;
const MESSAGES = arg("messages") ?? 5;
const NAMESPACES = process.argv.includes("--namespaces");
/** Sockets being opened at once. */
const OPENING = 100;
let sequence = 0;

await main();
process.exit(0);

async function main() {
  const app = await startTempApp();
  try {
    const reference = await follower(app);
    const before = await timeMessages(app, reference, "alone");
    const crowd = await openCrowd(app);
    const after = await timeMessages(app, reference, "crowd");
    console.log(`one inbound message until a Socket.IO client hears it (median of ${MESSAGES}, max):`);
    console.log(`  with no other socket:  ${summary(before)}`);
    console.log(
      `  with ${SOCKETS} made-up-origin sockets${NAMESPACES ? " in their own namespaces" : ""}: ${summary(after)}`,
    );
    for (const socket of crowd) socket.close();
    reference.disconnect();
  } finally {
    await app.close();
  }
}

function summary(ms: number[]) {
  return `${quantile(ms, 0.5).toFixed(1)} ms (max ${quantile(ms, 1).toFixed(1)} ms)`;
}

/** A Socket.IO client as the family's frontends open it, following the notifications. */
async function follower(app: TempApp): Promise<Socket> {
  const socket = io(app.base, { query: { token: app.token }, transports: ["websocket"], reconnection: false });
  await new Promise((resolve) => socket.once("ready", resolve));
  const pong = new Promise((resolve) => socket.once("pong", resolve));
  socket.emit("joinNotification");
  socket.emit("ping");
  await pong;
  return socket;
}

async function timeMessages(app: TempApp, reference: Socket, tag: string): Promise<number[]> {
  const times: number[] = [];
  for (let n = 0; n < MESSAGES; n++) {
    const body = `${tag} ${++sequence}`;
    const heard = new Promise<void>((resolve) => {
      const listener = (p: { action: string; message: { body: string } }) => {
        if (p.action !== "create" || p.message.body !== body) return;
        reference.off("appMessage", listener);
        resolve();
      };
      reference.on("appMessage", listener);
    });
    const start = performance.now();
    await app.channels.driverSink.onMessage(app.connectionId, inbound(body));
    await heard;
    times.push(performance.now() - start);
  }
  return times;
}

function inbound(body: string): NormalizedMessage {
  return {
    id: `ORIGINS${sequence}`,
    chatId: "5521977770000",
    isGroup: false,
    fromMe: false,
    at: Date.now(),
    kind: "chat",
    body,
    pushName: "Amplification",
  };
}

/**
 * The made-up sockets, spoken in the raw Engine.IO protocol (cheaper to hold than clients): each one's handshake
 * names another host, and it answers the server's pings.
 */
async function openCrowd(app: TempApp): Promise<WebSocket[]> {
  const url = `${app.base.replace("http", "ws")}/socket.io/?EIO=4&transport=websocket&token=${app.token}`;
  const sockets: WebSocket[] = [];
  let next = 0;
  const openOne = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const host = `made-up-${n}.example`;
      const nsp = NAMESPACES ? `/made-up-${n},` : "";
      const socket = new WebSocket(url, {
        headers: { host, origin: `http://${host}`, referer: `http://${host}/`, "sec-fetch-site": "same-origin" },
      } as unknown as string[]);
      sockets.push(socket);
      socket.onmessage = ({ data }) => {
        const text = String(data);
        if (text.startsWith("0")) socket.send(`40${nsp}`);
        else if (text === "2") socket.send("3");
        else if (text.startsWith("42") && text.includes('"ready"')) resolve();
        else if (text.startsWith("44")) reject(new Error(`refused: ${text}`));
      };
      socket.onerror = () => reject(new Error(`socket ${n} failed`));
    });
  await Promise.all(
    Array.from({ length: OPENING }, async () => {
      while (next < SOCKETS) await openOne(next++);
    }),
  );
  return sockets;
}
