import type { Socket } from "bun";
import { StatementTrace } from "./statement-trace";

/**
 * A loopback proxy in front of a PostgreSQL server that reads the frontend protocol (version 3, no TLS: the
 * tests' cluster has none) and records into a StatementTrace each statement the server is asked to run: a
 * simple `Query`, or an `Execute` of the statement a `Parse` named. A simple `Query`, or a `Sync` after an
 * `Execute`, sent while no answer is awaited on its connection is one round trip: the client then waits for the
 * server's ReadyForQuery. Statements sent while earlier ones are still awaited (pipelined) share their round trip.
 * Bun's client compiles
 * a statement on its first use on a connection in a round trip of its own, which a warm pool no longer makes:
 * that one is not counted. The server's answers are passed on as they are; their ReadyForQuery messages tell
 * the trace when nothing is awaited any more.
 */
export async function tracePgWire(serverUrl: string): Promise<{ url: string; trace: StatementTrace; close(): void }> {
  const target = new URL(serverUrl);
  const links = new Set<Link>();
  let made = 0;
  const trace = new StatementTrace({
    roundTrips: true,
    awaiting: () => [...links].some((link) => link.awaited > 0),
  });
  const listener = Bun.listen<Link>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(client) {
        const link = new Link(++made, trace);
        links.add(link);
        client.data = link;
        void Bun.connect<Link>({
          hostname: target.hostname,
          port: Number(target.port || 5432),
          socket: {
            open(server) {
              server.data = link;
              link.connected(client, server);
            },
            data(_server, chunk) {
              link.fromServer(chunk);
            },
            drain() {
              link.toServer.flush();
            },
            close() {
              client.end();
            },
          },
        }).catch(() => client.end());
      },
      data(client, chunk) {
        client.data.fromClient(chunk);
      },
      drain(client) {
        client.data.toClient.flush();
      },
      close(client) {
        links.delete(client.data);
        client.data.toServer.end();
      },
    },
  });
  const url = new URL(serverUrl);
  url.hostname = "127.0.0.1";
  url.port = String(listener.port);
  return { url: url.toString(), trace, close: () => listener.stop(true) };
}

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

/** One client connection and its connection to the server. */
class Link {
  readonly toServer = new Pipe();
  readonly toClient = new Pipe();
  /** Round trips sent whose ReadyForQuery has not come back yet. */
  awaited = 0;
  private readonly fromClientBytes = new Messages();
  private readonly fromServerBytes = new Messages();
  private started = false;
  /** Refused TLS or GSSAPI requests: the server answers each with one byte before any message. */
  private encryptionAnswers = 0;
  /** Each prepared statement's SQL, by name ("" is the unnamed one). */
  private readonly statements = new Map<string, string>();
  /** The statement each portal was bound to. */
  private readonly portals = new Map<string, string>();
  /** Whether something ran since the last Sync: one that only compiled a statement is not counted. */
  private executed = false;

  constructor(
    private readonly id: number,
    private readonly trace: StatementTrace,
  ) {}

  connected(client: Socket<unknown>, server: Socket<unknown>) {
    this.toClient.attach(client);
    this.toServer.attach(server);
  }

  fromClient(chunk: Uint8Array) {
    for (const message of this.fromClientBytes.split(chunk, () => (this.started ? "typed" : "startup")))
      if (!this.started) {
        // The startup message, possibly after a request for encryption that the server refuses.
        const code = new DataView(message.buffer, message.byteOffset).getInt32(4);
        if (code === SSL_REQUEST || code === GSS_REQUEST) this.encryptionAnswers++;
        else this.started = true;
      } else this.clientMessage(String.fromCharCode(message[0]!), message.subarray(5));
    this.toServer.write(chunk);
  }

  fromServer(chunk: Uint8Array) {
    const framing = () => (this.encryptionAnswers > 0 ? "byte" : "typed");
    for (const message of this.fromServerBytes.split(chunk, framing))
      if (message.length === 1) this.encryptionAnswers--;
      // The ReadyForQuery that ends the startup answers nothing counted.
      else if (message[0] === "Z".charCodeAt(0)) this.awaited = Math.max(0, this.awaited - 1);
    this.toClient.write(chunk);
  }

  private clientMessage(type: string, body: Uint8Array) {
    switch (type) {
      case "Q":
        this.trace.statement(this.id, cString(body, 0).text);
        if (this.awaited === 0) this.trace.roundTrip(this.id);
        this.awaited++;
        break;
      case "P": {
        const name = cString(body, 0);
        this.statements.set(name.text, cString(body, name.end).text);
        break;
      }
      case "B": {
        const portal = cString(body, 0);
        this.portals.set(portal.text, cString(body, portal.end).text);
        break;
      }
      case "E":
        this.trace.statement(this.id, this.statements.get(this.portals.get(cString(body, 0).text) ?? "") ?? "");
        this.executed = true;
        break;
      case "S":
        if (this.executed && this.awaited === 0) this.trace.roundTrip(this.id);
        this.executed = false;
        this.awaited++;
        break;
    }
  }
}

/**
 * Cuts a byte stream into protocol messages: a typed message (a type byte, then its length), the startup
 * message (no type byte), or the single byte answering a request for encryption.
 */
class Messages {
  private rest = new Uint8Array(0);

  *split(chunk: Uint8Array, framing: () => "typed" | "startup" | "byte"): Generator<Uint8Array> {
    const bytes = new Uint8Array(this.rest.length + chunk.length);
    bytes.set(this.rest);
    bytes.set(chunk, this.rest.length);
    let at = 0;
    for (;;) {
      const kind = framing();
      const header = kind === "typed" ? 5 : kind === "startup" ? 4 : 1;
      if (bytes.length - at < header) break;
      const view = new DataView(bytes.buffer, bytes.byteOffset + at);
      const length = kind === "typed" ? view.getInt32(1) + 1 : kind === "startup" ? view.getInt32(0) : 1;
      if (bytes.length - at < length) break;
      // Handed over before the next framing is asked for: a message may change it.
      yield bytes.subarray(at, at + length);
      at += length;
    }
    this.rest = bytes.slice(at);
  }
}

/** Bytes for one socket, kept while it is not connected yet or its send buffer is full. */
class Pipe {
  private socket: Socket<unknown> | undefined;
  private pending: Uint8Array[] = [];
  private ended = false;

  attach(socket: Socket<unknown>) {
    this.socket = socket;
    this.flush();
  }

  write(chunk: Uint8Array) {
    this.pending.push(new Uint8Array(chunk));
    this.flush();
  }

  flush() {
    if (!this.socket) return;
    while (this.pending.length) {
      const chunk = this.pending[0]!;
      const written = this.socket.write(chunk);
      if (written < chunk.length) {
        this.pending[0] = chunk.subarray(Math.max(0, written));
        return;
      }
      this.pending.shift();
    }
    if (this.ended) this.socket.end();
  }

  end() {
    this.ended = true;
    this.flush();
  }
}

const decoder = new TextDecoder();

function cString(bytes: Uint8Array, start: number): { text: string; end: number } {
  const end = bytes.indexOf(0, start);
  return { text: decoder.decode(bytes.subarray(start, end)), end: end + 1 };
}
