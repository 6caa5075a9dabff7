// @engine once
// @group processes
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { freshPgUrl } from "./pg-harness";
import { type ServerProcess, startServerProcess } from "./server-process";
import { hasPostgres } from "./sql-servers";
import { TestSocket } from "./ws-client";

const ADMIN = { email: "admin@cluster.test", password: "cluster-admin-password" };

interface Node extends ServerProcess {
  dir: string;
}

/** A Zapdesk server in a process of its own, on the shared database and media directory. */
async function startNode(databaseUrl: string, mediaDir: string): Promise<Node> {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-node-"));
  const node = await startServerProcess({
    DATA_DIR: dir,
    MEDIA_DIR: mediaDir,
    DATABASE_URL: databaseUrl,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // The tests write as fast as they can through one admin's token, past a person's request rate.
    API_USER_RATE: "0",
  });
  return { ...node, dir };
}

async function api(node: Node, method: string, path: string, opts: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${node.base}/api${path}`, {
    method,
    headers: {
      ...(opts.body ? { "content-type": "application/json" } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    body: opts.body ? JSON.stringify(opts.body) : undefined,
  });
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields of the answer it checks
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

async function logIn(node: Node, who: { email: string; password: string }): Promise<string> {
  const res = await api(node, "POST", "/auth/login", { body: who });
  if (res.status !== 200) throw new Error(`login on ${node.base}: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.token;
}

/** This node's name, as connection leases hold it. */
async function nodeIdOf(node: Node): Promise<string | undefined> {
  const health = await fetch(`${node.base}/health`).then(
    (r) => r.json(),
    () => undefined,
  );
  return health?.node;
}

/** Stops the node as an operator would (SIGTERM: it finishes what it took and lets its leases go). */
async function stopNode(node: Node) {
  node.proc.kill("SIGTERM");
  await node.proc.exited;
  rmSync(node.dir, { recursive: true, force: true });
}

/** Polls `check` (a state read over HTTP) until it holds; fails after `ms`. */
async function eventually<T>(check: () => Promise<T | undefined | false>, ms: number, what: string): Promise<T> {
  for (const started = Date.now(); Date.now() - started < ms; ) {
    const value = await check();
    if (value) return value;
    await Bun.sleep(200);
  }
  throw new Error(`not within ${ms} ms: ${what}`);
}

describe.skipIf(!hasPostgres)("two nodes on one PostgreSQL database", () => {
  let a: Node;
  let b: Node;
  let media: string;
  let url: string;
  let db: SQL;

  beforeAll(async () => {
    url = await freshPgUrl();
    db = new SQL(url);
    media = mkdtempSync(join(tmpdir(), "zapdesk-media-"));
    a = await startNode(url, media);
    b = await startNode(url, media);
  }, 90_000);

  afterAll(async () => {
    await db?.close();
    for (const node of [a, b]) {
      node?.proc.kill("SIGKILL");
      if (node) rmSync(node.dir, { recursive: true, force: true });
    }
    rmSync(media, { recursive: true, force: true });
  });

  /** The node holding the connection's lease (the one running it), once one does. */
  async function runnerOf(connectionId: number): Promise<Node> {
    const ids = new Map([
      [await nodeIdOf(a), a],
      [await nodeIdOf(b), b],
    ]);
    return await eventually(
      async () => {
        const [row] = await db`select node_id from connection_leases where whatsapp_id = ${connectionId}`;
        return row && ids.get(row.node_id);
      },
      10_000,
      `a node runs connection ${connectionId}`,
    );
  }

  /** A new sandbox connection, paired through `through` (whichever node runs it), CONNECTED. */
  async function pairedConnection(through: Node, token: string, name: string): Promise<number> {
    const created = await api(through, "POST", "/whatsapp", { token, body: { name, provider: "sandbox" } });
    expect(created.status).toBe(200);
    const id = created.json.id as number;
    // Scans again while the connection is not CONNECTED, as a person would when a scan did not take.
    await eventually(
      async () => {
        const status = (await api(through, "GET", `/whatsapp/${id}`, { token })).json?.status;
        if (status !== "CONNECTED") await api(through, "POST", `/sandbox/${id}/scan`, { token });
        return status === "CONNECTED";
      },
      30_000,
      "the scanned connection is CONNECTED",
    );
    return id;
  }

  test("a user created on A logs in on B, and a token A issued works on B", async () => {
    const adminOnA = await logIn(a, ADMIN);
    const created = await api(a, "POST", "/users", {
      token: adminOnA,
      body: { name: "Marta", email: "marta@cluster.test", password: "secret1" },
    });
    expect(created.status).toBe(200);
    expect(await logIn(b, { email: "marta@cluster.test", password: "secret1" })).toBeString();
    expect((await api(b, "GET", "/users", { token: adminOnA })).status).toBe(200);
  });

  test("an agent whose socket opens on B is online for A, and an admin's socket on A hears it", async () => {
    const adminOnA = await logIn(a, ADMIN);
    const created = await api(a, "POST", "/users", {
      token: adminOnA,
      body: { name: "Nina", email: "nina@cluster.test", password: "secret1" },
    });
    const nina = created.json.id as number;
    const watcher = await TestSocket.open(`${a.base.replace("http", "ws")}/ws?token=${adminOnA}`);
    await watcher.next("ready");
    await watcher.fence();
    const ninaOnB = await logIn(b, { email: "nina@cluster.test", password: "secret1" });
    const socket = await TestSocket.open(`${b.base.replace("http", "ws")}/ws?token=${ninaOnB}`);
    await socket.next("ready");
    const heard = await eventually(
      async () => watcher.received("user").find((f) => f.payload.user?.id === nina),
      15_000,
      "A's socket hears Nina online",
    );
    expect(heard.payload.user.availability).toBe("online");
    const list = await api(a, "GET", "/users", { token: adminOnA });
    expect(list.json.users.find((u: { id: number }) => u.id === nina).availability).toBe("online");
    socket.close();
    watcher.close();
  });

  test("a campaign stored on one node is sent by the node running its connection, each recipient once", async () => {
    const token = await logIn(a, ADMIN);
    const id = await pairedConnection(b, token, "Campanha");
    const running = await runnerOf(id);
    const settings = { whatsappId: id, limit: 10, minutes: 0, seconds: 1 };
    expect((await api(a, "POST", "/settingsMessage", { token, body: settings })).status).toBe(200);
    const phones = Array.from({ length: 5 }, (_, i) => `55119555000${i}`);
    const stored = await api(running === a ? b : a, "POST", "/bulkMessage", {
      token,
      body: phones.map((phone) => ({ phone, message: `Promoção ${phone}`, whatsappId: id })),
    });
    expect(stored.status).toBe(200);
    const report = async () =>
      ((await api(a, "GET", "/bulkMessage/report", { token })).json.messages as { status: string }[]) ?? [];
    await eventually(
      async () => (await report()).length === phones.length && (await report()).every((r) => r.status === "sent"),
      30_000,
      "every recipient's record is sent",
    );
    const sent = (await api(running, "GET", `/sandbox/${id}/outbox`, { token })).json as { to: string }[];
    expect(sent.map((m) => m.to).sort()).toEqual(phones);
  }, 60_000);

  test("200 customer messages sent alternately through A and B while the node running their connection restarts are each stored once", async () => {
    const token = await logIn(a, ADMIN);
    const id = await pairedConnection(a, token, "Reinício");
    const runner = await runnerOf(id);
    const wids = Array.from({ length: 200 }, (_, i) => `RESTART${String(i).padStart(3, "0")}`);
    let restart: Promise<void> | undefined;
    // As a load balancer does: what a stopping or stopped node did not answer is sent again, to the other node.
    const send = async (i: number) => {
      const body = { from: `55119777${String(i % 4).padStart(5, "0")}`, body: `Mensagem ${i}`, id: wids[i] };
      for (let attempt = 0; attempt < 100; attempt++) {
        const through = (i + attempt) % 2 === 0 ? a : b;
        const sent = await api(through, "POST", `/sandbox/${id}/inbound`, { token, body }).catch(() => undefined);
        if (sent && sent.status < 500) return expect(sent.status).toBe(200);
        await Bun.sleep(50);
      }
      throw new Error(`message ${i} not accepted by either node`);
    };
    // Four customers' phones write at once, so some requests are under way when the node stops.
    const lanes = [0, 1, 2, 3].map(async (lane) => {
      for (let i = lane; i < wids.length; i += 4) {
        if (i === 48)
          restart = (async () => {
            await stopNode(runner);
            const again = await startNode(url, media);
            if (runner === a) a = again;
            else b = again;
          })();
        await send(i);
      }
    });
    await Promise.all(lanes);
    await restart;
    const stored = await eventually(
      async () => {
        const rows = await db`select wid, count(*)::int as n from messages where whatsapp_id = ${id} group by wid`;
        return rows.length === wids.length && (rows as { wid: string; n: number }[]);
      },
      30_000,
      "every message stored",
    );
    expect(stored.map((r) => r.wid).sort()).toEqual(wids);
    expect(stored.every((r) => r.n === 1)).toBe(true);
  }, 90_000);

  test("disconnect, start and new QR asked of the node not running a connection are carried out where it runs", async () => {
    const token = await logIn(a, ADMIN);
    const id = await pairedConnection(a, token, "Balcão");
    const runner = await runnerOf(id);
    const other = runner === a ? b : a;
    const status = async () => (await api(other, "GET", `/whatsapp/${id}`, { token })).json;

    expect((await api(other, "DELETE", `/whatsappsession/${id}`, { token })).status).toBe(200);
    await eventually(async () => (await status()).status === "DISCONNECTED", 10_000, "the runner logged it out");
    expect(await db`select node_id from connection_leases where whatsapp_id = ${id}`).toHaveLength(0);

    expect((await api(other, "POST", `/whatsappsession/${id}`, { token })).status).toBe(200);
    const firstQr = await eventually(
      async () => (await status()).status === "qrcode" && (await status()).qrcode,
      10_000,
      "the connection shows a QR code again",
    );
    const newRunner = await runnerOf(id);
    expect(newRunner).toBe(other);

    expect((await api(runner, "PUT", `/whatsappsession/${id}`, { token })).status).toBe(200);
    await eventually(
      async () => (await status()).status === "qrcode" && (await status()).qrcode !== firstQr,
      10_000,
      "the node running it shows a new QR code",
    );
    expect(await runnerOf(id)).toBe(other);
  }, 60_000);

  test("presence crosses nodes both ways: the customer's typing reaches a chat open on the other node, and the agent's typing asked of the other node reaches the phone", async () => {
    const login = await api(a, "POST", "/auth/login", { body: ADMIN });
    const token = login.json.token as string;
    const id = await pairedConnection(a, token, "Presença");
    const running = await runnerOf(id);
    const other = running === a ? b : a;
    const customer = "5511955556666";
    await api(running, "POST", `/sandbox/${id}/inbound`, { token, body: { from: customer, body: "Oi" } });
    const ticket = await eventually(
      async () =>
        (await api(other, "GET", "/tickets?showAll=true&status=pending", { token })).json.tickets.find(
          (t: { contact: { number: string } }) => t.contact.number === customer,
        ),
      15_000,
      "the customer's ticket is listed",
    );
    expect(
      (
        await api(other, "PUT", `/tickets/${ticket.id}`, {
          token,
          body: { status: "open", userId: login.json.user.id },
        })
      ).status,
    ).toBe(200);

    const chat = await TestSocket.open(`${other.base.replace("http", "ws")}/ws?token=${token}`);
    await chat.next("ready");
    chat.send({ type: "joinChatBox", ticketId: ticket.id });
    await chat.fence();
    const heard = chat.next("presence", 15_000);
    // Played through the node that does not run the connection: it reaches the one that does.
    expect(
      (await api(other, "POST", `/sandbox/${id}/presence`, { token, body: { from: customer, state: "composing" } }))
        .status,
    ).toBe(200);
    expect((await heard).payload).toMatchObject({ ticketId: ticket.id, state: "composing" });
    chat.close();

    expect(
      (await api(other, "POST", `/tickets/${ticket.id}/presence`, { token, body: { state: "composing" } })).status,
    ).toBe(200);
    await eventually(
      async () =>
        (await api(running, "GET", `/sandbox/${id}/presence?to=${customer}`, { token })).json?.state === "composing",
      15_000,
      "the node running the connection shows the phone the agent typing",
    );
  }, 60_000);

  test("a socket on B hears a customer's message A stored; after SIGKILL of A, B takes A's connection over and stores what came meanwhile", async () => {
    const adminOnA = await logIn(a, ADMIN);
    const adminOnB = await logIn(b, ADMIN);
    const id = await pairedConnection(a, adminOnA, "Loja");
    // The customer writes through the node running the connection; the other node's socket hears it.
    const running = await runnerOf(id);
    const other = running === a ? b : a;
    const listener = await TestSocket.open(
      `${other.base.replace("http", "ws")}/ws?token=${other === a ? adminOnA : adminOnB}`,
    );
    await listener.next("ready");
    listener.send({ type: "joinNotification" });
    listener.send({ type: "joinTickets", status: "pending" });
    await listener.fence();
    const heard = listener.next("appMessage", 15_000);
    const sent = await api(running, "POST", `/sandbox/${id}/inbound`, {
      token: adminOnA,
      body: { from: "5511933334444", body: "Olá do outro nó" },
    });
    expect(sent.status).toBe(200);
    expect((await heard).payload.message.body).toBe("Olá do outro nó");
    listener.close();

    running.proc.kill("SIGKILL");
    const survivorToken = other === a ? adminOnA : adminOnB;
    // Taken while the dead node still holds the lease: the message waits for the node that takes the connection over.
    const afterCrash = await api(other, "POST", `/sandbox/${id}/inbound`, {
      token: survivorToken,
      body: { from: "5511933334444", body: "Depois da queda" },
    });
    expect(afterCrash.status).toBe(200);
    await eventually(
      async () => {
        const tickets = await api(other, "GET", "/tickets?showAll=true", { token: survivorToken });
        return tickets.json.tickets.some((t: { lastMessage: string }) => t.lastMessage === "Depois da queda");
      },
      45_000,
      "the survivor takes the connection over and stores the message",
    );
    expect(await runnerOf(id)).toBe(other);
    expect((await api(other, "GET", `/whatsapp/${id}`, { token: survivorToken })).json.status).toBe("CONNECTED");
  }, 60_000);
});
