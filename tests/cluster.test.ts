import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { freshPgUrl } from "./pg-harness";
import { hasPostgres } from "./sql-servers";
import { TestSocket } from "./ws-client";

const ADMIN = { email: "admin@cluster.test", password: "cluster-admin-password" };
const root = join(import.meta.dir, "..");

interface Node {
  base: string;
  proc: Subprocess;
  dir: string;
}

function freePort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = server;
  server.stop(true);
  return port;
}

/** A Zapdesk server in a process of its own, on the shared database and media directory. */
async function startNode(databaseUrl: string, mediaDir: string): Promise<Node> {
  const port = freePort();
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-node-"));
  const proc = Bun.spawn(["bun", "src/server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      MEDIA_DIR: mediaDir,
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const base = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); Date.now() - started < 30_000; ) {
    const up = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { base, proc, dir };
    await Bun.sleep(100);
  }
  proc.kill("SIGKILL");
  throw new Error(`node on ${port} did not start`);
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

  beforeAll(async () => {
    const url = await freshPgUrl();
    media = mkdtempSync(join(tmpdir(), "zapdesk-media-"));
    a = await startNode(url, media);
    b = await startNode(url, media);
  }, 90_000);

  afterAll(() => {
    for (const node of [a, b]) {
      node?.proc.kill("SIGKILL");
      if (node) rmSync(node.dir, { recursive: true, force: true });
    }
    rmSync(media, { recursive: true, force: true });
  });

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

  test("a campaign stored on one node is sent by the node running its connection, each recipient once", async () => {
    const token = await logIn(a, ADMIN);
    const connection = await api(b, "POST", "/whatsapp", { token, body: { name: "Campanha", provider: "sandbox" } });
    expect(connection.status).toBe(200);
    const id = connection.json.id as number;
    const running = await eventually(
      async () => {
        for (const node of [a, b])
          if ((await api(node, "POST", `/sandbox/${id}/scan`, { token })).status === 200) return node;
        return undefined;
      },
      10_000,
      "a node runs the new connection",
    );
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

  test("a socket on B hears, within a second, a customer's message A stored; SIGKILL A and B runs A's connection within 30 s", async () => {
    const adminOnA = await logIn(a, ADMIN);
    const adminOnB = await logIn(b, ADMIN);
    const connection = await api(a, "POST", "/whatsapp", {
      token: adminOnA,
      body: { name: "Loja", provider: "sandbox", isDefault: true },
    });
    expect(connection.status).toBe(200);
    const id = connection.json.id as number;
    // One of the two nodes runs it (the first to take its lease): the customer writes through that one.
    const running = await eventually(
      async () => {
        for (const node of [a, b]) {
          const scanned = await api(node, "POST", `/sandbox/${id}/scan`, { token: adminOnA });
          if (scanned.status === 200) return node;
        }
        return undefined;
      },
      10_000,
      "a node runs the new connection",
    );
    const other = running === a ? b : a;
    const listener = await TestSocket.open(
      `${other.base.replace("http", "ws")}/ws?token=${other === a ? adminOnA : adminOnB}`,
    );
    await listener.next("ready");
    listener.send({ type: "joinNotification" });
    listener.send({ type: "joinTickets", status: "pending" });
    await listener.fence();
    const heard = listener.next("appMessage", 1000);
    const sent = await api(running, "POST", `/sandbox/${id}/inbound`, {
      token: adminOnA,
      body: { from: "5511933334444", body: "Olá do outro nó" },
    });
    expect(sent.status).toBe(200);
    expect((await heard).payload.message.body).toBe("Olá do outro nó");
    listener.close();

    running.proc.kill("SIGKILL");
    const survivorToken = other === a ? adminOnA : adminOnB;
    const killedAt = Date.now();
    await eventually(
      async () => {
        const res = await api(other, "GET", `/whatsapp/${id}`, { token: survivorToken });
        const inbound = await api(other, "POST", `/sandbox/${id}/inbound`, {
          token: survivorToken,
          body: { from: "5511933334444", body: "Depois da queda" },
        });
        return res.json?.status === "CONNECTED" && inbound.status === 200;
      },
      30_000,
      "the survivor runs the connection and takes messages",
    );
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    const tickets = await api(other, "GET", "/tickets?showAll=true", { token: survivorToken });
    expect(tickets.json.tickets[0].lastMessage).toBe("Depois da queda");
  }, 60_000);
});
