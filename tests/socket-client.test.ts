import { afterAll, beforeAll, expect, test } from "bun:test";
import { setToken } from "../islands/lib/api";
import { closeSocket, connectSocket, join, leave } from "../islands/lib/socket";
import type { ClientMessage } from "../src/shared/contracts/socket";

/** The browser globals the socket client reads, replaced here by stand-ins. */
const browser = globalThis as { WebSocket: unknown; location?: unknown };

/** Stands in for the browser's WebSocket: records what the client sends, and lets the test play the server. */
class FakeSocket {
  static readonly OPEN = 1;
  static opened: FakeSocket[] = [];
  static waiting: ((s: FakeSocket) => void)[] = [];
  readyState = 0;
  sent: ClientMessage[] = [];
  private sendWaiters: ((msg: ClientMessage) => void)[] = [];
  onopen?: () => void;
  onmessage?: (e: { data: string }) => void;
  onclose?: (e: { code: number }) => void;

  constructor(readonly url: string) {
    queueMicrotask(() => {
      this.readyState = FakeSocket.OPEN;
      this.onopen?.();
      FakeSocket.opened.push(this);
      FakeSocket.waiting.shift()?.(this);
    });
  }

  static next(): Promise<FakeSocket> {
    return new Promise((resolve) => FakeSocket.waiting.push(resolve));
  }

  send(data: string) {
    const msg = JSON.parse(data);
    this.sent.push(msg);
    this.sendWaiters.shift()?.(msg);
  }

  nextSent(): Promise<ClientMessage> {
    return new Promise((resolve) => this.sendWaiters.push(resolve));
  }

  serverSends(event: string, payload: unknown) {
    this.onmessage?.({ data: JSON.stringify({ event, payload }) });
  }

  serverCloses(code: number) {
    this.readyState = 3;
    this.onclose?.({ code });
  }

  close() {
    this.serverCloses(1000);
  }
}

const realFetch = globalThis.fetch;
const RealWebSocket = globalThis.WebSocket;
let refreshed = 0;

beforeAll(() => {
  browser.WebSocket = FakeSocket;
  browser.location = { protocol: "http:", host: "zapdesk.test", pathname: "/tickets", assign: () => {} };
  globalThis.fetch = (async () =>
    new Response(JSON.stringify({ token: `fresh-${++refreshed}` }), { status: 200 })) as unknown as typeof fetch;
});

afterAll(() => {
  closeSocket();
  globalThis.fetch = realFetch;
  globalThis.WebSocket = RealWebSocket;
  delete browser.location;
});

test("H3: the browser socket sends a fresh token before its token expires, and after a 4001 close refreshes and reconnects", async () => {
  setToken("first");
  const opening = FakeSocket.next();
  connectSocket();
  const socket = await opening;
  expect(socket.url).toBe("ws://zapdesk.test/ws?token=first");

  const renewal = socket.nextSent();
  socket.serverSends("ready", { userId: 1, expiresIn: 30 });
  expect(await renewal).toEqual({ type: "token", token: "fresh-1" });

  const reopening = FakeSocket.next();
  socket.serverCloses(4001);
  expect((await reopening).url).toBe("ws://zapdesk.test/ws?token=fresh-2");
});

test("two lists following the same status share its room: it is left only when the last one leaves", async () => {
  const socket = FakeSocket.opened.at(-1)!;
  const room = { type: "joinTickets" as const, status: "open" as const };
  join(room);
  join(room);
  leave(room);
  const sentAfterFirstLeave = socket.sent.filter((m) => m.type === "leaveTickets");
  leave(room);
  expect(sentAfterFirstLeave).toEqual([]);
  expect(socket.sent.filter((m) => m.type === "leaveTickets")).toEqual([{ type: "leaveTickets", status: "open" }]);
});
