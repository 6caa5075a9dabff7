/** A frame as tests read it: its payload's fields depend on the event. */
// biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of the event it waits for
export type TestFrame = { id: string; event: string; payload: any };

/** A WebSocket client for tests with a buffered inbox, so frames that arrive between awaits are not lost. */
export class TestSocket {
  private inbox: TestFrame[] = [];
  private waiters: {
    match: (f: TestFrame) => boolean;
    resolve: (f: TestFrame) => void;
    reject: (e: Error) => void;
  }[] = [];
  /** Resolves with the close code and reason once the socket is closed, from either side. */
  readonly closed: Promise<{ code: number; reason: string }>;
  private constructor(readonly ws: WebSocket) {
    let onClosed: (c: { code: number; reason: string }) => void = () => {};
    this.closed = new Promise((resolve) => (onClosed = resolve));
    ws.onmessage = (e) => {
      const frame = JSON.parse(String(e.data));
      const waiter = this.waiters.find((w) => w.match(frame));
      if (waiter) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      } else this.inbox.push(frame);
    };
    // Reject pending waiters on close so a missing frame fails fast instead of hanging until the test timeout.
    ws.onclose = (e) => {
      this.waiters.splice(0).forEach((w) => w.reject(new Error("socket closed")));
      onClosed({ code: e.code, reason: e.reason });
    };
  }

  static open(url: string): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const socket = new TestSocket(ws);
      ws.onopen = () => resolve(socket);
      ws.onerror = () => reject(new Error("websocket failed to open"));
    });
  }

  send(msg: unknown) {
    this.ws.send(JSON.stringify(msg));
  }

  next(event: string, timeoutMs = 2000): Promise<TestFrame> {
    const match = (f: TestFrame) => f.event === event;
    const i = this.inbox.findIndex(match);
    if (i >= 0) return Promise.resolve(this.inbox.splice(i, 1)[0]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ match, resolve: (f) => (clearTimeout(timer), resolve(f)), reject });
    });
  }

  /** Round-trips a ping: every message sent before it has been handled by the server. */
  async fence() {
    this.send({ type: "ping" });
    await this.next("pong");
  }

  received(event: string): TestFrame[] {
    return this.inbox.filter((f) => f.event === event);
  }

  close() {
    this.ws.close();
  }
}
